/**
 * Claude Code's handler `if` through the built CLI: one permission-rule string, matched as the
 * permission rules match (any segment of a compound command, through wrappers), narrows a hook to
 * the calls it names; an `if` that is not a rule, or on an event that is not a tool event, skips
 * the handler with a warning naming the file.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, type Scenario } from './helpers.js';

afterEach(removeTempDirs);

/** The user's own hooks (`~/.mewcode/settings.yaml`), in a project the user trusts. */
function userHooks(s: Scenario, hooks: Record<string, unknown>): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
}

const BLOCK = "cat >/dev/null; echo 'pushing is not allowed from the agent' >&2; exit 2";
const bash = (id: string, command: string) => ({ id, name: 'bash', input: { command, description: command } });
/** Each call's result text, by call id, from the request after the tool round. */
const resultsById = (body: any): Record<string, string> =>
  Object.fromEntries(body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result') : [])).map((b: any) => [b.tool_use_id, JSON.stringify(b.content)]));

test('PreToolUse if "Bash(git push *)": only the calls that push are blocked, however the push is written', async () => {
  const calls = [
    bash('plain', 'echo build ok'),
    bash('push', 'git push origin main'),
    bash('chained', 'echo x && git push origin main'),
    bash('wrapped', 'timeout 5 git push origin main'),
    bash('spelled', '/usr/bin/git push origin main'),
    // A command name computed at run time cannot be checked against the rule: the hook judges it.
    bash('computed', 'g=git; $g push origin main'),
    // A subcommand computed at run time or renamed by an alias may be the push: the hook judges it.
    bash('subSubst', 'git $(echo push) origin main'),
    bash('subVar', 'G=push; git $G origin main'),
    bash('subBrace', 'git {push,origin,main}'),
    bash('subAlias', 'git -c alias.xx=push xx origin main'),
    bash('subBackquote', 'git `echo push` origin main'),
    // Computed words after a subcommand the rule does not name: not a push.
    bash('log', 'echo "log $(echo x)"'),
  ];
  await scenario([{ toolCalls: calls }, { text: 'done' }], async (s) => {
    userHooks(s, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git push *)', command: BLOCK }] }] });
    const result = await s.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('unknown key "if"');
    const results = resultsById(s.requests[1]!.body);
    expect(results.plain).toContain('build ok');
    expect(results.log).toContain('log x');
    for (const id of ['push', 'chained', 'wrapped', 'spelled', 'computed', 'subSubst', 'subVar', 'subBrace', 'subAlias', 'subBackquote']) expect(results[id]).toContain('pushing is not allowed from the agent');
  });
});

test('PostToolUse if: the hook adds its note to the matching call only', async () => {
  await scenario([{ toolCalls: [bash('one', 'echo one'), bash('two', 'echo two')] }, { text: 'done' }], async (s) => {
    userHooks(s, { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(echo two)', command: "cat >/dev/null; echo 'checked by the hook' >&2; exit 2" }] }] });
    const result = await s.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    const results = resultsById(s.requests[1]!.body);
    expect(results.two).toContain('checked by the hook');
    expect(results.one).not.toContain('checked by the hook');
  });
});

test('an if that is not a permission rule, or on an event that is not a tool event: the handler is skipped with a warning', async () => {
  await scenario([{ toolCalls: [bash('push', 'echo build ok')] }, { text: 'done' }], async (s) => {
    userHooks(s, {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git push', command: BLOCK }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', if: 'Bash(git push *)', command: BLOCK }] }],
    });
    const result = await s.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/settings\.yaml:\d+:\d+: if "Bash\(git push" is not a permission rule \(.+\); the handler is skipped/);
    expect(result.stderr).toMatch(/settings\.yaml:\d+:\d+: hooks\.UserPromptSubmit\[0\]\.hooks\[0\]\.if is evaluated only on tool events .*skipped/);
    // Neither handler ran: the prompt went in, the call ran.
    expect(s.requests).toHaveLength(2);
    expect(resultsById(s.requests[1]!.body).push).toContain('build ok');
  });
});
