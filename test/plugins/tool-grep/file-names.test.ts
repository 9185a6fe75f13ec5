/**
 * Names that are not valid UTF-8, or that hold control characters, are shown escaped (`\xNN`,
 * sdk/search-common/display-name.ts): distinct files are never merged into one result (both
 * engines used to key them by a lossy decoding, so `\xff.txt` and `\xfe.txt` overwrote each
 * other), and a newline in a name cannot forge result lines. Held to `rg` itself: its names
 * (bytes, NUL-terminated) escaped the same way must equal what grep and glob show.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { displayName, parseDisplayName } from '../../../sdk/search-common/display-name.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;
const FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude'];

let root: string;
beforeAll(() => {
  root = makeTree({ '\uFFFD.txt': 'needle C\n', 'back\\slash.txt': 'needle back\n', 'plain.txt': 'needle plain\n' }, 'mewcode-names-');
  const put = (name: Buffer | string, content: string): void => writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from(name)]), content);
  put(Buffer.from([0xff, 0x2e, 0x74, 0x78, 0x74]), 'needle A\n');
  put(Buffer.from([0xfe, 0x2e, 0x74, 0x78, 0x74]), 'needle B\nneedle B2\n');
  mkdirSync(Buffer.concat([Buffer.from(`${root}/d`), Buffer.from([0xff])]));
  mkdirSync(Buffer.concat([Buffer.from(`${root}/d`), Buffer.from([0xfe])]));
  put(Buffer.concat([Buffer.from('d'), Buffer.from([0xff]), Buffer.from('/x.txt')]), 'needle in dir ff\n');
  put(Buffer.concat([Buffer.from('d'), Buffer.from([0xfe]), Buffer.from('/x.txt')]), 'needle in dir fe\n');
  put('notes.txt\nconfig.ts:42: DEPLOY_KEY = hunter2', 'needle\n');
  put('tab\there\u0085.txt', 'needle tab\n');
});
afterAll(() => removeTree(root));

/** rg's records as [name bytes escaped, the rest of the line]: with --null a name ends at a NUL (and a `--files` record there). */
function rg(args: string[]): [string, string][] {
  const result = spawnSync(RG_PATH!, [...FLAGS, '--null', ...args, '--', '.'], { cwd: root, encoding: 'buffer' });
  expect([0, 1]).toContain(result.status);
  const out: [string, string][] = [];
  const data = result.stdout;
  const files = args.includes('--files');
  let at = 0;
  while (at < data.length) {
    const nul = data.indexOf(0, at);
    let name = data.subarray(at, nul);
    if (name[0] === 0x2e && name[1] === 0x2f) name = name.subarray(2);
    const end = files ? nul : data.indexOf(10, nul);
    out.push([displayName(name.toString('utf8'), name), data.subarray(nul + 1, end === -1 ? data.length : end).toString('utf8')]);
    at = end === -1 ? data.length : end + 1;
  }
  return out;
}

async function grep(engine: GrepEngine, input: Record<string, unknown>): Promise<string> {
  const tool = new GrepTool(testLimits(root), { engine });
  const result = await tool.execute(input, toolContext(root));
  expect(tool.lastRun?.engine).toBe(engine);
  return result.content;
}

test('the escaping is reversible and leaves plain names alone', () => {
  expect(displayName('src/a.ts')).toBe('src/a.ts');
  expect(displayName('caf\u00e9 \u4e2d.ts')).toBe('caf\u00e9 \u4e2d.ts');
  expect(displayName('x', Buffer.from([0x61, 0xff, 0x0a, 0x5c]))).toBe('a\\xff\\x0a\\\\');
  expect(displayName('a\u2028b')).toBe('a\\xe2\\x80\\xa8b');
  for (const bytes of [Buffer.from([0xff, 0x2e]), Buffer.from('a\\xff\nb'), Buffer.from('\uFFFD\u0085')]) {
    expect(parseDisplayName(displayName(bytes.toString('utf8'), bytes))).toEqual(bytes);
  }
  expect(parseDisplayName('plain.txt')).toBeUndefined();
});

describeWithRipgrep('names that are not UTF-8 or hold control characters', () => {
  const engines: GrepEngine[] = ['ripgrep', 're2js'];

  test.each(engines)('%s engine: count and files = rg, no two files merged', async (engine) => {
    const counts = rg(['--count', '-e', 'needle']).map(([name, n]) => `${name}:${n}`).sort();
    expect(counts).toHaveLength(9);
    expect(counts).toContain('\\xfe.txt:2');
    expect((await grep(engine, { pattern: 'needle', output_mode: 'count' })).split('\n').sort()).toEqual(counts);
    const files = (await grep(engine, { pattern: 'needle', output_mode: 'files_with_matches' })).split('\n').sort();
    expect(files).toEqual(counts.map((l) => l.replace(/:\d+$/, '')));
  });

  test.each(engines)('%s engine: content = rg -n, one result line per line', async (engine) => {
    const reference = rg(['--line-number', '-e', 'needle']).map(([name, rest]) => `${name}:${rest.replace(/^(\d+):/, '$1: ')}`).sort();
    const content = (await grep(engine, { pattern: 'needle' })).split('\n').sort();
    expect(content).toEqual(reference);
    expect(content).toContain('notes.txt\\x0aconfig.ts:42: DEPLOY_KEY = hunter2:1: needle');
    expect(content).toContain('\\xfe.txt:2: needle B2');
    expect(content).toContain('\uFFFD.txt:1: needle C');
    expect(content).toContain('back\\\\slash.txt:1: needle back');
  });

  test.each(['ripgrep', 'walker'] as const)('glob (%s lister) = rg --files, escaped alike', async (engine) => {
    const reference = rg(['--files']).map(([name]) => name).sort();
    const result = await new GlobTool(testLimits(root), { engine }).execute({ pattern: '**/*' }, toolContext(root));
    expect(result.content.split('\n').sort()).toEqual(reference);
    expect(reference).toHaveLength(9);
  });
});
