/**
 * Ignore rules from above the project: a package of a monorepo opened on its own sees its
 * repository's `.gitignore` files (from the repository's top down) and `.git/info/exclude`, as
 * git and ripgrep do; nothing is read above the repository, above a project that has its own
 * `.git`, or from a repository that is the home directory or holds it (dotfiles kept in git must
 * not hide the projects below). Both grep engines and both glob listers give the same files, and
 * they equal `git ls-files --others --exclude-standard` and `rg` run in the package where those
 * apply the same rules.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool } from '../../../plugins/tool-grep/grep-tool.js';
import { rebaseFromAncestor } from '../../../sdk/search-common/ignore-rebase.js';
import { toolContext } from '../../support/tool-context.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, writeTree } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');

const gitEnv = (home: string): NodeJS.ProcessEnv => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });

function gitInit(dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dir, env: gitEnv(os.tmpdir()) });
}

const sorted = (lines: string[]): string[] => [...lines].filter((l) => l !== '').sort();

/** The files each engine finds in `project` (grep: those holding "needle"; glob: all), checked to agree. */
async function filesSeen(project: string, homeDir: string, pathInput?: string): Promise<{ grep: string[]; glob: string[] }> {
  const ctx = toolContext({ projectRoot: project, homeDir });
  const where = pathInput === undefined ? {} : { path: pathInput };
  const grepEngines = RG_PATH ? (['ripgrep', 're2js'] as const) : (['re2js'] as const);
  const globEngines = RG_PATH ? (['ripgrep', 'walker'] as const) : (['walker'] as const);
  const greps = new Map<string, string[]>();
  for (const engine of grepEngines) {
    const tool = new GrepTool(testLimits(project), { engine });
    const result = await tool.execute({ pattern: 'needle', output_mode: 'files_with_matches', ...where }, ctx);
    expect(tool.lastRun?.engine).toBe(engine);
    greps.set(engine, result.content.startsWith('No matches') ? [] : sorted(result.content.split('\n')));
  }
  const globs = new Map<string, string[]>();
  for (const engine of globEngines) {
    const result = await new GlobTool(testLimits(project), { engine }).execute({ pattern: '**/*', ...where }, ctx);
    globs.set(engine, result.content.startsWith('No files') ? [] : sorted(result.content.split('\n')));
  }
  const [grep] = [...greps.values()];
  const [glob] = [...globs.values()];
  for (const [engine, seen] of greps) expect([engine, seen]).toEqual([engine, grep]);
  for (const [engine, seen] of globs) expect([engine, seen]).toEqual([engine, glob]);
  return { grep: grep!, glob: glob! };
}

/** `rg -l needle` itself in `cwd` (its own parent handling), paths relative to `cwd`. */
function rgFiles(cwd: string, start = '.'): string[] {
  const result = spawnSync(RG_PATH!, ['--no-config', '--hidden', '--glob=!.*/', '--no-ignore-global', '-l', '-e', 'needle', '--', start], { cwd, encoding: 'utf8' });
  expect([0, 1]).toContain(result.status);
  return sorted(result.stdout.split('\n').map((l) => l.replace(/^\.\//, '')));
}

/** What git leaves untracked and not ignored under `cwd`, relative to it. */
function gitFiles(cwd: string, home: string): string[] {
  return sorted(execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z'], { cwd, env: gitEnv(home), encoding: 'utf8' }).split('\0'));
}

let trees: string[] = [];
afterEach(() => {
  for (const tree of trees) removeTree(tree);
  trees = [];
});

describe('a package of a monorepo', () => {
  const N = 'needle\n';
  function monorepo(): { top: string; project: string } {
    const top = makeTree(
      {
        '.gitignore': ['node_modules/', '*.log', '!keep.log', '/packages/foo/dist/', 'packages/*/gen/', '**/tmp-*', '/top-only.txt', 'packages/foo/src/anch*.ts', 'packages/**/deep.txt', '/packages/bar/', ''].join('\n'),
        'packages/.gitignore': 'coverage/\n/foo/build/\n',
        'packages/foo/.gitignore': '!important.log\n',
        'packages/foo/src/i.ts': N,
        'packages/foo/node_modules/dep/index.js': N,
        'packages/foo/a.log': N,
        'packages/foo/keep.log': N,
        'packages/foo/important.log': N,
        'packages/foo/dist/x.js': N,
        'packages/foo/src/dist/x.js': N,
        'packages/foo/gen/g.ts': N,
        'packages/foo/tmp-1.txt': N,
        'packages/foo/src/tmp-2.txt': N,
        'packages/foo/top-only.txt': N,
        'packages/foo/src/anchor.ts': N,
        'packages/foo/src/sub/anchor.ts': N,
        'packages/foo/coverage/c.txt': N,
        'packages/foo/build/b.js': N,
        'packages/foo/src/build/b.js': N,
        'packages/foo/excluded.txt': N,
        'packages/foo/deep.txt': N,
        'packages/foo/src/deep.txt': N,
      },
      'mewcode-monorepo-',
    );
    gitInit(top);
    writeTree(top, { '.git/info/exclude': 'excluded.txt\n' });
    trees.push(top);
    return { top, project: path.join(top, 'packages/foo') };
  }

  const KEPT = ['important.log', 'keep.log', 'src/build/b.js', 'src/dist/x.js', 'src/i.ts', 'src/sub/anchor.ts', 'top-only.txt'];

  test("the repository's .gitignore files above the package and its exclude apply, in both engines, as in git and rg", async () => {
    const { top, project } = monorepo();
    const seen = await filesSeen(project, os.homedir());
    expect(seen.grep).toEqual(KEPT);
    expect(seen.glob).toEqual(sorted([...KEPT, '.gitignore']));
    expect(gitFiles(project, top)).toEqual(seen.glob);
    if (RG_PATH) expect(rgFiles(project)).toEqual(seen.grep);
  });

  test('a search below the package root too', async () => {
    const { project } = monorepo();
    const seen = await filesSeen(project, os.homedir(), 'src');
    expect(seen.grep).toEqual(['src/build/b.js', 'src/dist/x.js', 'src/i.ts', 'src/sub/anchor.ts']);
    expect(seen.glob).toEqual(seen.grep);
    expect(gitFiles(path.join(project, 'src'), project).map((f) => `src/${f}`)).toEqual(seen.glob);
    // rg 13 given `src` as its path misses the parents' anchored rules (it lists src/anchor.ts); run from there it agrees.
    if (RG_PATH) expect(rgFiles(path.join(project, 'src')).map((f) => `src/${f}`)).toEqual(seen.grep);
  });

  test('boundaries: nothing from above a package with its own .git, nor from parents outside any repository', async () => {
    const { top } = monorepo();
    // A package with its own repository inside the monorepo: the monorepo's `*.log` stops there.
    writeTree(top, { 'packages/own/a.log': 'needle\n', 'packages/own/node_modules/m.js': 'needle\n', 'packages/own/.gitignore': 'node_modules/\n' });
    gitInit(path.join(top, 'packages/own'));
    const own = await filesSeen(path.join(top, 'packages/own'), os.homedir());
    expect(own.grep).toEqual(['a.log']);
    if (RG_PATH) expect(rgFiles(path.join(top, 'packages/own'))).toEqual(own.grep);
    // Outside any repository, a parent's .gitignore is not read (git and rg read none either).
    const loose = makeTree({ '.gitignore': '*.txt\n', 'p/a.txt': 'needle\n' }, 'mewcode-norepo-');
    trees.push(loose);
    expect((await filesSeen(path.join(loose, 'p'), os.homedir())).grep).toEqual(['a.txt']);
    if (RG_PATH) expect(rgFiles(path.join(loose, 'p'))).toEqual(['a.txt']);
    // and the package of the monorepo still gets its repository's rules
    expect((await filesSeen(path.join(top, 'packages/foo'), os.homedir())).grep).toEqual(KEPT);
  });

  test('the outer rules hold in a nested repository inside the package too, the same in both engines', async () => {
    const { project } = monorepo();
    writeTree(project, { 'vendor/lib/x.log': 'needle\n', 'vendor/lib/y.ts': 'needle\n' });
    mkdirSync(path.join(project, 'vendor/lib/.git'));
    const seen = await filesSeen(project, os.homedir());
    expect(seen.grep).toEqual(sorted([...KEPT, 'vendor/lib/y.ts']));
  });
});

describe('a home directory kept in git', () => {
  test('does not hide the projects below it; a repository inside the home directory still counts', async () => {
    const home = makeTree({ '.gitignore': '*\n!.gitignore\n!.bashrc\n', '.bashrc': '\n', 'code/proj/src/a.ts': 'needle\n', 'code/proj/node_modules/m.js': 'needle\n' }, 'mewcode-home-');
    trees.push(home);
    gitInit(home);
    const project = path.join(home, 'code/proj');
    expect((await filesSeen(project, home)).grep).toEqual(['node_modules/m.js', 'src/a.ts']);
    if (RG_PATH) expect(rgFiles(project)).toEqual([]); // plain rg hides the whole project

    // A monorepo inside the home directory (the repository does not hold the home directory).
    writeTree(home, { 'mono/.gitignore': 'node_modules/\n', 'mono/pkg/src/a.ts': 'needle\n', 'mono/pkg/node_modules/m.js': 'needle\n' });
    gitInit(path.join(home, 'mono'));
    expect((await filesSeen(path.join(home, 'mono/pkg'), home)).grep).toEqual(['src/a.ts']);
  });

  test('a repository that holds the home directory gives no rules either', async () => {
    const outer = makeTree({ '.gitignore': '*\n', 'home/me/proj/a.ts': 'needle\n' }, 'mewcode-roothome-');
    trees.push(outer);
    gitInit(outer);
    const home = path.join(outer, 'home/me');
    expect((await filesSeen(path.join(home, 'proj'), home)).grep).toEqual(['a.ts']);
    // The same tree with the home directory elsewhere: the repository's `*` hides the project, as in git.
    expect((await filesSeen(path.join(home, 'proj'), os.homedir())).grep).toEqual([]);
  });

  test('a repository holding a home directory in a folder whose name begins with two dots (`..users/me`) holds it too', async () => {
    const outer = makeTree({ '.gitignore': '*\n', '..users/me/.bashrc': '\n', 'proj/a.ts': 'needle\n' }, 'mewcode-dothome-');
    trees.push(outer);
    gitInit(outer);
    expect((await filesSeen(path.join(outer, 'proj'), path.join(outer, '..users/me'))).grep).toEqual(['a.ts']);
  });
});

test('rules of a parent directory rewritten relative to the project', () => {
  const rebase = (line: string, below: string[]): string[] => rebaseFromAncestor(line, below);
  expect(rebase('node_modules/', ['packages', 'foo'])).toEqual(['node_modules/']);
  expect(rebase('!keep.log', ['packages', 'foo'])).toEqual(['!keep.log']);
  expect(rebase('/packages/foo/dist/', ['packages', 'foo'])).toEqual(['/dist/']);
  expect(rebase('/packages/bar/dist/', ['packages', 'foo'])).toEqual([]);
  expect(rebase('packages/*/gen', ['packages', 'foo'])).toEqual(['/gen']);
  expect(rebase('pack[a-z]ges/f?o/x', ['packages', 'foo'])).toEqual(['/x']);
  expect(rebase('**/tmp', ['packages', 'foo'])).toEqual(['/**/tmp']);
  expect(rebase('packages/**/deep.txt', ['packages', 'foo'])).toEqual(['/**/deep.txt']);
  expect(rebase('packages/**/foo/x', ['packages', 'foo'])).toEqual(['/**/foo/x', '/x']);
  expect(rebase('packages/foo/**', ['packages', 'foo'])).toEqual(['/**']);
  expect(rebase('/packages/foo', ['packages', 'foo'])).toEqual([]); // names the project itself
  expect(rebase('/packages', ['packages', 'foo'])).toEqual([]); // a parent: never tested, as in rg
  expect(rebase('{packages/foo/a,other}.txt', ['packages', 'foo'])).toEqual(['/a.txt']);
  expect(rebase('packages/{foo,bar}/x', ['packages', 'foo'])).toEqual(['/x']);
  expect(rebase('\\!bang/x', ['!bang'])).toEqual(['/x']);
  expect(rebase('a/[/]/b', ['a', 'x'])).toEqual([]);
  expect(rebase('# comment\n\n  \nsub/x   \n', ['sub'])).toEqual(['/x']);
});
