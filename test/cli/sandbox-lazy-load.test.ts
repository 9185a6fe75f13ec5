// Start-up is a feature: the OS sandbox's start (its settings, where its program is, the probe,
// one read of the records of commands a dead MewCode left) is on every launch's path; what running
// a command takes (the mount plan, the git sweep after a command, the sweep of a dead MewCode's
// records) is not. It is loaded at the first command, or by the idle warm-up after the first
// request has left. A resolve hook records every file the built CLI loads, and each file's source
// map says which sources it holds.
import { readFileSync } from 'node:fs';
import { OsCommandSandbox } from '../../plugins/sandbox-os/service.js';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { distFilesByProcess, firstRequests, hookImport } from './load-hook.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** Sources only running a command (or sweeping after a dead MewCode) needs. */
const COMMAND_PART = ['plugins/sandbox-os/git-sweep.ts', 'plugins/sandbox-os/mount-plan.ts', 'plugins/sandbox-os/sandbox-commands.ts', 'plugins/sandbox-os/sweep-recovery.ts'];
/** Of those, what a sandboxed command loads (the recovery sweep only runs when a record is left). */
const LOADED_BY_A_COMMAND = ['plugins/sandbox-os/git-sweep.ts', 'plugins/sandbox-os/mount-plan.ts', 'plugins/sandbox-os/sandbox-commands.ts'];

/** Which of COMMAND_PART the built files hold (their source maps name `../../plugins/…`). */
function commandPartIn(files: Iterable<string>): string[] {
  const sources = new Set<string>();
  for (const file of files) for (const source of JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources as string[]) sources.add(source.replace(/^(\.\.\/)+/, ''));
  return COMMAND_PART.filter((source) => sources.has(source));
}

test("a -p run loads none of the sandbox's command part before its first request; its bash call does", async () => {
  const turns = [{ text: 'Running.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo ran' } }] }, { text: 'Done.' }];
  await scenario(turns, async (s) => {
    const hook = hookImport();
    const result = await s.run(['-p', 'run it', '--permission-mode', 'bypassPermissions'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const sent = firstRequests(hook.log);
    expect(sent.size).toBe(1); // the CLI's own process: the shell parser's sends none
    const pid = [...sent.keys()][0]!;
    expect(commandPartIn(distFilesByProcess(hook.log, true).get(pid) ?? [])).toEqual([]);
    // The check sees the command part when it is loaded: the bash call ran in the sandbox.
    const sandboxActive = (await new OsCommandSandbox({ homeDir: s.home, warn: () => undefined }).probe()).active;
    if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') expect(sandboxActive).toBe(true);
    if (sandboxActive) expect(commandPartIn(distFilesByProcess(hook.log).get(pid) ?? [])).toEqual(LOADED_BY_A_COMMAND);
  });
}, 60_000);
