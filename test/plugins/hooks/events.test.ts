/**
 * Every hook event is dispatched at its moment in a scripted session (issue 13, H1), with
 * Claude Code's payload fields; async hooks never hold the run up and are cancelled at shutdown.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { matches, fromClaudeToolInput, claudeToolInput } from '../../../plugins/hooks/events.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Message } from '../../../types/messages.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'Notification', 'SessionEnd'];

/** A project and home whose ~/.mewcode/settings.yaml records every event's payload in events.jsonl. */
function recordingSetup(extra: Record<string, unknown[]> = {}): { root: string; home: string; record: string } {
  const root = temp('mewcode-hooks-root-');
  const home = temp('mewcode-hooks-home-');
  const record = path.join(root, 'events.jsonl');
  const recorder = `cat >> ${record}; echo >> ${record}`;
  const hooks: Record<string, unknown[]> = {};
  for (const event of EVENTS) hooks[event] = [{ hooks: [{ type: 'command', command: recorder }] }];
  for (const [event, groups] of Object.entries(extra)) hooks[event] = [...(hooks[event] ?? []), ...groups];
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
  return { root, home, record };
}

const recorded = (file: string): Record<string, any>[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : [];

const echoTool: Tool = { name: 'read_file', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async (input) => ({ content: `read ${String(input.path)}` }) };
const summarising = definePlugin({
  name: 'test-compaction',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool).toConstantValue(echoTool);
    bind(TOKENS.CompactionService).toConstantValue({
      shouldCompact: () => false,
      compact: async (): Promise<Message[]> => [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] }],
    });
  }),
});

test('every event is dispatched at its moment, with Claude Code\'s payload fields and tool names', async () => {
  const { root, home, record } = recordingSetup();
  const { kernel } = await bootKernel([useTools([call('read_file', { path: 'a.txt' })]), say('done'), say('child done')], [summarising, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  await kernel.startSession();
  await runPrompt(kernel, 'read it', 'default');
  const child = kernel.createSession({ parent: kernel.session });
  for await (const _event of child.run({ prompt: 'sub task', mode: 'default' })) void _event;
  await kernel.session.compact('default', { focus: 'keep the plan' });
  kernel.notify('approval_needed', 'MewCode needs your approval');
  await new Promise((resolve) => setTimeout(resolve, 200)); // notification hooks are not awaited
  await kernel.shutdown();

  const events = recorded(record);
  // After the compaction SessionStart runs again with source "compact", as in Claude Code.
  expect(events.map((e) => e.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionStart', 'Notification', 'SessionEnd']);
  for (const event of events) {
    expect(event.session_id).toBe(kernel.session.sessionId);
    expect(event.cwd).toBe(root);
  }
  const byName = Object.fromEntries([...events].reverse().map((e) => [e.hook_event_name, e]));
  expect(byName.SessionStart).toMatchObject({ source: 'startup', model: expect.any(String) });
  expect(events.filter((e) => e.hook_event_name === 'SessionStart').map((e) => e.source)).toEqual(['startup', 'compact']);
  expect(byName.UserPromptSubmit).toMatchObject({ prompt: 'read it', permission_mode: 'default' });
  expect(byName.PreToolUse).toMatchObject({ tool_name: 'Read', tool_input: { path: 'a.txt', file_path: path.join(root, 'a.txt') }, tool_use_id: expect.any(String) });
  expect(byName.PostToolUse).toMatchObject({ tool_name: 'Read', tool_response: { output: 'read a.txt', is_error: false } });
  expect(byName.Stop).toMatchObject({ stop_hook_active: false, last_assistant_message: 'done' });
  expect(byName.SubagentStop).toMatchObject({ agent_id: child.agentId, last_assistant_message: 'child done' });
  expect(byName.PreCompact).toMatchObject({ trigger: 'manual', custom_instructions: 'keep the plan' });
  expect(byName.Notification).toMatchObject({ message: 'MewCode needs your approval', notification_type: 'permission_prompt' });
  expect(byName.SessionEnd).toMatchObject({ reason: 'other' });
  // Claude Code's common fields are on every event.
  // The main session's transcript, in Claude Code's shape; inside a sub-agent its own too.
  const sessionDir = path.join(root, '.mewcode', 'sessions', kernel.session.sessionId);
  for (const event of events) expect(event.transcript_path).toBe(path.join(sessionDir, 'claude-transcript.jsonl'));
  for (const event of events) expect(event.agent_transcript_path).toBe(event.agent_id ? path.join(sessionDir, 'agents', `${event.agent_id}.claude.jsonl`) : undefined);
  // Every run is in the hook log.
  const log = readFileSync(path.join(root, '.mewcode', 'hooks.log'), 'utf8').trim().split('\n');
  expect(log).toHaveLength(11);
});

test('SessionStart stdout joins the session\'s history with the next prompt; matchers select by source', async () => {
  const root = temp('mewcode-hooks-root-');
  const home = temp('mewcode-hooks-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'settings.yaml'),
    JSON.stringify({
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo "Branch policy: work on feature branches"' }] },
          { matcher: 'resume', hooks: [{ type: 'command', command: 'echo "Welcome back: never shown at startup"' }] },
        ],
      },
    }),
  );
  const { kernel, model } = await bootKernel([say('ok'), say('resumed')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await kernel.startSession();
    await runPrompt(kernel, 'hi');
    const sent = (index: number): string => JSON.stringify(model.requests[index]!.messages);
    expect(sent(0)).toContain('Branch policy: work on feature branches');
    expect(sent(0)).not.toContain('never shown');
    // A resumed session is SessionStart with source "resume" (Claude Code's name for it); the
    // startup context is still in its history.
    await kernel.resumeSession({ sessionId: kernel.session.sessionId, agentId: 'main', messages: [...kernel.session.conversation.messages] });
    await runPrompt(kernel, 'again');
    expect(sent(1)).toContain('Welcome back');
    expect(sent(1)).toContain('Branch policy: work on feature branches');
  } finally {
    await kernel.shutdown();
  }
});

test('/clear (a fresh, empty conversation) is SessionStart with source "clear", run once', async () => {
  const root = temp('mewcode-hooks-root-');
  const home = temp('mewcode-hooks-home-');
  const log = path.join(root, 'sources.log');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'settings.yaml'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `python3 -c 'import json,sys; open("${log}","a").write(json.load(sys.stdin)["source"] + "\\n")'` }] }] } }),
  );
  const { kernel } = await bootKernel([say('ok')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await kernel.startSession();
    await runPrompt(kernel, 'hi');
    // What the terminal UI's /clear does: a new session id, resumed with no history.
    const fresh = kernel.createSession().sessionId;
    await kernel.resumeSession({ sessionId: fresh, messages: [], agentId: 'main' });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['startup', 'clear']);
  } finally {
    await kernel.shutdown();
  }
});

test('an async hook does not hold the run up, decides nothing, and is cancelled at shutdown', async () => {
  const root = temp('mewcode-hooks-root-');
  const home = temp('mewcode-hooks-home-');
  const marker = path.join(root, 'async-finished');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'settings.yaml'),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `sleep 3; touch ${marker}; exit 2`, async: true }] }] } }),
  );
  const { kernel, model } = await bootKernel([say('ok')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  const started = performance.now();
  await runPrompt(kernel, 'hi');
  expect(performance.now() - started).toBeLessThan(2000);
  expect(model.requests).toHaveLength(1); // not blocked
  await kernel.shutdown();
  await new Promise((resolve) => setTimeout(resolve, 3500));
  expect(existsSync(marker)).toBe(false);
}, 15_000);

test('matchers speak Claude Code\'s syntax; updatedInput in Claude\'s field names comes back in ours', () => {
  expect(matches('', ['Bash'])).toBe(true);
  expect(matches('*', ['Bash'])).toBe(true);
  expect(matches('Edit|Write', ['Write', 'write_file'])).toBe(true);
  expect(matches('Edit, Write', ['Read', 'read_file'])).toBe(false);
  expect(matches('mcp__memory__.*', ['mcp__memory__create'])).toBe(true);
  expect(matches('mcp__memory', ['mcp__memory__create'])).toBe(false); // an exact name, as in Claude Code
  expect(matches('Edit.*', ['NotebookEdit'])).toBe(true); // unanchored
  // a project's matcher runs in linear time: V8 would backtrack on this one for days
  expect(matches('^(a|aa)+$', [`mcp__${'a'.repeat(80)}`, `${'a'.repeat(80)}!`])).toBe(false);
  expect(matches('^(a|aa)+$', ['a'.repeat(80)])).toBe(true);
  const root = '/p';
  const original = { path: 'src/a.ts', content: 'x' };
  expect(claudeToolInput('write_file', original, root)).toEqual({ path: 'src/a.ts', content: 'x', file_path: '/p/src/a.ts' });
  expect(fromClaudeToolInput('write_file', { file_path: '/p/src/b.ts', content: 'y' }, original, root)).toEqual({ path: '/p/src/b.ts', content: 'y' });
  expect(fromClaudeToolInput('write_file', { path: 'src/c.ts', file_path: '/p/src/a.ts', content: 'y' }, original, root)).toEqual({ path: 'src/c.ts', content: 'y' });
});
