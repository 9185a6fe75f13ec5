/** T6: the glob tool on real temporary trees. */
import { renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { makeTree, removeTree, setAge, testLimits, toolContext, writeTree } from '../tool-grep/helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

function tree(spec: Parameters<typeof makeTree>[0]): string {
  const root = makeTree(spec, 'mewcode-glob-');
  roots.push(root);
  return root;
}

async function glob(root: string, input: Record<string, unknown>, options = {}) {
  return new GlobTool(testLimits(root), options).execute(input, toolContext(root));
}

function lines(content: string): string[] {
  return content.split('\n');
}

/** Gives the files strictly decreasing ages in the listed order, so newest-first is this order. */
function ageInOrder(root: string, rels: string[]): void {
  rels.forEach((rel, i) => setAge(root, rel, i + 1));
}

describe('glob', () => {
  test('definition: name, read-only, schema; permission target is the search root', () => {
    const tool = new GlobTool(testLimits('/tmp'));
    expect(tool.name).toBe('glob');
    expect(tool.readOnly).toBe(true);
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['pattern'] });
    expect(tool.description).toMatch(/most recently modified first/);
    expect(tool.permissionTarget({ pattern: '**/*.ts' })).toEqual({ kind: 'path', path: '.' });
    expect(tool.permissionTarget({ pattern: '**/*.ts', path: 'src' })).toEqual({ kind: 'path', path: 'src' });
    // a pattern that climbs out of `path` names the directory it really reads
    expect(tool.permissionTarget({ pattern: '../lib/*.ts', path: 'src' })).toEqual({ kind: 'path', path: 'lib' });
    expect(tool.permissionTarget({ pattern: '/abs/dir/**/*.ts' })).toEqual({ kind: 'path', path: '/abs/dir' });
  });

  test('**, braces and character classes; paths relative to the project root, newest first', async () => {
    const files = ['src/a.ts', 'src/b.tsx', 'src/deep/c.ts', 'src/d.js', 'lib/e.ts', 'f1.md', 'f2.md', 'f3.md', 'fx.md'];
    const root = tree(Object.fromEntries(files.map((f) => [f, 'x\n'])));
    ageInOrder(root, files);
    expect(lines((await glob(root, { pattern: '**/*.ts' })).content)).toEqual(['src/a.ts', 'src/deep/c.ts', 'lib/e.ts']);
    expect(lines((await glob(root, { pattern: 'src/**/*.{ts,tsx}' })).content)).toEqual(['src/a.ts', 'src/b.tsx', 'src/deep/c.ts']);
    expect(lines((await glob(root, { pattern: 'f[0-9].md' })).content)).toEqual(['f1.md', 'f2.md', 'f3.md']);
    expect(lines((await glob(root, { pattern: 'src/*' })).content)).toEqual(['src/a.ts', 'src/b.tsx', 'src/d.js']);
    expect(lines((await glob(root, { pattern: './src/?.js' })).content)).toEqual(['src/d.js']);
  });

  test('newest-modified first (mtimes set with utimes), ties broken by path', async () => {
    const root = tree({ 'old.txt': '1', 'mid.txt': '2', 'new.txt': '3', 'tie-b.txt': '4', 'tie-a.txt': '5' });
    setAge(root, 'old.txt', 300);
    setAge(root, 'mid.txt', 200);
    setAge(root, 'new.txt', 100);
    setAge(root, 'tie-b.txt', 150);
    setAge(root, 'tie-a.txt', 150);
    expect(lines((await glob(root, { pattern: '*.txt' })).content)).toEqual(['new.txt', 'tie-a.txt', 'tie-b.txt', 'mid.txt', 'old.txt']);
  });

  test('hidden directories are skipped, hidden files are listed; symlinks are not followed', async () => {
    const root = tree({
      'a.js': 'x',
      '.eslintrc.js': 'x',
      '.hidden/b.js': 'x',
      'src/.cache/c.js': 'x',
      'src/d.js': 'x',
      'outside/target.js': 'x',
      'link.js': { link: 'src/d.js' },
      'linkdir': { link: 'outside' },
    });
    ageInOrder(root, ['a.js', '.eslintrc.js', 'src/d.js', 'outside/target.js']);
    expect(lines((await glob(root, { pattern: '**/*.js' })).content)).toEqual(['a.js', '.eslintrc.js', 'src/d.js', 'outside/target.js']);
    // naming a hidden directory explicitly searches it
    expect((await glob(root, { pattern: '*.js', path: '.hidden' })).content).toBe('.hidden/b.js');
  });

  test('a directory swapped for a symlink to an outside one after it was listed: its files are not listed (either engine)', async () => {
    for (const engine of ['ripgrep', 'walker'] as const) {
      const base = tree({ 'project/d/f.txt': 'inside\n', 'project/e/g.txt': 'inside\n', 'outside/f.txt': 'outside\n' });
      const root = path.join(base, 'project');
      // The search policy is asked about each listed file just before it is looked up: the worst
      // moment for the swap, made deterministic here (the race suite attacks it with real timing).
      let swapped = false;
      const searchPolicy = () => ({
        hiddenFiles: () => (absolute: string) => {
          if (!swapped && absolute === path.join(root, 'd', 'f.txt')) {
            renameSync(path.join(root, 'd'), path.join(root, 'd.parked'));
            symlinkSync(path.join(base, 'outside'), path.join(root, 'd'));
            swapped = true;
          }
          return false;
        },
      });
      const out = await new GlobTool(testLimits(root), { engine, searchPolicy }).execute({ pattern: '**/*.txt' }, toolContext(root));
      expect({ engine, swapped, listed: lines(out.content) }).toEqual({ engine, swapped: true, listed: ['e/g.txt'] });
    }
  });

  test('root and nested .gitignore files are honoured (anchors, dir-only, negation, **), and .git/info/exclude', async () => {
    const root = tree({
      '.gitignore': ['*.log', '!keep.log', '/build', 'tmp/', '**/gen/**', '# a comment', ''].join('\n'),
      '.git/info/exclude': 'excluded.txt\n',
      'a.log': 'x',
      'keep.log': 'x',
      'excluded.txt': 'x',
      'build/out.js': 'x',
      'src/build/kept.js': 'x', // `/build` is anchored to the root
      'src/tmp': 'x', // `tmp/` matches directories only: this file stays
      'lib/tmp/gone.js': 'x',
      'lib/gen/x/gone.js': 'x',
      'pkg/.gitignore': 'secret.txt\n/local.js\n!*.log\n',
      'pkg/secret.txt': 'x',
      'pkg/deeper/secret.txt': 'x',
      'pkg/local.js': 'x',
      'pkg/deeper/local.js': 'x',
      'pkg/re.log': 'x', // re-included by the nested file (deeper wins)
      'node_modules/dep/index.js': 'x', // not ignored: no rule names it
    });
    const listed = lines((await glob(root, { pattern: '**/*' })).content).sort();
    expect(listed).toEqual(['.gitignore', 'keep.log', 'node_modules/dep/index.js', 'pkg/.gitignore', 'pkg/deeper/local.js', 'pkg/re.log', 'src/build/kept.js', 'src/tmp']);
    // searching below the root still honours the root's rules
    expect((await glob(root, { pattern: '*', path: 'pkg' })).content.split('\n').sort()).toEqual(['pkg/.gitignore', 'pkg/re.log']);
  });

  test('at most 100 paths: 100 fit without a marker, 101 give the marker with the real count', async () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < 101; i++) spec[`many/f${String(i).padStart(3, '0')}.txt`] = 'x';
    const root = tree(spec);
    for (let i = 0; i < 101; i++) setAge(root, `many/f${String(i).padStart(3, '0')}.txt`, i);
    const hundred = await glob(root, { pattern: 'many/f0[0-9][0-9].txt' });
    expect(lines(hundred.content)).toHaveLength(100);
    expect(hundred.content).not.toMatch(/more matching/);
    const all = await glob(root, { pattern: 'many/*.txt' });
    const out = lines(all.content);
    expect(out).toHaveLength(101);
    expect(out[0]).toBe('many/f000.txt'); // the newest
    expect(out[99]).toBe('many/f099.txt');
    expect(out[100]).toBe('[… 1 more matching file not shown (showing the 100 most recently modified of 101); narrow the pattern or path]');
  });

  test('many matches, dated while they are listed: the 100 newest in order, the real count, with either lister', async () => {
    // More matches than lookups in flight at once (plugins/tool-glob/glob-tool.ts), in an order unlike their ages.
    const names = Array.from({ length: 700 }, (_, i) => `big/d${i % 7}/f${String((i * 389) % 700).padStart(3, '0')}.log`);
    const root = tree(Object.fromEntries(names.map((n) => [n, 'x'])));
    names.forEach((n) => setAge(root, n, 1 + Number(/f(\d+)/.exec(n)![1])));
    const newest = [...names].sort((a, b) => Number(/f(\d+)/.exec(a)![1]) - Number(/f(\d+)/.exec(b)![1])).slice(0, 100);
    for (const engine of ['ripgrep', 'walker'] as const) {
      const out = lines((await glob(root, { pattern: '**/*.log' }, { engine })).content);
      expect({ engine, shown: out.slice(0, 100) }).toEqual({ engine, shown: newest });
      expect(out[100]).toBe('[… 600 more matching files not shown (showing the 100 most recently modified of 700); narrow the pattern or path]');
    }
  });

  test('no matches: a clear, non-error message with a hint for a pattern without a directory part', async () => {
    const root = tree({ 'src/a.ts': 'x' });
    const result = await glob(root, { pattern: '*.ts' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(
      'No files match "*.ts" in the project root.\n"*.ts" only matches files directly in the project root; use "**/*.ts" to search subdirectories. Hidden directories and files ignored by .gitignore, .ignore or .rgignore are not searched.',
    );
    expect((await glob(root, { pattern: '**/*.py' })).content).toMatch(/^No files match "\*\*\/\*\.py" in the project root\./);
  });

  test('path parameter: the pattern is relative to it, results stay relative to the project root', async () => {
    const root = tree({ 'src/a.ts': 'x', 'src/sub/b.ts': 'x', 'c.ts': 'x' });
    ageInOrder(root, ['src/a.ts', 'src/sub/b.ts', 'c.ts']);
    expect(lines((await glob(root, { pattern: '*.ts', path: 'src' })).content)).toEqual(['src/a.ts']);
    expect(lines((await glob(root, { pattern: '**/*.ts', path: 'src' })).content)).toEqual(['src/a.ts', 'src/sub/b.ts']);
    expect(lines((await glob(root, { pattern: '**/*.ts', path: path.join(root, 'src') })).content)).toEqual(['src/a.ts', 'src/sub/b.ts']);
  });

  test('absolute and ../ patterns are resolved against path; leaving the project is an error', async () => {
    const root = tree({ 'src/a.ts': 'x', 'lib/b.ts': 'x' });
    expect((await glob(root, { pattern: '../lib/*.ts', path: 'src' })).content).toBe('lib/b.ts');
    expect((await glob(root, { pattern: `${root}/lib/**/*.ts` })).content).toBe('lib/b.ts');
    const outside = await glob(root, { pattern: '../../**/*.ts' });
    expect(outside.isError).toBe(true);
    expect(outside.content).toMatch(/outside the project root/);
    const badPath = await glob(root, { pattern: '*.ts', path: '../' });
    expect(badPath).toMatchObject({ isError: true, content: expect.stringMatching(/outside the project root/) });
    expect(await glob(root, { pattern: '*.ts', path: 'missing' })).toMatchObject({ isError: true, content: expect.stringMatching(/does not exist/) });
    expect(await glob(root, { pattern: '*.ts', path: 'src/a.ts' })).toMatchObject({ isError: true, content: expect.stringMatching(/is a file/) });
  });

  test('a literal path is returned when it exists; a directory gets a hint', async () => {
    const root = tree({ 'src/a.ts': 'x' });
    expect((await glob(root, { pattern: 'src/a.ts' })).content).toBe('src/a.ts');
    expect((await glob(root, { pattern: 'src' })).content).toBe('"src" is a directory; glob lists files. Use "src/**" to list the files inside it.');
    expect((await glob(root, { pattern: 'src/nope.ts' })).content).toMatch(/^No file "src\/nope.ts" exists/);
  });

  test('input errors are results, not throws', async () => {
    const root = tree({ 'a.ts': 'x' });
    expect(await glob(root, {})).toMatchObject({ isError: true, content: expect.stringMatching(/"pattern" is required/) });
    expect(await glob(root, { pattern: '*', path: 3 })).toMatchObject({ isError: true });
  });

  test('respectIgnore: false (benchmarks) lists ignored files but still skips hidden directories', async () => {
    const root = tree({ '.gitignore': '*.log\n', 'a.log': 'x', '.hidden/b.log': 'x' });
    expect((await glob(root, { pattern: '**/*.log' }, { respectIgnore: false })).content).toBe('a.log');
  });

  test('a pattern V8 would backtrack through for hours (many stars, several **, brace groups) is answered at once, by either lister', async () => {
    // The model writes the pattern and a repository can steer it; the long names are the repository's.
    // Each long name ends as the glob does, so the quick suffix test lets it through to the matcher.
    const deep = 'x/'.repeat(60);
    const root = tree({ [`d/${'a'.repeat(240)}.txt`]: 'x', 'd/aaaaaaaac.txt': 'x', [`${deep}${'xy'.repeat(100)}.txt`]: 'x', 'x/x/x/x/x/x/yes.txt': 'x', 'xyxyxyq.txt': 'x' });
    for (const engine of ['walker', 'ripgrep'] as const) {
      expect((await glob(root, { pattern: `**/${'*a'.repeat(8)}*c*.txt` }, { engine })).content).toBe('d/aaaaaaaac.txt');
      expect((await glob(root, { pattern: `${'**/x/'.repeat(6)}**/y*.txt` }, { engine })).content).toBe('x/x/x/x/x/x/yes.txt');
      expect((await glob(root, { pattern: `**/${'{x,y}*'.repeat(6)}q*.txt` }, { engine })).content).toBe('xyxyxyq.txt');
    }
  });

  test('a cancelled call says so', async () => {
    const root = tree({ 'a.ts': 'x' });
    writeTree(root, { 'b.ts': 'x' });
    const controller = new AbortController();
    controller.abort();
    const result = await new GlobTool(testLimits(root)).execute({ pattern: '**/*' }, toolContext(root, controller.signal));
    expect(result).toEqual({ isError: true, content: 'glob was cancelled.' });
  });
});
