/**
 * A Claude Code hook script, brought with `~/.claude/settings.json`, gets what Claude Code gives
 * it: `permission_mode` on every event, as the mode in effect — a `defaultMode` of the settings
 * files included — and a `transcript_path` that exists when the hook runs, in Claude Code's
 * transcript shape (`.type`, `.message.role`, `.message.content`).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'];

/** `~/.claude/settings.json` with `permissions` and a recorder on every event; the recorder also copies the transcript as it found it. */
function claudeSettings(s: Scenario, permissions: Record<string, unknown>, log: string): void {
  const script = path.join(s.home, '.claude', 'hooks', 'record.py');
  mkdirSync(path.dirname(script), { recursive: true });
  writeFileSync(
    script,
    [
      'import json, os, sys',
      'p = json.load(sys.stdin)',
      't = p.get("transcript_path")',
      'p["transcript_exists"] = bool(t) and os.path.exists(t)',
      'p["transcript_lines"] = [json.loads(l) for l in open(t)] if p["transcript_exists"] else []',
      `open(${JSON.stringify(log)}, "a").write(json.dumps(p) + "\\n")`,
    ].join('\n'),
  );
  const hook = [{ hooks: [{ type: 'command', command: `python3 ${script}` }] }];
  writeFileSync(path.join(s.home, '.claude', 'settings.json'), JSON.stringify({ permissions, hooks: Object.fromEntries(EVENTS.map((event) => [event, hook])) }, null, 2));
}

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

const TURNS = [{ toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'echo hi' } }] }, { text: 'all done' }];

for (const mode of ['dontAsk', 'acceptEdits', 'plan']) {
  test(`defaultMode ${mode} in ~/.claude/settings.json is every payload's permission_mode`, async () => {
    await scenario(TURNS, async (s) => {
      s.env.MEWCODE_TRUST_PROJECT = '1';
      const log = path.join(s.home, 'hooks.jsonl');
      claudeSettings(s, { defaultMode: mode, allow: ['Bash(echo *)'] }, log);
      expect((await s.run(['-p', 'say hi'])).code).toBe(0);
      const seen = records(log);
      expect(seen.map((payload) => payload.hook_event_name)).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']));
      for (const payload of seen) expect([payload.hook_event_name, payload.permission_mode]).toEqual([payload.hook_event_name, mode]);
    });
  }, 60_000);
}

test('a --permission-mode on the command line wins over the settings', async () => {
  await scenario(TURNS, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    const log = path.join(s.home, 'hooks.jsonl');
    claudeSettings(s, { defaultMode: 'dontAsk' }, log);
    expect((await s.run(['-p', 'say hi', '--permission-mode', 'acceptEdits'])).code).toBe(0);
    const modes = new Set(records(log).map((payload) => payload.permission_mode));
    expect([...modes]).toEqual(['acceptEdits']);
  });
}, 60_000);

test("transcript_path exists when each hook runs and reads as Claude Code's transcript", async () => {
  const turns = [{ text: 'checking', toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'echo hi' } }] }, { text: 'all done' }, { text: 'again' }];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    const log = path.join(s.home, 'hooks.jsonl');
    claudeSettings(s, { allow: ['Bash(echo *)'] }, log);
    expect((await s.run(['-p', 'say hi'])).code).toBe(0);
    expect((await s.run(['-p', 'and again', '--continue'])).code).toBe(0);
    const seen = records(log);
    for (const payload of seen) expect([payload.hook_event_name, payload.transcript_exists]).toEqual([payload.hook_event_name, true]);
    const byEvent = (name: string): Record<string, any>[] => seen.filter((payload) => payload.hook_event_name === name);
    // What a Claude Code script reads: .type, .message.role, .message.content (a string or blocks).
    const stop = byEvent('Stop')[0]!.transcript_lines as Record<string, any>[];
    expect(stop.map((line) => [line.type, line.message.role])).toEqual([
      ['user', 'user'],
      ['assistant', 'assistant'],
      ['user', 'user'],
      ['assistant', 'assistant'],
    ]);
    expect(stop[0]!.message.content).toBe('say hi');
    expect(stop[1]!.message.content).toEqual([{ type: 'text', text: 'checking' }, { type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'echo hi' } }]);
    expect(stop[2]!.message.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'c1', is_error: false, content: expect.stringContaining('hi') })]);
    expect(stop[3]!.message.content).toEqual([{ type: 'text', text: 'all done' }]);
    for (const line of stop) expect(line).toMatchObject({ sessionId: seen[0]!.session_id, uuid: expect.any(String), timestamp: expect.any(String) });
    // The continued session's transcript holds the earlier exchange too, once.
    const second = byEvent('Stop')[1]!.transcript_lines as Record<string, any>[];
    expect(second.map((line) => line.message.content).filter((content) => typeof content === 'string')).toEqual(['say hi', 'and again']);
    expect(second.at(-1)!.message.content).toEqual([{ type: 'text', text: 'again' }]);
  });
}, 60_000);
