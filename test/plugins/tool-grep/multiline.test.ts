/**
 * Claude Code's `multiline: true` is ripgrep's `-U --multiline-dotall`: a match may span lines
 * and `.` matches a newline. Both engines (ripgrep given those flags; the fallback searching a
 * file whole with re2js, still linear-time) are held to `rg -U --multiline-dotall` itself on a
 * fixture: content (every line a match touches, context, `--`), count (matches, as rg -c counts
 * them in multiline mode) and files_with_matches. Bytes that are not UTF-8 stop `.` as in rg; a
 * file with a NUL byte is binary; `\A`/`\z` are the file's ends.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, rgLines, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;
const FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--sort=path', '-U', '--multiline-dotall'];

let root: string;
beforeAll(() => {
  root = makeTree(
    {
      'a.txt': 'alpha\nbeta\ngamma\nalpha beta\nx\nalpha\n\nbeta\n',
      'src/code.ts': 'function foo(\n  a: number,\n  b: string,\n) {\n  return a;\n}\nconst x = 1;\nfunction bar() {}\n',
      'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
      'tail.txt': 'foo\nbar',
      'bin/blob.bin': Buffer.from('alpha\nbeta\0\n'),
      'many.txt': Array.from({ length: 30 }, (_, i) => `begin ${i}\nmiddle\nend ${i}`).join('\n') + '\n',
    },
    'mewcode-multiline-',
  );
  writeFileSync(path.join(root, 'bad.txt'), Buffer.concat([Buffer.from('start'), Buffer.from([0xff]), Buffer.from('\nmiddle\nend\nstart\nok end\n')]));
});
afterAll(() => removeTree(root));

const rg = (args: string[]): string[] => rgLines(root, FLAGS, args);

async function grep(engine: GrepEngine, input: Record<string, unknown>) {
  const tool = new GrepTool(testLimits(root), { engine });
  const result = await tool.execute({ multiline: true, ...input }, toolContext(root));
  return { content: result.content, isError: result.isError === true, used: tool.lastRun?.engine };
}

const PATTERNS = [
  'alpha.*?beta',
  'alpha\\nbeta|gamma',
  'function \\w+\\([^)]*\\)',
  '^\\s*b:.*?\\n\\)',
  'start.*?end',
  'foo\\nbar\\z',
  '\\Aalpha\\n',
  'o\\r\\nt',
  '(?i)BETA\\n',
  'begin \\d+\\nmiddle',
  'a', // consumes no newline: searched line by line, as rg does
  '\\n\\n|x',
  'y*\\n', // empty matches are skipped right after a match, as Rust iterates
  'end \\d+$\\n^begin',
  '\\d\\s+\\w',
  '[^a]{3}\\n\\S',
  '^$\\n',
  '\\)\\s*\\{.*?\\}',
];

describeWithRipgrep('grep multiline equals rg -U --multiline-dotall', () => {
  const engines: GrepEngine[] = ['ripgrep', 're2js'];

  test.each(engines)('%s engine: content, with and without context', async (engine) => {
    for (const pattern of PATTERNS) {
      for (const context of [0, 1]) {
        const reference = rg(['-n', '--with-filename', '--no-heading', '-C', String(context), '-e', pattern]).map((l) => (l === '--' ? l : l.replace(/^(.*?)[:-](\d+)([:-])/, '$1:$2$3 ').replace(/\r$/, ''))); // grep shows a line without its \r, as without multiline
        const result = await grep(engine, { pattern, context });
        expect(result.used).toBe(engine);
        const shown = result.content.split('\n\n[')[0]!.split('\n');
        // Past 100 match lines the output is cut (a note says so): then it is rg's output up to there.
        const cut = /more matching line/.test(result.content);
        if (cut) expect(shown.filter((l) => /^[^:]+:\d+: /.test(l))).toHaveLength(100);
        const expected = reference.length > 0 ? reference.slice(0, cut ? shown.length : undefined) : [`No matches for "${pattern}" in the project root.`];
        expect([pattern, context, shown]).toEqual([pattern, context, expected]);
      }
    }
  }, 120_000);

  test.each(engines)('%s engine: count and files_with_matches', async (engine) => {
    for (const pattern of PATTERNS) {
      const counts = rg(['--count', '-e', pattern]);
      const count = await grep(engine, { pattern, output_mode: 'count' });
      const files = await grep(engine, { pattern, output_mode: 'files_with_matches' });
      if (counts.length === 0) {
        expect([pattern, count.content]).toEqual([pattern, expect.stringMatching(/^No matches/)]);
        continue;
      }
      expect([pattern, count.content.split('\n')]).toEqual([pattern, counts]);
      expect([pattern, files.content.split('\n')]).toEqual([pattern, counts.map((l) => l.replace(/:\d+$/, ''))]);
    }
  }, 120_000);

  test('a match spanning lines is shown from its first line, and the engines agree', async () => {
    const viaRipgrep = await grep('ripgrep', { pattern: 'function foo\\(.*?\\{', path: 'src/code.ts' });
    const viaRe2js = await grep('re2js', { pattern: 'function foo\\(.*?\\{', path: 'src/code.ts' });
    expect(viaRipgrep.content).toBe('src/code.ts:1: function foo(\nsrc/code.ts:2:   a: number,\nsrc/code.ts:3:   b: string,\nsrc/code.ts:4: ) {');
    expect(viaRe2js.content).toBe(viaRipgrep.content);
  });
});

test('without multiline, a pattern spanning lines still finds nothing; "multiline" must be a boolean', async () => {
  const tool = new GrepTool(testLimits(root), { engine: 're2js' });
  expect((await tool.execute({ pattern: 'alpha\\nbeta' }, toolContext(root))).content).toMatch(/^No matches/);
  expect((await tool.execute({ pattern: 'alpha\\nbeta', multiline: true, output_mode: 'count' }, toolContext(root))).content).toBe('a.txt:1');
  expect(await tool.execute({ pattern: 'x', multiline: 'yes' }, toolContext(root))).toEqual({ isError: true, content: expect.stringMatching(/"multiline" must be true or false/) });
});

test('the fallback stops a multiline search at its deadline, and reports a file too large to search whole', async () => {
  const tree = makeTree({ 'big.txt': 'x'.repeat(70 * 1024 * 1024), 'small.txt': 'a\nb\n' }, 'mewcode-multiline-big-');
  try {
    const result = await new GrepTool(testLimits(tree), { engine: 're2js' }).execute({ pattern: 'a\\nb', multiline: true, output_mode: 'count' }, toolContext(tree));
    expect(result.content).toBe('small.txt:1\n\n[1 file too large to search whole with this multiline pattern was not searched (install ripgrep, narrow the pattern, or search without multiline)]');
    const stopped = await new GrepTool(testLimits(tree), { engine: 're2js', deadlineMs: 0 }).execute({ pattern: 'a\\nb', multiline: true }, toolContext(tree));
    expect(stopped.content).toMatch(/search stopped at its time limit/);
  } finally {
    removeTree(tree);
  }
});
