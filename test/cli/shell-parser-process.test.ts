// The shell parser's WebAssembly runs in a process of its own in the built CLI
// (sdk/shell-command/parser-process.ts): V8's background recompile of the grammar would otherwise
// hold MewCode's exit after every run that parsed a command. A module-resolve hook, inherited by
// the parser's process through NODE_OPTIONS, records which process loads what.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario } from './helpers.js';
import { hookImport, loadRecords } from './load-hook.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** Running (a killed process whose parent is gone may stay a zombie until something reaps it). */
const running = (pid: number): boolean => {
  try {
    const state = /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    return state !== undefined && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
};

test('a run that calls bash parses the command in a child process, which is gone when MewCode exits', async () => {
  // The comment makes the line one for the parser (a plain line needs none: below).
  await scenario([{ text: 'Running.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo parsed-elsewhere # for the parser' } }] }, { text: 'Done.' }], async (s) => {
    const recorder = hookImport();
    const result = await s.run(['-p', 'run it', '--permission-mode', 'bypassPermissions'], { env: { NODE_OPTIONS: recorder.nodeOptions } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.stringify(s.requests[1]?.body)).toContain('parsed-elsewhere');
    const records = loadRecords(recorder.log);
    const main = records.find(({ url }) => url.endsWith('/dist/mewcode.js'))?.pid;
    const parserPids = [...new Set(records.filter(({ url }) => url.includes('/web-tree-sitter/')).map(({ pid }) => pid))];
    expect(Number.isInteger(main)).toBe(true);
    expect(parserPids.length).toBe(1);
    expect(parserPids).not.toContain(main);
    // Killed at MewCode's exit, not left to finish its compile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running(parserPids[0]!)).toBe(false);
  });
}, 60_000);

/** Analyses `commands` with the built SDK in a fresh process; its segments' argv and which processes loaded the grammar. */
function analyseInFreshProcess(commands: string[]): { argv: string[][][]; grammarLoaders: number } {
  const recorder = hookImport();
  const sdk = pathToFileURL(join(REPO_ROOT, 'dist', 'sdk.js')).href;
  const script = `import { analyzeShellCommand } from ${JSON.stringify(sdk)};
const argv = [];
for (const command of ${JSON.stringify(commands)}) argv.push((await analyzeShellCommand(command)).parsed.segments.map((s) => [...s.argv]));
process.stdout.write(JSON.stringify(argv));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: recorder.nodeOptions }, encoding: 'utf8' });
  const loaders = new Set(loadRecords(recorder.log).filter(({ url }) => url.includes('/web-tree-sitter/')).map(({ pid }) => pid));
  return { argv: JSON.parse(out) as string[][][], grammarLoaders: loaders.size };
}

test('plain command lines are analysed without starting the parser; any other line starts it', () => {
  // The first bash call of a fast model should not wait for the grammar's process to start.
  const plain = analyseInFreshProcess(['echo ping', 'cd src && ls -la | head -20', 'npm test 2>&1 | tail -5; git status']);
  expect(plain).toEqual({ argv: [[['echo', 'ping']], [['cd', 'src'], ['ls', '-la'], ['head', '-20']], [['npm', 'test'], ['tail', '-5'], ['git', 'status']]], grammarLoaders: 0 });
  const other = analyseInFreshProcess(['echo "$HOME" | cat']);
  expect(other).toEqual({ argv: [[['echo', '$HOME'], ['cat']]], grammarLoaders: 1 });
}, 60_000);
