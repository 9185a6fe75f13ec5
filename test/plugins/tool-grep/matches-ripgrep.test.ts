/**
 * grep's answers are ripgrep's: on a fixture tree with ignore files (nested `.gitignore`,
 * `.ignore`, `.rgignore`, a re-include), binary files, names and lines that are not valid UTF-8,
 * symlinks and hidden entries, the tool's matches, counts and files equal those of `rg` itself run
 * with the flags that spell the tools' file rules (the list in REFERENCE_FLAGS). Both engines are
 * held to it, and glob's two listers to `rg --files`. The ignore files hold rules a hostile
 * repository would plant (many stars, classes or brace groups in one name, several `**`) next to
 * long names that almost match them: V8's backtracking never finished those; ripgrep's automata
 * and the walker's linear engine answer at once, alike.
 *
 * Then the ripgrep engine's guard: its output is used only after each line is found in the file
 * itself (opened without following links). A stand-in `rg` (a script that runs the real one and
 * then changes its answer or the tree) shows that a file changed after ripgrep read it is
 * searched again, and that content ripgrep reports for a path through a symlink never reaches
 * the result.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;

/** The tools' file rules as plain ripgrep flags (hidden files yes, hidden directories no, no global or parent ignore files). */
const REFERENCE_FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--sort=path'];

const NON_UTF8_NAME = Buffer.concat([Buffer.from('lib/caf'), Buffer.from([0xe9]), Buffer.from('-latin1.txt')]);

let root: string;
let outside: string;
beforeAll(() => {
  outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-outside-')));
  writeFileSync(path.join(outside, 'secret.txt'), 'needle from outside the project\n');
  root = makeTree(
    {
      '.gitignore': ['*.log', 'build/', '*.{tmp,bak}', `${'*a'.repeat(8)}*b`, `${'[ab]*'.repeat(6)}c`, `${'{x,y}*'.repeat(6)}z`, 'deep/**/x/**/x/**/x/**/y', ''].join('\n'),
      [`${'a'.repeat(240)}.txt`]: 'needle in a long name no rule matches\n',
      [`lib/${'ab'.repeat(110)}.txt`]: 'needle in another long name\n',
      [`lib/${'xy'.repeat(110)}.txt`]: 'needle in a third long name\n',
      [`deep/${'x/'.repeat(40)}z.txt`]: 'needle deep down\n',
      'deep/x/x/x/y': 'needle ignored by four **\n',
      aaaaaaaab: 'needle ignored by the stars\n',
      'lib/ababab.c': 'needle ignored by the classes\n',
      'lib/xyxyxyz': 'needle ignored by the braces\n',
      'README.md': 'needle in the readme\nplain\n',
      '.env.sample': 'NEEDLE=1\nneedle=2\n',
      '.cache/hidden-dir.txt': 'needle in a hidden directory\n',
      'build/out.js': 'needle built\n',
      'debug.log': 'needle in an ignored log\n',
      'scratch.tmp': 'needle in a brace-ignored file\n',
      'src/.gitignore': 'generated.ts\n!keep.log\n/anchored.ts\n',
      'src/app.ts': 'const needle = 1;\nexport function findNeedle() {\n  return needle;\n}\n',
      'src/generated.ts': 'needle generated\n',
      'src/keep.log': 'needle in a re-included log\n',
      'src/drop.log': 'needle in a log\n',
      'src/anchored.ts': 'needle anchored\n',
      'src/deep/anchored.ts': 'needle not anchored here\n',
      'lib/.ignore': 'skip.js\n',
      'lib/skip.js': 'needle skipped by .ignore\n',
      'lib/use.js': 'needle used\nneedle twice\n',
      'lib/deep/.rgignore': '*.gen\n',
      'lib/deep/x.gen': 'needle skipped by .rgignore\n',
      'lib/deep/y.txt': 'needle deep\n',
      'lib/invalid.txt': Buffer.concat([Buffer.from('bad '), Buffer.from([0xff, 0xfe]), Buffer.from(' needle\n'), Buffer.from('caf\u00e9 needle\n', 'latin1')]),
      'bin/blob.bin': Buffer.from('needle\0binary\nneedle\n'),
      'bin/text.txt': 'needle beside a binary\n',
      // A nested repository is its own git world: the root's `*.log` does not reach into it.
      'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
      'vendor/lib/kept.log': 'needle in a nested repository\n',
      'vendor/lib/.gitignore': 'own.txt\n',
      'vendor/lib/own.txt': 'needle ignored by the nested repository\n',
      'src/link-file.ts': { link: 'app.ts' },
      'src/link-out': { link: outside },
    },
    'mewcode-rgref-',
  );
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), NON_UTF8_NAME]), 'needle in a latin-1 name\n');
});
afterAll(() => {
  removeTree(root);
  removeTree(outside);
});

/**
 * `rg` itself, from the root: its output decoded as UTF-8, with the one name that is not UTF-8
 * shown as the tools show it (its bad byte escaped, sdk/search-common/display-name.ts; file-names.test.ts
 * holds the general case to rg's name bytes).
 */
function rg(args: string[], start = '.', flags = REFERENCE_FLAGS): string[] {
  const result = spawnSync(RG_PATH!, [...flags, ...args, '--', start], { cwd: root, encoding: 'buffer' });
  expect([0, 1]).toContain(result.status);
  return result.stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/^\.\//, '').replace(/^lib\/caf\uFFFD-latin1\.txt/, 'lib/caf\\xe9-latin1.txt'));
}

async function grep(engine: GrepEngine, input: Record<string, unknown>, options: { rgPath?: string } = {}) {
  const tool = new GrepTool(testLimits(root), { engine, ...options });
  const result = await tool.execute(input, toolContext(root));
  return { content: result.content, isError: result.isError, used: tool.lastRun?.engine };
}

const sorted = (lines: string[]): string[] => [...lines].sort();

describeWithRipgrep('grep equals rg on a tree with ignore files, binary files and non-UTF-8 names', () => {
  const engines: GrepEngine[] = ['ripgrep', 're2js'];

  test.each(engines)('%s engine: files_with_matches = rg -c’s files, count = rg -c', async (engine) => {
    const counts = rg(['--count', '-e', 'needle']);
    expect(counts).toContain('lib/caf\\xe9-latin1.txt:1'); // the name that is not UTF-8 is there
    expect(counts).toContain('src/keep.log:1'); // re-included by the nested .gitignore
    expect(counts).toContain('vendor/lib/kept.log:1');
    expect(counts.join('\n')).not.toMatch(/skip\.js|x\.gen|generated|drop\.log|debug\.log|scratch|build\/|\.cache|blob\.bin|link-out|secret|aaaaaaaab|ababab\.c|xyxyxyz|\/y:/);
    expect(counts).toContain(`${'a'.repeat(240)}.txt:1`); // the long names are kept

    const files = await grep(engine, { pattern: 'needle', output_mode: 'files_with_matches' });
    expect(files.used).toBe(engine);
    expect(sorted(files.content.split('\n'))).toEqual(sorted(counts.map((l) => l.replace(/:\d+$/, ''))));
    const count = await grep(engine, { pattern: 'needle', output_mode: 'count' });
    expect(sorted(count.content.split('\n'))).toEqual(sorted(counts));
  });

  test.each(engines)('%s engine: content = rg -n (path:LINE: text)', async (engine) => {
    // `caf.`: `.` never matches a byte that is not UTF-8 (the latin-1 é), in rg or in grep.
    for (const pattern of ['needle', '(?i)NEEDLE\\s\\w+', 'caf.', 'bad .+ needle', '(?i)readme|twice']) {
      const reference = rg(['--line-number', '--with-filename', '--no-heading', '-e', pattern]).map((l) => l.replace(/^(.*?:\d+):/, '$1: '));
      const content = await grep(engine, { pattern, output_mode: 'content' });
      const expected = reference.length > 0 ? sorted(reference) : [`No matches for "${pattern}" in the project root.`];
      expect([pattern, sorted(content.content.split('\n'))]).toEqual([pattern, expected]);
    }
  });

  test.each(engines)('%s engine: from a subdirectory, the ignore files above it still count (rg with its parent files)', async (engine) => {
    // rg reads the parents' ignore files itself when --no-ignore-parent is not given.
    const flags = REFERENCE_FLAGS;
    // (Not `vendor`: see the known difference in sdk/search-common/ripgrep-selection.ts.)
    for (const start of ['src', 'src/deep', 'lib/deep', 'vendor/lib']) {
      const reference = rg(['--count', '-e', 'needle'], start, flags);
      const count = await grep(engine, { pattern: 'needle', output_mode: 'count', path: start });
      expect([start, sorted(count.content.split('\n'))]).toEqual([start, sorted(reference)]);
    }
  });

  test.each(['ripgrep', 'walker'] as const)('glob (%s lister) = rg --files', async (engine) => {
    const reference = rg(['--files']).filter((f) => f.endsWith('.txt'));
    const tool = new GlobTool(testLimits(root), { engine });
    const result = await tool.execute({ pattern: '**/*.txt' }, toolContext(root));
    expect(sorted(result.content.split('\n'))).toEqual(sorted(reference));
    expect(reference).toContain('lib/caf\\xe9-latin1.txt');
  });
});

/** A stand-in `rg`: runs the real one, then `after` (a shell snippet) and prints the answer through `filter`. */
let standIns = 0;
function standInRipgrep(dir: string, filter: string, after = ''): string {
  const script = path.join(dir, `rg-${++standIns}`);
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `out=$(${JSON.stringify(RG_PATH)} "$@"; echo "exit=$?")`,
      after,
      `printf '%s\\n' "$out" | grep -v '^exit=' | ${filter}`,
      `code=$(printf '%s\\n' "$out" | sed -n 's/^exit=//p')`,
      'exit "$code"',
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return script;
}

describeWithRipgrep('the ripgrep engine uses only lines found in the file itself', () => {
  let tree: string;
  let bin: string;
  beforeEach(() => {
    tree = makeTree({ 'sub/secret.txt': 'needle inside\nplain\n', 'sub/other.txt': 'needle other\n' }, 'mewcode-rgguard-');
    bin = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-fake-rg-')));
  });
  afterEach(() => {
    removeTree(tree);
    removeTree(bin);
  });

  async function run(rgPath: string, input: Record<string, unknown>) {
    const tool = new GrepTool(testLimits(tree), { engine: 'ripgrep', rgPath });
    const result = await tool.execute(input, toolContext(tree));
    expect(tool.lastRun?.engine).toBe('ripgrep');
    return result.content;
  }

  test('an answer that is not what the file holds (a swap, an edit) is replaced by a search of the file', async () => {
    // ripgrep "read" other bytes for sub/secret.txt than the file holds: same length, other text.
    const rgPath = standInRipgrep(bin, "sed 's/needle inside/needle OUTSID/'");
    for (const output_mode of ['content', 'count', 'files_with_matches']) {
      const content = await run(rgPath, { pattern: 'needle', output_mode });
      expect(content).not.toMatch(/OUTSID/);
    }
    expect(await run(rgPath, { pattern: 'needle' })).toBe('sub/other.txt:1: needle other\nsub/secret.txt:1: needle inside');
  });

  test('a file edited after ripgrep read it is shown as it is now', async () => {
    const rgPath = standInRipgrep(bin, 'cat', `printf 'changed\\nneedle moved\\n' > ${JSON.stringify(path.join(tree, 'sub/secret.txt'))}`);
    expect(await run(rgPath, { pattern: 'needle' })).toBe('sub/other.txt:1: needle other\nsub/secret.txt:2: needle moved');
    writeFileSync(path.join(tree, 'sub/secret.txt'), 'needle inside\n');
    const gone = standInRipgrep(bin, 'cat', `printf 'nothing\\n' > ${JSON.stringify(path.join(tree, 'sub/secret.txt'))}`);
    expect(await run(gone, { pattern: 'needle', output_mode: 'count' })).toBe('sub/other.txt:1');
  });

  test('content ripgrep reports through a symlinked directory never reaches the result', async () => {
    const secretDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-secret-')));
    try {
      writeFileSync(path.join(secretDir, 'secret.txt'), 'needle SECRET\n');
      // The directory is swapped for a link to the outside while ripgrep runs, and ripgrep reads through it.
      const rgPath = standInRipgrep(
        bin,
        'cat',
        `mv ${JSON.stringify(path.join(tree, 'sub'))} ${JSON.stringify(path.join(tree, 'sub.real'))}; ln -s ${JSON.stringify(secretDir)} ${JSON.stringify(path.join(tree, 'sub'))}`,
      );
      const fakeOutput = standInRipgrep(bin, `sed 's/needle inside/needle SECRET/'`, '');
      for (const script of [rgPath, fakeOutput]) {
        const content = await run(script, { pattern: 'needle' });
        expect(content).not.toMatch(/SECRET/);
        if (script === rgPath) {
          expect(content).toMatch(/could not be read/);
          // put the tree back for the next stand-in
          spawnSync('sh', ['-c', `rm ${JSON.stringify(path.join(tree, 'sub'))} && mv ${JSON.stringify(path.join(tree, 'sub.real'))} ${JSON.stringify(path.join(tree, 'sub'))}`]);
        }
      }
    } finally {
      removeTree(secretDir);
    }
  });

  test('a hard link to a file elsewhere is not searched (as read_file refuses it)', async () => {
    const elsewhere = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-hl-')));
    try {
      writeFileSync(path.join(elsewhere, 'f.txt'), 'needle linked\n');
      const linked = spawnSync('ln', [path.join(elsewhere, 'f.txt'), path.join(tree, 'linked.txt')]);
      if (linked.status !== 0) return; // another file system: no hard link possible, nothing to test
      const content = await run(RG_PATH!, { pattern: 'needle', output_mode: 'files_with_matches' });
      expect(content.split('\n')[0]).toBe('sub/other.txt');
      expect(content).not.toMatch(/linked\.txt/);
    } finally {
      removeTree(elsewhere);
    }
  });
});

describeWithRipgrep('the ripgrep engine at the edges of its limits', () => {
  let tree: string;
  afterEach(() => removeTree(tree));

  test.each([
    ['ASCII', 'x'],
    ['two-byte', 'é'],
    ['four-byte (two UTF-16 units)', '😀'],
  ])('a 4 MB line of %s characters: cut as the fallback cuts it', async (_name, unit) => {
    const line = `needle ${unit.repeat(Math.ceil((4 * 1024 * 1024) / Buffer.byteLength(unit)))}`;
    tree = makeTree({ 'min.js': `${line}\nneedle short\n${unit.repeat(3000)} needle at the end\n` }, 'mewcode-rglimits-');
    const viaRipgrep = await new GrepTool(testLimits(tree), { engine: 'ripgrep' }).execute({ pattern: 'needle' }, toolContext(tree));
    const viaRe2js = await new GrepTool(testLimits(tree), { engine: 're2js' }).execute({ pattern: 'needle' }, toolContext(tree));
    expect(viaRipgrep).toEqual(viaRe2js);
    expect(viaRipgrep.content).toMatch(/^\[2 lines cut at 500 characters/m);
  });

  test('the time limit stops ripgrep: what was found is kept and marked incomplete', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 300; i++) spec[`d${i % 10}/f${i}.txt`] = `${'hay\n'.repeat(2000)}needle\n`;
    tree = makeTree(spec, 'mewcode-rglimits-');
    const result = await new GrepTool(testLimits(tree), { engine: 'ripgrep', deadlineMs: 0 }).execute({ pattern: 'needle', output_mode: 'count' }, toolContext(tree));
    expect(result.content).toMatch(/search stopped at its time limit: results are incomplete/);
  });

  test('names ripgrep gives as bytes (not UTF-8) are opened as they are', async () => {
    tree = makeTree({}, 'mewcode-rglimits-');
    mkdirSync(path.join(tree, 'd'));
    writeFileSync(Buffer.concat([Buffer.from(`${tree}/d/`), Buffer.from([0x6e, 0xff, 0x2e, 0x74])]), 'needle\n');
    symlinkSync('/etc/hostname', path.join(tree, 'd', 'link'));
    const result = await new GrepTool(testLimits(tree), { engine: 'ripgrep' }).execute({ pattern: 'needle', output_mode: 'count' }, toolContext(tree));
    expect(result.content).toBe('d/n\\xff.t:1');
  });
});
