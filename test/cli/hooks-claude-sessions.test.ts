/**
 * Claude Code hooks as Claude Code runs them, through the built CLI: SessionStart context lasts
 * the whole session (and a continued one), each SessionStart source runs once with its own
 * `source`, and the sub-agent tool is `Task` to matchers and payloads, with `agent_type`.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

/**
 * These hooks are the user's own, run as Claude Code runs them: on the host, in a project the
 * user trusts (in an untrusted one they run in the OS sandbox, test/plugins/hooks/untrusted-project.test.ts).
 */
const trustedScenario: typeof scenario = (turns, body, protocol) =>
  scenario(turns, (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    return body(s);
  }, protocol);

type Hooks = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;

function userHooks(s: Scenario, hooks: Hooks): void {
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }, null, 2));
}

/** A hook that appends `<label> <payload>` (one JSON line) to `log` and prints nothing. */
function recorder(s: Scenario, label: string, log: string): string {
  const file = path.join(s.home, `record-${label}.py`);
  writeFileSync(
    file,
    `import json, sys\npayload = json.load(sys.stdin)\nwith open(${JSON.stringify(log)}, 'a') as f:\n    f.write(json.dumps({"label": ${JSON.stringify(label)}, **payload}) + "\\n")\n`,
  );
  return `python3 ${file}`;
}

function records(log: string): Record<string, any>[] {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
}

const STYLE = 'Explain your choices in an Insight block before each change.';

/** Every text the model was sent in a request's messages (reminders included). */
const sentTexts = (body: any): string => JSON.stringify(body.messages);

test('SessionStart additionalContext reaches every request of the session and of the continued session', async () => {
  const turns = [
    { toolCalls: [{ id: 'c1', name: 'glob', input: { pattern: '*.txt' } }] },
    { text: 'done' },
    { text: 'continued' },
  ];
  await trustedScenario(turns, async (s) => {
    const style = path.join(s.home, 'style.py');
    writeFileSync(style, `import json\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ${JSON.stringify(STYLE)}}}))\n`);
    userHooks(s, { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: `python3 ${style}` }] }] });
    expect((await s.run(['-p', 'list the text files'])).code).toBe(0);
    expect(sentTexts(s.requests[0]!.body)).toContain(STYLE);
    expect(sentTexts(s.requests[1]!.body)).toContain(STYLE);
    // The stable prompt prefix stays byte-identical across the turns of a run.
    expect(JSON.stringify(s.requests[1]!.body.system)).toBe(JSON.stringify(s.requests[0]!.body.system));
    // Continued: the hook matched `startup` only, so the context comes from the saved session.
    expect((await s.run(['-c', '-p', 'go on'])).code).toBe(0);
    expect(sentTexts(s.requests[2]!.body)).toContain(STYLE);
    expect(sentTexts(s.requests[2]!.body).split(STYLE).length - 1).toBe(1);
  });
});

test('--continue runs SessionStart once with source "resume": startup hooks stay quiet, matcher-less hooks run once', async () => {
  await trustedScenario([{ text: 'one' }, { text: 'two' }], async (s) => {
    const log = path.join(s.home, 'session-start.log');
    userHooks(s, {
      SessionStart: [
        { matcher: 'startup', hooks: [{ type: 'command', command: recorder(s, 'startup', log) }] },
        { matcher: 'resume', hooks: [{ type: 'command', command: recorder(s, 'resume', log) }] },
        { hooks: [{ type: 'command', command: recorder(s, 'any', log) }] },
      ],
    });
    expect((await s.run(['-p', 'first'])).code).toBe(0);
    expect(records(log).map((r) => `${r.label}:${r.source}`).sort()).toEqual(['any:startup', 'startup:startup']);
    writeFileSync(log, '');
    expect((await s.run(['-c', '-p', 'second'])).code).toBe(0);
    expect(records(log).map((r) => `${r.label}:${r.source}`).sort()).toEqual(['any:resume', 'resume:resume']);
  });
});

test('the sub-agent tool is Task to hook matchers and payloads; subagent events carry agent_type', async () => {
  const turns = [
    { toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { description: 'look around', prompt: 'List the files', subagent_type: 'explore' } }] },
    { text: 'Nothing here.' },
    { text: 'The helper found nothing.' },
  ];
  await trustedScenario(turns, async (s) => {
    const log = path.join(s.home, 'task.log');
    userHooks(s, {
      PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: recorder(s, 'pre', log) }] }],
      PostToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: recorder(s, 'post', log) }] }],
      SubagentStart: [{ matcher: 'explore', hooks: [{ type: 'command', command: recorder(s, 'substart', log) }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: recorder(s, 'substop', log) }] }],
    });
    const result = await s.run(['-p', 'delegate it']);
    expect(result.code).toBe(0);
    const seen = records(log);
    expect(seen.find((r) => r.label === 'pre')).toMatchObject({ tool_name: 'Task', tool_input: { subagent_type: 'Explore', prompt: 'List the files' } });
    expect(seen.find((r) => r.label === 'post')).toMatchObject({ tool_name: 'Task' });
    expect(seen.find((r) => r.label === 'substart')).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'Explore' });
    expect(seen.find((r) => r.label === 'substop')).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'Explore' });
    expect(seen.find((r) => r.label === 'substop')!.agent_id).toMatch(/^agent-/);
  });
});

test('/compact runs SessionStart with source "compact" once, and its context stands after the summary', async () => {
  const turns = [{ text: 'one' }, { text: 'two' }, { text: 'Summary: the user said first and second.' }, { text: 'after' }];
  await trustedScenario(turns, async (s) => {
    const log = path.join(s.home, 'compact.log');
    const context = path.join(s.home, 'context.py');
    writeFileSync(context, `import json, sys\npayload = json.load(sys.stdin)\nopen(${JSON.stringify(log)}, 'a').write(payload["source"] + "\\n")\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "CONTEXT-" + payload["source"]}}))\n`);
    userHooks(s, { SessionStart: [{ hooks: [{ type: 'command', command: `python3 ${context}` }] }] });
    expect((await s.run(['-p', 'first'])).code).toBe(0);
    expect((await s.run(['-c', '-p', 'second'])).code).toBe(0);
    const compacted = await s.run(['-c', '-p', '/compact']);
    expect(compacted.code).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['startup', 'resume', 'resume', 'compact']);
    expect((await s.run(['-c', '-p', 'go on'])).code).toBe(0);
    const last = JSON.stringify(s.requests.at(-1)!.body.messages);
    expect(last).toContain('Summary: the user said first and second.');
    expect(last).toContain('CONTEXT-compact');
  });
});
