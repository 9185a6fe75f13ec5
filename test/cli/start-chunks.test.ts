// Start-up is a feature: Node's ES module loader pays for every file it resolves, reads, compiles
// and links, so the program a run loads comes in a few chunk files, not one per combination of
// modules loaded on demand (scripts/on-demand-modules.mjs). What runs without the program stays
// without it: `--version`, `mewcode plugin` and the shell parser's own process load none of the
// program's files.
import { readFileSync } from 'node:fs';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { distFilesByProcess, firstRequests, hookImport, loadRecords } from './load-hook.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** Whether a built file holds the program's code (its source map names bin/main.ts or the plugin list). */
function holdsProgram(file: string): boolean {
  const sources: string[] = JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources;
  return sources.some((source) => source.endsWith('bin/main.ts') || source.endsWith('plugins/default-set.ts'));
}

test('a -p run loads the program from at most 30 files of dist/ before its first request, the provider SDK included', async () => {
  await scenario([{ text: 'hello back' }], async (s) => {
    const hook = hookImport();
    const result = await s.run(['-p', 'hello'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    // What the start-up path loads, up to the moment the request leaves: after it the idle warm-up
    // may load tools (how much depends on how soon the answer comes), and the request's arrival at
    // the server is later still on a loaded machine.
    expect(firstRequests(hook.log).size).toBe(1);
    const byPid = distFilesByProcess(hook.log, true);
    expect(byPid.size).toBe(1);
    const files = [...byPid.values()][0]!;
    expect([...files].some(holdsProgram)).toBe(true); // the check sees the program when it is there
    expect(files.size).toBeLessThanOrEqual(30);
  });
}, 60_000);

test('--version loads none of the program', async () => {
  await scenario([], async (s) => {
    const hook = hookImport();
    const result = await s.run(['--version'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect(result.code).toBe(0);
    const files = [...distFilesByProcess(hook.log).values()].flatMap((set) => [...set]);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter(holdsProgram)).toEqual([]);
  });
}, 60_000);

test('`mewcode plugin list` with no Claude Code plugin installed loads none of the program', async () => {
  await scenario([], async (s) => {
    const hook = hookImport();
    const result = await s.run(['plugin', 'list'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const files = [...distFilesByProcess(hook.log).values()].flatMap((set) => [...set]);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter(holdsProgram)).toEqual([]);
  });
}, 60_000);

test("the shell parser's process loads none of the program", async () => {
  await scenario([{ text: 'Running.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo parsed # a comment: not a plain line, so the parser runs' } }] }, { text: 'Done.' }], async (s) => {
    const hook = hookImport();
    const result = await s.run(['-p', 'run it', '--permission-mode', 'bypassPermissions'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const records = loadRecords(hook.log);
    const parserPid = records.find(({ url }) => url.includes('/web-tree-sitter/'))?.pid;
    expect(parserPid).toBeDefined();
    const parserFiles = [...(distFilesByProcess(hook.log).get(parserPid!) ?? [])];
    expect(parserFiles.length).toBeGreaterThan(0);
    expect(parserFiles.filter(holdsProgram)).toEqual([]);
  });
}, 60_000);
