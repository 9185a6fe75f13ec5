/**
 * Claude Code's UserPromptExpansion hook, run by the built CLI against the scripted model server:
 * a command the user typed that expands to a prompt (here a command file of ~/.claude/commands)
 * runs it with the command's name, arguments and the typed line; its matcher is the command's
 * name; plain stdout joins the prompt; exit 2 (or `decision: "block"`) drops the expansion with
 * the reason shown, and nothing is sent to the model.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

/** ~/.claude/commands/<name>.md, and UserPromptExpansion hooks: each group runs `record.py <log> <exit> <stdout>`. */
function setUp(s: Scenario, log: string, groups: { matcher?: string; exit: number; stdout: string }[]): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
  mkdirSync(path.join(s.home, '.claude', 'commands'), { recursive: true });
  writeFileSync(path.join(s.home, '.claude', 'commands', 'greet.md'), 'Say hello to $ARGUMENTS politely.\n');
  writeFileSync(path.join(s.home, '.claude', 'commands', 'deploy.md'), 'Deploy $ARGUMENTS now.\n');
  const script = path.join(s.home, '.claude', 'record.py');
  writeFileSync(script, ['import json, sys', 'p = json.load(sys.stdin)', 'open(sys.argv[1], "a").write(json.dumps(p) + "\\n")', 'print(sys.argv[3])', 'sys.stderr.write("deploys are frozen today\\n")', 'sys.exit(int(sys.argv[2]))'].join('\n'));
  const quoted = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
  writeFileSync(
    path.join(s.home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { UserPromptExpansion: groups.map((group) => ({ ...(group.matcher ? { matcher: group.matcher } : {}), hooks: [{ type: 'command', command: `python3 ${script} ${log} ${group.exit} ${quoted(group.stdout)}` }] })) } }),
  );
}

test("UserPromptExpansion runs for a typed command with Claude Code's fields; its stdout joins the expanded prompt; its matcher is the command name", async () => {
  await scenario([{ text: 'hello!' }], async (s) => {
    const log = path.join(s.home, 'expansion.jsonl');
    setUp(s, log, [{ matcher: 'greet', exit: 0, stdout: 'EXPANSION-CONTEXT-41' }, { matcher: 'deploy', exit: 2, stdout: '' }]);
    const r = await s.run(['-p', '/greet the team']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('not supported by MewCode yet');
    const seen = records(log);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ hook_event_name: 'UserPromptExpansion', expansion_type: 'slash_command', command_name: 'greet', command_args: 'the team', prompt: '/greet the team', session_id: expect.any(String), cwd: s.cwd });
    const sent = JSON.stringify(s.requests[0]!.body.messages);
    expect(sent).toContain('Say hello to the team politely.');
    expect(sent).toContain('EXPANSION-CONTEXT-41');
  });
}, 60_000);

test('exit 2 from UserPromptExpansion drops the expansion: the reason is shown and nothing reaches the model', async () => {
  await scenario([{ text: 'deployed' }], async (s) => {
    const log = path.join(s.home, 'expansion.jsonl');
    setUp(s, log, [{ matcher: 'deploy', exit: 2, stdout: '' }]);
    const r = await s.run(['-p', '/deploy prod']);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('deploys are frozen today');
    expect(s.requests).toHaveLength(0);
    expect(records(log)).toHaveLength(1);
  });
}, 60_000);

test('decision "block" in JSON drops the expansion too, with its reason', async () => {
  await scenario([{ text: 'deployed' }], async (s) => {
    const log = path.join(s.home, 'expansion.jsonl');
    setUp(s, log, [{ exit: 0, stdout: JSON.stringify({ decision: 'block', reason: 'ask the release manager' }) }]);
    const r = await s.run(['-p', '/deploy prod']);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('ask the release manager');
    expect(s.requests).toHaveLength(0);
  });
}, 60_000);
