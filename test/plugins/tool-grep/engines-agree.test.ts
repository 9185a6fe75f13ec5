/**
 * T7: the ripgrep engine and the re2js fallback give byte-identical output — same files
 * (ignore rules, hidden directories, symlinks, binary files), same lines, same order, same
 * markers — on a tree built to exercise the differences between them.
 *
 * Without `rg` on PATH the comparison is not defined (and grep.test.ts fails under
 * MEWCODE_REQUIRE_RG=1, which CI sets); the fallback's own answers are still asserted.
 */
import { GrepTool } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, testLimits, toolContext } from './helpers.js';

const long = `needle ${'é'.repeat(600)}`;
// Minified-code lines of tens of kilobytes, kept to their first bytes by both engines: quotes,
// backslashes, tabs, control characters and non-BMP characters on both sides of the cut.
const minifiedLine = (shift: number): string => `${'é'.repeat(shift)}var s="\\"needle\\";\t\u0001${'😀x"\\'.repeat(4000)} needle end`;
const minified = [0, 1, 2, 3].map(minifiedLine).join('\n');
const many = Array.from({ length: 120 }, (_, i) => `row ${i} ${i % 3 === 0 ? 'needle' : 'hay'}`).join('\n');

const SPEC = {
  '.gitignore': ['node_modules/', '*.log', '!important.log', '/build/', 'gen/**', 'weird \\[x\\] \\{y\\}.txt', '*.{tmp,bak}', 'a\\*b/', 'trail\\ ', ''].join('\n'),
  '.git/info/exclude': 'excluded-by-git.txt\n',
  '.git/HEAD': 'needle\n',
  '.github/workflows/ci.yml': 'needle: true\n',
  '.env.example': 'NEEDLE=1\nneedle=2\n',
  'README.md': '# Needle\n\nThe needle is here.\nno match\n',
  'important.log': 'needle in a kept log\n',
  'debug.log': 'needle in an ignored log\n',
  'excluded-by-git.txt': 'needle\n',
  'weird [x] {y}.txt': 'needle\n',
  'weird (x).txt': 'needle\n',
  'scratch.tmp': 'needle\n', // ignored by `*.{tmp,bak}` (braces are ripgrep's alternation)
  'scratch.bak': 'needle\n',
  'trail ': 'needle\n',
  'a*b/inside.txt': 'needle\n',
  'acb/inside.txt': 'needle\n',
  'build/out.js': 'needle\n',
  'src/build/keep.js': 'const needle = 1;\n',
  'src/gen/x.ts': 'needle\n',
  'gen/y.ts': 'needle\n',
  'src/app.ts': 'import { needle } from "./needle";\nexport function findNeedle(hay: string) {\n  return hay.indexOf("needle");\n}\n// TODO: needle\n',
  'src/needle.ts': 'export const needle = "needle";\n',
  'src/unicode.txt': 'München straße\nMÜNCHEN STRASSE\nſ and K and k\n١٢٣ 123\nnaïve café\n',
  'src/crlf.txt': 'needle one\r\nneedle two\r\nend\r\n',
  'src/bom.txt': '\uFEFFneedle first\nsecond\n',
  'src/no-newline.txt': 'first\nneedle last',
  'src/blank-lines.txt': 'a\n\n\nb\n\n',
  'src/empty.txt': '',
  'src/long.txt': `${long}\nshort needle\n`,
  'src/many.txt': `${many}\n`,
  'src/minified.js': `${minified}\nneedle after\n`,
  'src/long-invalid.txt': Buffer.concat([Buffer.from('needle '), Buffer.alloc(30_000, 0xff), Buffer.from(' needle\nctx\n')]),
  'src/invalid-utf8.txt': Buffer.concat([Buffer.from('bad '), Buffer.from([0xff, 0xfe]), Buffer.from(' needle\n')]),
  'src/latin1.txt': Buffer.from('caf\u00e9 cr\u00e8me br\u00fbl\u00e9e\nplain line\ntruncated \u00e2\u0082\n', 'latin1'),
  'src/real-fffd.txt': 'caf\uFFFD is a real replacement character\n',
  'src/binary.bin': Buffer.from('needle\0binary\nneedle\n'),
  'src/late-binary.dat': Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(70_000, 0x62), Buffer.from('\n\0\n')]),
  'src/.hidden-dir/x.ts': 'needle\n',
  'src/.hidden-file.ts': 'needle\n',
  'src/nested/.gitignore': 'local-ignored.ts\n!*.log\n/anchored.ts\n',
  'src/nested/local-ignored.ts': 'needle\n',
  'src/nested/anchored.ts': 'needle\n',
  'src/nested/deeper/anchored.ts': 'needle\n',
  'src/nested/reincluded.log': 'needle\n',
  'src/nested/code.py': 'def needle():\n    return "needle"\n',
  'node_modules/pkg/index.js': 'module.exports = "needle";\n',
  'node_modules/pkg/node_modules/inner/index.js': 'needle\n',
  'docs/a.md': 'needle docs\n',
  'docs/b.txt': 'needle text\n',
  'outside-target/file.txt': 'needle\n',
  'src/link-file.ts': { link: 'needle.ts' },
  'src/link-dir': { link: '../outside-target' },
};

const QUERIES: Record<string, unknown>[] = [
  { pattern: 'needle' },
  { pattern: 'needle', output_mode: 'files_with_matches' },
  { pattern: 'needle', output_mode: 'count' },
  { pattern: 'needle', context: 2 },
  { pattern: 'needle', before: 1, after: 3, path: 'src' },
  { pattern: 'NEEDLE', case_insensitive: true, output_mode: 'count' },
  { pattern: '(?i)münchen|strasse', output_mode: 'content' },
  { pattern: 'straße', case_insensitive: true },
  { pattern: 'k', case_insensitive: true, path: 'src/unicode.txt' },
  { pattern: '\\w+é', path: 'src/unicode.txt' },
  { pattern: '\\d+', path: 'src/unicode.txt' },
  { pattern: '\\bcaf', path: 'src' },
  { pattern: '\\Bdle', path: 'src' },
  { pattern: '^needle', output_mode: 'content' },
  { pattern: 'needle$', output_mode: 'content' },
  { pattern: '\\Aneedle', output_mode: 'count' },
  { pattern: 'last\\z', path: 'src' },
  { pattern: '^$', output_mode: 'count' },
  { pattern: '^', output_mode: 'count' },
  { pattern: '.', output_mode: 'files_with_matches' },
  { pattern: 'x*', output_mode: 'count', path: 'src' },
  { pattern: '\\/', output_mode: 'count' },
  { pattern: '[[]', output_mode: 'count' },
  { pattern: '\\Qhay.indexOf(\\E', output_mode: 'content' },
  { pattern: 'needle\\x22', output_mode: 'content' },
  { pattern: 'a{,3}', output_mode: 'count' },
  { pattern: '[^\\x00-\\x7f]+', output_mode: 'count' },
  { pattern: '\\p{Greek}|\\pN+', output_mode: 'count' },
  { pattern: 'one\\r$', path: 'src' },
  { pattern: 'caf.', path: 'src' },
  { pattern: '(?i)CAF.|BR.L', path: 'src' },
  { pattern: 'cr.me', path: 'src' },
  { pattern: '[^a-z ]+', path: 'src', output_mode: 'count' },
  { pattern: '[^\\x00-\\x7f]', path: 'src', output_mode: 'count' },
  { pattern: '\\W\\w', path: 'src/latin1.txt' },
  { pattern: '\\S+$', path: 'src', output_mode: 'count' },
  { pattern: '\\P{L}\\p{L}', path: 'src', output_mode: 'count' },
  { pattern: '[\\pL\\PN]e$', path: 'src' },
  { pattern: 'truncated .', path: 'src' },
  { pattern: '\\bcr', path: 'src' },
  { pattern: 'caf\\x{FFFD}', path: 'src' },
  { pattern: '\\n', path: 'src' },
  { pattern: '(a+)+$' },
  { pattern: 'needle', glob: '*.ts', output_mode: 'files_with_matches' },
  { pattern: 'needle', glob: '*.{md,txt}', output_mode: 'files_with_matches' },
  { pattern: 'needle', glob: 'src/**/*.ts', output_mode: 'files_with_matches' },
  { pattern: 'needle', glob: 'nested/*', path: 'src', output_mode: 'files_with_matches' },
  { pattern: 'needle', glob: '!*.ts', output_mode: 'files_with_matches' },
  { pattern: 'needle', glob: '*.@(md|py)', output_mode: 'files_with_matches' },
  { pattern: 'needle', path: 'src/nested', output_mode: 'files_with_matches' },
  { pattern: 'needle', path: 'node_modules/pkg', output_mode: 'files_with_matches' },
  { pattern: 'needle', path: '.github' },
  { pattern: 'needle', path: 'src/binary.bin' },
  { pattern: 'needle', path: 'src/link-file.ts' },
  { pattern: 'row \\d+ needle', path: 'src/many.txt', context: 1 },
  { pattern: 'row', path: 'src/many.txt', output_mode: 'content' },
  { pattern: 'row', path: 'src/many.txt', output_mode: 'count' },
  { pattern: 'needle', path: 'src/minified.js', context: 1 },
  { pattern: 'needle', path: 'src/long-invalid.txt', after: 1 },
  { pattern: 'x"', path: 'src/minified.js', output_mode: 'count' },
];

let root: string;
beforeAll(() => {
  root = makeTree(SPEC, 'mewcode-agree-');
});
afterAll(() => removeTree(root));

async function run(engine: 'ripgrep' | 're2js', query: Record<string, unknown>) {
  const tool = new GrepTool(testLimits(root), { engine });
  const result = await tool.execute(query, toolContext(root));
  return { result, used: tool.lastRun?.engine };
}

describe('the fallback engine (always)', () => {
  test('answers from the walker: ignore files, hidden directories, symlinks and binary files', async () => {
    const { result } = await run('re2js', { pattern: 'needle', output_mode: 'files_with_matches' });
    expect(result.content.split('\n')).toEqual([
      '.env.example',
      'README.md',
      'acb/inside.txt', // `a\*b/` ignores only the directory literally named a*b
      'docs/a.md',
      'docs/b.txt',
      'important.log', // re-included by `!important.log`
      'outside-target/file.txt', // reached directly, never through the src/link-dir symlink
      'src/.hidden-file.ts',
      'src/app.ts',
      'src/bom.txt',
      'src/build/keep.js', // `/build/` is anchored to the root
      'src/crlf.txt',
      'src/gen/x.ts', // `gen/**` is anchored too
      'src/invalid-utf8.txt',
      'src/long-invalid.txt',
      'src/long.txt',
      'src/many.txt',
      'src/minified.js',
      'src/needle.ts',
      'src/nested/code.py',
      'src/nested/deeper/anchored.ts',
      'src/nested/reincluded.log', // `!*.log` in the nested file wins over the root's `*.log`
      'src/no-newline.txt',
      'weird (x).txt',
    ]);
  });
});

// Only where rg exists (CI requires it with MEWCODE_REQUIRE_RG=1, checked in grep.test.ts).
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;

describeWithRipgrep('ripgrep and re2js give identical output', () => {
  test.each(QUERIES.map((q) => [JSON.stringify(q), q] as const))('%s', async (_name, query) => {
    const viaRipgrep = await run('ripgrep', query);
    const viaRe2js = await run('re2js', query);
    expect(viaRe2js.used).toBe('re2js');
    expect(viaRipgrep.result).toEqual(viaRe2js.result);
  });

  test('ripgrep really answered (not the fallback) for every pattern it can take', async () => {
    const fallbackExpected = new Set(['\\Bdle', '\\n']);
    for (const query of QUERIES) {
      const { used } = await run('ripgrep', query);
      expect([JSON.stringify(query), used]).toEqual([JSON.stringify(query), fallbackExpected.has(query.pattern as string) ? 're2js' : 'ripgrep']);
    }
  });
});
