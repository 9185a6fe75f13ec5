/**
 * T7: the grep tool on real temporary trees, run through each engine.
 *
 * The re2js engine always runs. The ripgrep engine runs when `rg` is on PATH; when it is not,
 * its cases are reported as skipped (never silently passed), and with MEWCODE_REQUIRE_RG=1 (set
 * in CI, which installs ripgrep) the missing binary fails the suite.
 */
import { GrepTool, type GrepEngine, type GrepToolOptions } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

function tree(spec: Parameters<typeof makeTree>[0]): string {
  const root = makeTree(spec, 'mewcode-grep-');
  roots.push(root);
  return root;
}

// The ripgrep cases exist only where rg does; CI sets MEWCODE_REQUIRE_RG=1 so they cannot vanish there.
if (!RG_PATH) {
  if (RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH: install ripgrep (apt-get install -y ripgrep) so the ripgrep engine is tested.');
  console.warn('grep tests: `rg` is not on PATH, so only the re2js engine is tested here; install ripgrep to test both.');
}

const ENGINES: GrepEngine[] = RG_PATH ? ['re2js', 'ripgrep'] : ['re2js'];

describe.each(ENGINES)('grep with the %s engine', (engine) => {
  const run = test;

  async function grep(root: string, input: Record<string, unknown>, options: GrepToolOptions = {}) {
    const tool = new GrepTool(testLimits(root), { engine, ...options });
    const result = await tool.execute(input, toolContext(root));
    if (!result.isError && !result.content.startsWith('grep was cancelled')) expect(tool.lastRun?.engine).toBe(engine);
    return result;
  }

  run('definition: name, read-only, schema, permission target is the search root', () => {
    const tool = new GrepTool(testLimits('/tmp'), { engine });
    expect(tool.name).toBe('grep');
    expect(tool.readOnly).toBe(true);
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['pattern'] });
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(['pattern', 'path', 'glob', 'case_insensitive', 'context', 'before', 'after', 'output_mode', 'type', 'offset', 'head_limit', 'multiline']);
    expect(tool.permissionTarget({ pattern: 'x' })).toEqual({ kind: 'path', path: '.' });
    expect(tool.permissionTarget({ pattern: 'x', path: 'src' })).toEqual({ kind: 'path', path: 'src' });
  });

  run('basic search: path:LINE: text, sorted by path then line', async () => {
    const root = tree({ 'b.txt': 'hello world\nnothing\nhello again\n', 'a/c.txt': 'say hello\n', 'd.txt': 'no match here\n' });
    const result = await grep(root, { pattern: 'hello' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('a/c.txt:1: say hello\nb.txt:1: hello world\nb.txt:3: hello again');
  });

  run('regex syntax: classes, anchors, alternation', async () => {
    const root = tree({ 'f.ts': 'function loadUser(id) {}\nconst x = 42;\n  function helper() {}\nexport default x;\n' });
    expect((await grep(root, { pattern: '^function\\s+\\w+\\(' })).content).toBe('f.ts:1: function loadUser(id) {}');
    expect((await grep(root, { pattern: '\\d+;$|^export' })).content).toBe('f.ts:2: const x = 42;\nf.ts:4: export default x;');
  });

  run('case-insensitive (case_insensitive or -i)', async () => {
    const root = tree({ 'a.txt': 'Hello\nHELLO\nhello\nhelo\n' });
    expect((await grep(root, { pattern: 'hello' })).content).toBe('a.txt:3: hello');
    expect((await grep(root, { pattern: 'hello', case_insensitive: true })).content).toBe('a.txt:1: Hello\na.txt:2: HELLO\na.txt:3: hello');
    expect((await grep(root, { pattern: 'hello', '-i': true })).content).toBe('a.txt:1: Hello\na.txt:2: HELLO\na.txt:3: hello');
  });

  run('glob filter: file names without a slash, paths relative to path with one', async () => {
    const root = tree({ 'src/a.ts': 'needle\n', 'src/b.tsx': 'needle\n', 'src/c.js': 'needle\n', 'lib/d.ts': 'needle\n', 'src/deep/e.ts': 'needle\n' });
    expect((await grep(root, { pattern: 'needle', glob: '*.ts' })).content).toBe('lib/d.ts:1: needle\nsrc/a.ts:1: needle\nsrc/deep/e.ts:1: needle');
    expect((await grep(root, { pattern: 'needle', glob: '*.{ts,tsx}', output_mode: 'files_with_matches' })).content).toBe('lib/d.ts\nsrc/a.ts\nsrc/b.tsx\nsrc/deep/e.ts');
    expect((await grep(root, { pattern: 'needle', glob: 'src/**/*.ts', output_mode: 'files_with_matches' })).content).toBe('src/a.ts\nsrc/deep/e.ts');
    expect((await grep(root, { pattern: 'needle', glob: 'deep/*.ts', path: 'src', output_mode: 'files_with_matches' })).content).toBe('src/deep/e.ts');
    expect((await grep(root, { pattern: 'needle', glob: '*.py' })).content).toBe('No matches for "needle" in the project root (files matching "*.py").');
  });

  run('context lines: path:LINE- text, "--" between separate groups and between files', async () => {
    const body = Array.from({ length: 12 }, (_, i) => (i + 1 === 3 || i + 1 === 10 ? `match ${i + 1}` : `line ${i + 1}`)).join('\n');
    const root = tree({ 'a.txt': `${body}\n`, 'b.txt': 'match top\nafter\n' });
    expect((await grep(root, { pattern: 'match', context: 1 })).content).toBe(
      ['a.txt:2- line 2', 'a.txt:3: match 3', 'a.txt:4- line 4', '--', 'a.txt:9- line 9', 'a.txt:10: match 10', 'a.txt:11- line 11', '--', 'b.txt:1: match top', 'b.txt:2- after'].join('\n'),
    );
    // overlapping windows merge; before/after set each side
    expect((await grep(root, { pattern: 'match', path: 'a.txt', before: 2, after: 0 })).content).toBe(
      ['a.txt:1- line 1', 'a.txt:2- line 2', 'a.txt:3: match 3', '--', 'a.txt:8- line 8', 'a.txt:9- line 9', 'a.txt:10: match 10'].join('\n'),
    );
    expect((await grep(root, { pattern: 'match [0-9]+', path: 'a.txt', '-C': 4 })).content.split('\n')).toHaveLength(12);
  });

  run('output modes: content, files_with_matches, count', async () => {
    const root = tree({ 'a.txt': 'x\nx\ny\n', 'b.txt': 'y\n', 'c/d.txt': 'x\n' });
    expect((await grep(root, { pattern: 'x', output_mode: 'content' })).content).toBe('a.txt:1: x\na.txt:2: x\nc/d.txt:1: x');
    expect((await grep(root, { pattern: 'x', output_mode: 'files_with_matches' })).content).toBe('a.txt\nc/d.txt');
    expect((await grep(root, { pattern: 'x', output_mode: 'count' })).content).toBe('a.txt:2\nc/d.txt:1');
    expect(await grep(root, { pattern: 'x', output_mode: 'lines' })).toMatchObject({ isError: true, content: expect.stringMatching(/output_mode must be one of/) });
  });

  run('binary files are skipped: a NUL byte early, or late after a match', async () => {
    const late = Buffer.concat([Buffer.from('needle first\n'), Buffer.alloc(100_000, 0x61), Buffer.from('\n\0\nneedle\n')]);
    const root = tree({ 'text.txt': 'needle\n', 'early.bin': Buffer.from('ab\0cd\nneedle\n'), 'late.dat': late });
    expect((await grep(root, { pattern: 'needle' })).content).toBe('text.txt:1: needle');
    expect((await grep(root, { pattern: 'needle', output_mode: 'files_with_matches' })).content).toBe('text.txt');
    expect((await grep(root, { pattern: 'needle', output_mode: 'count' })).content).toBe('text.txt:1');
  });

  run('files the permission rules hide (SearchPolicy) are neither searched nor counted, whatever the root', async () => {
    const root = tree({ 'a.txt': 'needle\n', 'secret/key.txt': 'needle\n', 'secret/ok.txt': 'needle\n' });
    const hidden = (absolute: string): boolean => absolute.endsWith('/secret/key.txt');
    const options = { searchPolicy: () => ({ hiddenFiles: (tool: string) => (tool === 'grep' ? hidden : undefined) }) };
    expect((await grep(root, { pattern: 'needle', output_mode: 'files_with_matches' }, options)).content).toBe('a.txt\nsecret/ok.txt');
    expect((await grep(root, { pattern: 'needle', path: 'secret', output_mode: 'count' }, options)).content).toBe('secret/ok.txt:1');
  });

  run('ignored and hidden paths are skipped; hidden files are searched; a subdirectory keeps the root rules', async () => {
    const root = tree({
      '.gitignore': 'dist/\n*.log\n!keep.log\n',
      '.git/info/exclude': 'excluded.txt\n',
      '.git/config': 'needle\n',
      '.hidden/x.txt': 'needle\n',
      '.env.example': 'needle\n',
      'dist/out.js': 'needle\n',
      'a.log': 'needle\n',
      'keep.log': 'needle\n',
      'excluded.txt': 'needle\n',
      'src/.gitignore': 'secret.ts\n',
      'src/secret.ts': 'needle\n',
      'src/ok.ts': 'needle\n',
      'src/x.log': 'needle\n',
    });
    expect((await grep(root, { pattern: 'needle', output_mode: 'files_with_matches' })).content).toBe('.env.example\nkeep.log\nsrc/ok.ts');
    expect((await grep(root, { pattern: 'needle', path: 'src', output_mode: 'files_with_matches' })).content).toBe('src/ok.ts');
    // naming an ignored or hidden place explicitly searches it
    expect((await grep(root, { pattern: 'needle', path: 'dist' })).content).toBe('dist/out.js:1: needle');
    expect((await grep(root, { pattern: 'needle', path: '.hidden' })).content).toBe('.hidden/x.txt:1: needle');
    expect((await grep(root, { pattern: 'needle', path: 'a.log' })).content).toBe('a.log:1: needle');
    // benchmarks switch ignore files off (never the model)
    expect((await grep(root, { pattern: 'needle', output_mode: 'files_with_matches' }, { respectIgnore: false })).content).toBe(
      '.env.example\na.log\ndist/out.js\nexcluded.txt\nkeep.log\nsrc/ok.ts\nsrc/secret.ts\nsrc/x.log',
    );
  });

  run('at most 100 matches: exactly 100 without a marker, 101 with one (content, files, count)', async () => {
    const hundred = Array.from({ length: 100 }, () => 'hit').join('\n');
    const root = tree({ 'a.txt': `${hundred}\n`, 'b.txt': 'miss\n' });
    const exact = await grep(root, { pattern: 'hit' });
    expect(exact.content.split('\n')).toHaveLength(100);
    expect(exact.content).not.toMatch(/not shown/);

    const over = tree({ 'a.txt': `${hundred}\n`, 'b.txt': 'hit\n' });
    const lines = (await grep(over, { pattern: 'hit' })).content.split('\n');
    expect(lines).toHaveLength(102);
    expect(lines[99]).toBe('a.txt:100: hit');
    expect(lines[100]).toBe('');
    expect(lines[101]).toBe(
      '[… 1 more matching line in 1 file not shown (showing the first 100 of 101, sorted by path and line); narrow the pattern, path or glob, or use output_mode "count" for per-file totals]',
    );

    const spec: Record<string, string> = {};
    for (let i = 0; i < 101; i++) spec[`f${String(i).padStart(3, '0')}.txt`] = 'hit\n';
    const many = tree(spec);
    const files = (await grep(many, { pattern: 'hit', output_mode: 'files_with_matches' })).content.split('\n');
    expect(files.slice(0, 2)).toEqual(['f000.txt', 'f001.txt']);
    expect(files.at(-1)).toBe('[… 1 more file with matches not shown (showing 100 of 101, sorted by path); narrow the pattern, path or glob]');
    const counts = (await grep(many, { pattern: 'hit', output_mode: 'count' })).content.split('\n');
    expect(counts[0]).toBe('f000.txt:1');
    expect(counts.at(-1)).toBe('[… 1 more file with matches not shown (showing 100 of 101 files; 101 matching lines in all); narrow the pattern, path or glob]');
  });

  run('after the 100th match its trailing context is kept up to the next match', async () => {
    const body = Array.from({ length: 101 }, (_, i) => `hit ${i + 1}\nctx ${i + 1}`).join('\n');
    const root = tree({ 'a.txt': `${body}\n` });
    const lines = (await grep(root, { pattern: 'hit', after: 3 })).content.split('\n');
    expect(lines.slice(198, 202)).toEqual(['a.txt:199: hit 100', 'a.txt:200- ctx 100', '', expect.stringMatching(/^\[… 1 more matching line in 1 file not shown/)]);
  });

  run('lines are cut at 500 characters (500 kept whole, 501 cut and counted)', async () => {
    const five = `k${'x'.repeat(499)}`;
    const root = tree({ 'a.txt': `${five}\n${five}y\n` });
    const lines = (await grep(root, { pattern: '^k' })).content.split('\n');
    expect(lines[0]).toBe(`a.txt:1: ${five}`);
    expect(lines[1]).toBe(`a.txt:2: ${five}… [line truncated]`);
    expect(lines[3]).toBe('[1 line cut at 500 characters; read the file with read_file to see it whole]');
  });

  run('a hostile pattern finishes fast on a 100 KB line', async () => {
    const root = tree({ 'evil.txt': `${'a'.repeat(100_000)}b\n`, 'ok.txt': 'aaa\n' });
    const started = performance.now();
    const result = await grep(root, { pattern: '(a+)+$' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.content).toBe('ok.txt:1: aaa');
  });

  run('backreferences and lookaround are clear errors', async () => {
    const root = tree({ 'a.txt': 'abab\n' });
    const backref = await grep(root, { pattern: '(ab)\\1' });
    expect(backref.isError).toBe(true);
    expect(backref.content).toMatch(/^grep: the pattern uses a backreference \(\\1\), which grep does not support/);
    const look = await grep(root, { pattern: 'foo(?=bar)' });
    expect(look).toMatchObject({ isError: true, content: expect.stringMatching(/lookahead or lookbehind \(\(\?=\)/) });
    const broken = await grep(root, { pattern: 'a(b' });
    expect(broken).toMatchObject({ isError: true, content: expect.stringMatching(/^grep: invalid regular expression: missing closing \).*RE2 syntax/) });
  });

  run('no matches is not an error; a missing or outside path is', async () => {
    const root = tree({ 'a.txt': 'x\n' });
    expect(await grep(root, { pattern: 'zzz' })).toEqual({ content: 'No matches for "zzz" in the project root.' });
    expect(await grep(root, { pattern: 'zzz', path: 'a.txt' })).toEqual({ content: 'No matches for "zzz" in a.txt.' });
    expect(await grep(root, { pattern: 'x', path: 'nope' })).toMatchObject({ isError: true, content: expect.stringMatching(/does not exist/) });
    expect(await grep(root, { pattern: 'x', path: '..' })).toMatchObject({ isError: true, content: expect.stringMatching(/outside the project root/) });
    expect(await grep(root, {})).toMatchObject({ isError: true, content: expect.stringMatching(/"pattern" is required/) });
    expect(await grep(root, { pattern: 'x', context: -1 })).toMatchObject({ isError: true, content: expect.stringMatching(/whole number/) });
  });

  run('line ends: CRLF, a last line without newline, empty lines, a BOM', async () => {
    const root = tree({ 'crlf.txt': 'one\r\ntwo\r\n', 'nonl.txt': 'first\nlast', 'empty.txt': '', 'blank.txt': 'a\n\nb\n', 'bom.txt': '\uFEFFtop\nnext\n' });
    expect((await grep(root, { pattern: 'two$' })).content).toBe('No matches for "two$" in the project root.');
    expect((await grep(root, { pattern: 'two\\r$' })).content).toBe('crlf.txt:2: two');
    expect((await grep(root, { pattern: 'last$' })).content).toBe('nonl.txt:2: last');
    expect((await grep(root, { pattern: '^$', output_mode: 'count' })).content).toBe('blank.txt:1');
    expect((await grep(root, { pattern: 'top' })).content).toBe('bom.txt:1: top');
  });

  run('the deadline stops the search with a marker', async () => {
    const root = tree({ 'a.txt': 'x\n', 'b.txt': 'x\n' });
    const result = await grep(root, { pattern: 'x' }, { deadlineMs: 0 });
    expect(result.content).toMatch(/\[search stopped at its time limit: results are incomplete; narrow the path, glob or pattern\]$/);
  });

  run('a cancelled call says so', async () => {
    const root = tree({ 'a.txt': 'x\n' });
    const controller = new AbortController();
    controller.abort();
    const result = await new GrepTool(testLimits(root), { engine }).execute({ pattern: 'x' }, toolContext(root, controller.signal));
    expect(result).toEqual({ isError: true, content: 'grep was cancelled.' });
  });
});

test('the ripgrep engine, when forced without rg on PATH, is an error (not a silent fallback)', async () => {
  const root = tree({ 'a.txt': 'x\n' });
  const saved = process.env.PATH;
  process.env.PATH = '/nonexistent-dir';
  try {
    const result = await new GrepTool(testLimits(root), { engine: 'ripgrep' }).execute({ pattern: 'x' }, toolContext(root));
    expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/`rg` is not on PATH/) });
  } finally {
    process.env.PATH = saved;
  }
});
