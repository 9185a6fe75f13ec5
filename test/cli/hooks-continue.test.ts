/**
 * A hook's `{"continue": false, "stopReason": …}` through the built CLI, as Claude Code documents
 * it: processing stops after the hook (on PreToolUse the call does not run, on PostToolUse the
 * call ran), the model is asked nothing more, and the stopReason is the user's — on standard
 * error and in the result — never the model's, not even when the session is continued. The run
 * ends as any run does (exit 0, `is_error: false`) with `stop_reason: "stopped"`.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, singleJsonObject, type Scenario } from './helpers.js';

afterEach(removeTempDirs);

const REASON = 'Build failed, fix errors before continuing';

/** The user's own hooks (`~/.mewcode/settings.yaml`), in a project the user trusts. */
function userHooks(s: Scenario, hooks: Record<string, unknown>): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
}

/** A hook command that answers `continue: false` when the payload mentions `when`, else nothing. */
const stopWhen = (when: string): string => `grep -q '${when}' && printf '%s' '${JSON.stringify({ continue: false, stopReason: REASON })}'; exit 0`;

const bash = (id: string, command: string) => ({ id, name: 'bash', input: { command, description: command } });
const toolResults = (body: any): any[] => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result') : []));

test.each([
  ['PreToolUse', false],
  ['PostToolUse', true],
] as const)('%s continue:false: the run ends after the call (ran: %s), the stopReason goes to the user, not the model', async (event, ran) => {
  await scenario([{ toolCalls: [bash('c1', 'touch first.txt')] }, { text: 'I went on after the hook said stop' }, { text: 'second run' }], async (s) => {
    userHooks(s, { [event]: [{ matcher: 'Bash', hooks: [{ type: 'command', command: stopWhen('first') }] }] });
    const result = await s.run(['-p', 'go', '--output-format', 'json', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    const json = singleJsonObject(result.stdout);
    expect(json).toMatchObject({ type: 'result', subtype: 'success', is_error: false, stop_reason: 'stopped', num_turns: 1 });
    expect(json.result).toContain(REASON);
    expect(result.stderr).toContain(`stopped the run: ${REASON}`);
    expect(s.requests).toHaveLength(1);
    expect(existsSync(path.join(s.cwd, 'first.txt'))).toBe(ran);

    // The history is valid (the call has its result) and the model never reads the reason.
    const next = await s.run(['--continue', '-p', 'and now?', '--output-format', 'json']);
    expect(next.code).toBe(0);
    expect(s.requests).toHaveLength(2);
    const body = s.requests[1]!.body;
    expect(toolResults(body).map((b: any) => b.tool_use_id)).toEqual(['c1']);
    expect(JSON.stringify(body)).not.toContain(REASON);
    expect(JSON.stringify(body)).toContain('Stopped by hook');
  });
});

test('PreToolUse continue:false on the first of two calls that each run alone: the second never starts, and its result says so', async () => {
  await scenario([{ toolCalls: [bash('c1', 'touch first.txt'), bash('c2', 'touch second.txt')] }, { text: 'should not be asked' }, { text: 'second run' }], async (s) => {
    userHooks(s, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: stopWhen('first') }] }] });
    const result = await s.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(REASON);
    expect(s.requests).toHaveLength(1);
    expect(existsSync(path.join(s.cwd, 'first.txt'))).toBe(false);
    expect(existsSync(path.join(s.cwd, 'second.txt'))).toBe(false);
    await s.run(['--continue', '-p', 'and now?']);
    const results = toolResults(s.requests[1]!.body);
    expect(results.map((b: any) => b.tool_use_id)).toEqual(['c1', 'c2']);
    expect(JSON.stringify(results[1].content)).toContain('stopped the run before this call started');
  });
});
