/**
 * How far before a command's start a change still counts as the command's (file-clock.ts): a tick
 * of the file system's clock, 100 ms where ctimes have a fraction of a second, and there no earlier
 * than the end of the last tool call. A file the user or write_file made just before a bash call is
 * theirs, not the command's: the sweep after it leaves such a file alone, and still sets aside what
 * the command itself wrote.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLOCK_LAG_MS, commandClockSlack, commandSince, FINE_TICK_MS, TICK_MS } from '../../../plugins/sandbox-os/file-clock.js';
import { QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';
import { sandboxFixture, type SandboxFixture } from './fixture.js';

describe('the allowance for a coarse clock', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-command-clock-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a tick of the fine clock when every root is on a local file system with sub-second ctimes', () => {
    expect(commandClockSlack([dir], [])).toBe(FINE_TICK_MS);
    expect(commandClockSlack([dir, path.dirname(dir)], [])).toBe(FINE_TICK_MS);
  });

  test('the long tick when a file system is mounted below a root (its times may come from another clock)', () => {
    expect(commandClockSlack([dir], [{ mountPoint: '/' }, { mountPoint: dir }])).toBe(FINE_TICK_MS);
    expect(commandClockSlack([dir], [{ mountPoint: '/' }, { mountPoint: path.join(dir, 'remote') }])).toBe(TICK_MS);
    expect(commandSince(1_780_000_000_000, [dir], [{ mountPoint: path.join(dir, 'a', 'nfs') }], 1_780_000_000_000 - 50)).toBe(1_780_000_000_000 - TICK_MS);
  });

  test('the long tick when any root is not, cannot be looked at, or there is none', () => {
    expect(commandClockSlack([dir, '/proc/self'], [])).toBe(TICK_MS);
    expect(commandClockSlack([dir, path.join(dir, 'missing')], [])).toBe(TICK_MS);
    expect(commandClockSlack([], [])).toBe(TICK_MS);
  });
  test("on a fine clock it starts just after the last tool call's end, unless that was within the clock's lag", () => {
    const now = 1_780_000_000_000;
    expect(commandSince(now, [dir], [], undefined)).toBe(now - FINE_TICK_MS);
    expect(commandSince(now, [dir], [], now - 500)).toBe(now - FINE_TICK_MS);
    expect(commandSince(now, [dir], [], now - FINE_TICK_MS - 1)).toBe(now - FINE_TICK_MS);
    expect(commandSince(now, [dir], [], now - FINE_TICK_MS + 1)).toBe(now - FINE_TICK_MS + 2);
    expect(commandSince(now, [dir], [], now - 50)).toBe(now - 49);
    expect(commandSince(now, [dir], [], now - CLOCK_LAG_MS - 1)).toBe(now - CLOCK_LAG_MS);
    expect(commandSince(now, [dir], [], now - CLOCK_LAG_MS)).toBe(now - CLOCK_LAG_MS);
    expect(commandSince(now, [dir], [], now - 5)).toBe(now - CLOCK_LAG_MS);
    // A coarse clock: the long tick, whatever ended when.
    expect(commandSince(now, [dir, '/proc/self'], [], now - 50)).toBe(now - TICK_MS);
  });
});

describe('through a sandboxed command', () => {
  let fixture: SandboxFixture;
  beforeAll(async () => {
    fixture = await sandboxFixture();
    if (!fixture.status.active && process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error(`the OS sandbox must run here: ${fixture.status.reason}`);
  });

  const TASKS = '{"tasks":[{"command":"make","runOptions":{"runOn":"folderOpen"}}]}';

  test("a package's .vscode the user made between two commands, a little more than a tick before the second, is theirs: left as it is", async () => {
    if (!fixture.status.active) return; // no sandbox here: no sweep after the command (tallied by the security suites)
    expect((await fixture.run('echo first')).content).toContain('first');
    const mine = path.join(fixture.root, 'packages', 'mine', '.vscode');
    mkdirSync(mine, { recursive: true });
    writeFileSync(path.join(mine, 'tasks.json'), TASKS);
    await new Promise((resolve) => setTimeout(resolve, FINE_TICK_MS + 150));
    const result = await fixture.run('echo done');
    expect(result.content).toContain('done');
    expect(existsSync(path.join(mine, 'tasks.json'))).toBe(true);
    expect(existsSync(`${mine}${QUARANTINE_SUFFIX}`)).toBe(false);
    expect(fixture.warnings.join('\n')).not.toMatch(/packages\/mine/);
  });

  test('a .vscode write_file made just before the command, in the same turn, is the call\'s: left as it is', async () => {
    if (!fixture.status.active) return; // no sandbox here (tallied by the security suites)
    const written = path.join(fixture.root, 'packages', 'written', '.vscode');
    mkdirSync(written, { recursive: true });
    writeFileSync(path.join(written, 'settings.json'), '{"editor.tabSize": 2}');
    fixture.sandbox.callEnded(); // the write_file call ended (the plugin's postToolUse tap)
    await new Promise((resolve) => setTimeout(resolve, CLOCK_LAG_MS + 10));
    const result = await fixture.run('echo done');
    expect(result.content).toContain('done');
    expect(existsSync(path.join(written, 'settings.json'))).toBe(true);
    expect(existsSync(`${written}${QUARANTINE_SUFFIX}`)).toBe(false);
    expect(fixture.warnings.join('\n')).not.toMatch(/packages\/written/);
  });

  test('one the command makes is still set aside', async () => {
    if (!fixture.status.active) return; // no sandbox here (tallied by the security suites)
    const planted = path.join(fixture.root, 'packages', 'planted', '.vscode');
    const result = await fixture.run(`mkdir -p packages/planted/.vscode && printf '%s' '${TASKS}' > packages/planted/.vscode/tasks.json && echo done`);
    expect(result.content).toContain('done');
    expect(existsSync(`${planted}${QUARANTINE_SUFFIX}`)).toBe(true);
    expect(fixture.warnings.join('\n')).toMatch(/packages\/planted\/\.vscode/);
  });
});
