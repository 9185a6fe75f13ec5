/**
 * Claude Code's SessionEnd reasons and permission_mode spelling through the real CLI: a -p run
 * ends with `other`; in the terminal UI /clear ends the session with `clear`, /resume of another
 * with `resume`, and leaving it (/exit, Ctrl+C twice) with `prompt_input_exit`; a run under
 * `--permission-mode dontAsk` is `dontAsk` to hooks and to the stream's init message.
 */
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';
import { EXITED, printScreen, TmuxTerminal } from './tmux.js';

const TEST_TIMEOUT_MS = 90_000;
let bin = '';
const terminals: TmuxTerminal[] = [];

beforeAll(async () => {
  execFileSync('tmux', ['-V']);
  bin = await prepareCli();
}, 120_000);
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});
afterAll(() => removeTempDirs());

/** The user's own hooks, run on the host: the project is trusted for the run. */
function trusted(s: Scenario): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
}

/** ~/.mewcode/settings.yaml: every listed event recorded as `{label: event, …payload}` lines in `log`. */
function recordAll(s: Scenario, events: string[], log: string): void {
  const script = path.join(s.home, 'record.py');
  writeFileSync(script, `import json, sys\npayload = json.load(sys.stdin)\nwith open(${JSON.stringify(log)}, 'a') as f:\n    f.write(json.dumps(payload) + "\\n")\n`);
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  const hooks = Object.fromEntries(events.map((event) => [event, [{ hooks: [{ type: 'command', command: `python3 ${script}` }] }]]));
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }, null, 2));
}

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

const PROMPT_READY = 'type a prompt, / for commands';

function open(s: Scenario): TmuxTerminal {
  const terminal = new TmuxTerminal();
  terminals.push(terminal);
  terminal.start(bin, [], s.cwd, s.env);
  return terminal;
}

async function command(t: TmuxTerminal, text: string, shown: string): Promise<void> {
  await t.waitFor(PROMPT_READY, 'an idle prompt');
  t.type(text);
  t.keys('Enter');
  await t.waitFor(shown, `${text} done`, { all: true });
}

test('a -p run under --permission-mode dontAsk: hooks and the init message say dontAsk; the run ends with reason other', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    trusted(s);
    const log = path.join(s.home, 'events.jsonl');
    recordAll(s, ['UserPromptSubmit', 'SessionEnd'], log);
    const r = await s.run(['-p', 'go', '--output-format', 'stream-json', '--permission-mode', 'dontAsk']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ type: 'system', subtype: 'init', permission_mode: 'dontAsk' });
    // Every event carries the mode in effect, SessionEnd too (as in Claude Code).
    expect(records(log).map((e) => [e.hook_event_name, e.permission_mode, e.reason])).toEqual([
      ['UserPromptSubmit', 'dontAsk', undefined],
      ['SessionEnd', 'dontAsk', 'other'],
    ]);
  });
}, TEST_TIMEOUT_MS);

test(
  'the terminal UI: /clear ends with clear, /resume of another session with resume, /exit with prompt_input_exit',
  async () => {
    await scenario([{ text: 'First answer.' }], async (s) => {
      trusted(s);
      const log = path.join(s.home, 'events.jsonl');
      recordAll(s, ['SessionStart', 'SessionEnd'], log);
      const t = open(s);
      await command(t, 'hello', 'First answer.');
      const first = records(log)[0]!.session_id as string;
      await command(t, '/clear', 'New conversation');
      await command(t, `/resume ${first}`, `Resumed session ${first}`);
      await t.waitFor(PROMPT_READY, 'an idle prompt');
      t.type('/exit');
      t.keys('Enter');
      const screen = await t.waitFor(EXITED, 'the exit line');
      printScreen('after /exit', screen);
      expect(Number(EXITED.exec(screen)![1])).toBe(0);
      const seen = records(log).map((e) => [e.hook_event_name, e.source ?? e.reason, e.session_id === first ? 'first' : 'other id']);
      expect(seen).toEqual([
        ['SessionStart', 'startup', 'first'],
        ['SessionEnd', 'clear', 'first'],
        ['SessionStart', 'clear', 'other id'],
        ['SessionEnd', 'resume', 'other id'],
        ['SessionStart', 'resume', 'first'],
        ['SessionEnd', 'prompt_input_exit', 'first'],
      ]);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'the terminal UI: Ctrl+C twice at the prompt ends with prompt_input_exit',
  async () => {
    await scenario([], async (s) => {
      trusted(s);
      const log = path.join(s.home, 'events.jsonl');
      recordAll(s, ['SessionEnd'], log);
      const t = open(s);
      await t.waitFor(PROMPT_READY, 'an idle prompt');
      t.keys('C-c');
      await t.waitFor('Press Ctrl+C again to exit');
      t.keys('C-c');
      const screen = await t.waitFor(EXITED, 'the exit line');
      expect(Number(EXITED.exec(screen)![1])).toBe(0);
      expect(records(log).map((e) => e.reason)).toEqual(['prompt_input_exit']);
    });
  },
  TEST_TIMEOUT_MS,
);
