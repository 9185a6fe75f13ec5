/**
 * The submodules an index registers (git-index.ts), checked against git's own listing: read from
 * the file as git reads it, and, for whatever the reader is not sure of, asked of git itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSUME_UNCHANGED, gitlinkPaths, indexFacts, MAX_INDEX_BYTES, parseGitlinks, parseIndex, SKIP_WORKTREE } from '../../../plugins/sandbox-os/git-index.js';
import { extension, readEntries, withNulInFirstName, writeIndex } from './index-writer.js';
import { MAX_UNSAFE_LISTED } from '../../../plugins/sandbox-os/git-index-facts.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function repo(): { root: string; gitDir: string; index: string; git: (...args: string[]) => string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mc-git-index-'));
  dirs.push(root);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' } }).toString();
  git('init', '-q', '-b', 'main');
  // Long and shared path prefixes (what version 4 compresses), a name with a space and non-ASCII.
  for (const file of ['a.txt', 'src/deep/nested/one.ts', 'src/deep/nested/two.ts', 'src/my file.ts', 'src/ünï.ts']) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), file);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  const head = git('rev-parse', 'HEAD').trim();
  for (const link of ['node_modules/left-pad', 'src/deep/vendored lib', 'zz']) git('update-index', '--add', '--cacheinfo', `160000,${head},${link}`);
  return { root, gitDir: path.join(root, '.git'), index: path.join(root, '.git', 'index'), git };
}

const GITLINKS = ['node_modules/left-pad', 'src/deep/vendored lib', 'zz'];

/** The gitlinks as git lists them; undefined when git cannot read the index. */
function fromGit(git: (...args: string[]) => string): string[] | undefined {
  let listing: string;
  try {
    listing = git('ls-files', '-s', '-z');
  } catch {
    return undefined;
  }
  return listing
    .split('\0')
    .filter((line) => line.startsWith('160000 '))
    .map((line) => line.slice(line.indexOf('\t') + 1));
}

const gitlinksOf = (data: Buffer): string[] | undefined => {
  const parsed = parseGitlinks(data);
  return 'gitlinks' in parsed ? parsed.gitlinks : undefined;
};

test.each([2, 3, 4])('index version %i: the gitlinks git lists, no more', async (version) => {
  const { root, gitDir, index, git } = repo();
  if (version === 3) {
    writeFileSync(path.join(root, 'later.txt'), 'x');
    git('add', '-N', 'later.txt'); // intent-to-add: an extended flag, which makes the index version 3
  }
  git('update-index', `--index-version=${version}`);
  expect(readFileSync(index).readUInt32BE(4)).toBe(version);
  expect(fromGit(git)).toEqual(GITLINKS);
  expect(gitlinksOf(readFileSync(index))).toEqual(GITLINKS);
  expect(await gitlinkPaths(gitDir, root)).toEqual({ gitlinks: GITLINKS });
});

test.each([2, 3, 4])('version %i: a NUL inside a name its length covers (git takes the length from the flags): every gitlink after it is still listed', async (version) => {
  const { root, gitDir, index, git } = repo();
  git('update-index', '--index-version=2');
  const entries = withNulInFirstName(readEntries(readFileSync(index)));
  if (version === 3) entries[1] = { ...entries[1]!, extended: 0 };
  writeFileSync(index, writeIndex(version, entries));
  expect(fromGit(git)).toEqual(GITLINKS); // git reads past the NUL
  expect(gitlinksOf(readFileSync(index))).toEqual(GITLINKS);
  expect((await gitlinkPaths(gitDir, root)).gitlinks).toEqual(GITLINKS);
});

test('an extended-flags word in a version 2 index: git reads it whatever the version, and so does the reader', () => {
  const { index, git } = repo();
  git('update-index', '--index-version=2');
  const entries = readEntries(readFileSync(index)).map((entry) => ({ ...entry, extended: 0 }));
  writeFileSync(index, writeIndex(2, entries));
  expect(fromGit(git)).toEqual(GITLINKS);
  expect(gitlinksOf(readFileSync(index))).toEqual(GITLINKS);
});

describe('what the reader is not sure of is unknown, and then git is asked', () => {
  /** The index rewritten by `change`; what parseGitlinks, gitlinkPaths and git make of it. */
  async function after(change: (data: Buffer, entries: ReturnType<typeof readEntries>) => Buffer) {
    const { root, gitDir, index, git } = repo();
    git('update-index', '--index-version=2');
    const data = readFileSync(index);
    writeFileSync(index, change(data, readEntries(data)));
    return { parsed: parseGitlinks(readFileSync(index)), listed: await gitlinkPaths(gitDir, root), git: fromGit(git), index };
  }

  test('fewer entries than the header counts (a cut index): unknown; the answer is git’s', async () => {
    const { parsed, listed, git } = await after((data) => data.subarray(0, 300));
    expect(parsed).toMatchObject({ unknown: expect.stringContaining('cut short') });
    if (git === undefined) expect(listed.unread).toBeDefined();
    else expect(listed).toEqual({ gitlinks: git });
  });

  test('bytes left over after the entries: unknown; git skips them and lists every gitlink', async () => {
    const { parsed, listed, git } = await after((_data, entries) => writeIndex(2, entries, { extensions: Buffer.from('junk!') }));
    expect(parsed).toMatchObject({ unknown: expect.stringContaining('left over') });
    expect(git).toEqual(GITLINKS);
    expect(listed).toEqual({ gitlinks: GITLINKS });
  });

  test('a version it does not know, and an extension git must understand: unknown; git refuses them too, and the list is unread', async () => {
    for (const change of [(_data: Buffer, entries: ReturnType<typeof readEntries>) => writeIndex(5, entries), (_data: Buffer, entries: ReturnType<typeof readEntries>) => writeIndex(2, entries, { extensions: extension('abcd') })]) {
      const { parsed, listed, git } = await after(change);
      expect(parsed).toMatchObject({ unknown: expect.any(String) });
      expect(git).toBeUndefined();
      expect(listed.unread).toEqual(expect.stringContaining('git could not list'));
    }
  });

  test('an optional extension git skips (capital first letter) is skipped; a junk one running past the end is not', async () => {
    expect((await after((_data, entries) => writeIndex(2, entries, { extensions: extension('ZZZZ', Buffer.from('whatever')) }))).parsed).toEqual({ gitlinks: GITLINKS });
    expect((await after((_data, entries) => writeIndex(2, entries, { extensions: extension('ZZZZ', Buffer.alloc(3)).subarray(0, 9) }))).parsed).toMatchObject({ unknown: expect.any(String) });
  });

  test('larger than MAX_INDEX_BYTES: not read; git is asked', async () => {
    const { root, gitDir, index, git } = repo();
    git('update-index', '--index-version=2');
    // The entries, an extension git refuses (so that git's answer is certain), then zeros up to past the bound (a sparse file).
    writeFileSync(index, writeIndex(2, readEntries(readFileSync(index)), { extensions: extension('abcd') }));
    truncateSync(index, MAX_INDEX_BYTES + 1);
    expect((await gitlinkPaths(gitDir, root)).unread).toEqual(expect.stringContaining('larger than'));
  });
});

test('an end-of-index-entries table (EOIE, which git may load entries by): unknown, and the answer is git’s', async () => {
  const { root, gitDir, index, git } = repo();
  git('-c', 'index.threads=2', '-c', 'index.recordEndOfIndexEntries=true', 'update-index', '--index-version=2', '--force-write-index');
  expect(parseGitlinks(readFileSync(index))).toMatchObject({ unknown: expect.stringContaining('EOIE') });
  expect(await gitlinkPaths(gitDir, root)).toEqual({ gitlinks: fromGit(git) });
});

test('a split index: the entries it replaces by position are git’s business; the answer is git’s, gitlinks in the shared index included', async () => {
  const { root, gitDir, index, git } = repo();
  git('update-index', '--split-index');
  expect(parseGitlinks(readFileSync(index))).toMatchObject({ unknown: expect.stringContaining('link') });
  expect(await gitlinkPaths(gitDir, root)).toEqual({ gitlinks: GITLINKS });
});

test('what is not an index yields unknown, never a throw', () => {
  expect(parseGitlinks(Buffer.from('not an index at all'))).toMatchObject({ unknown: expect.any(String) });
  const { index } = repo();
  const data = readFileSync(index);
  for (let cut = 0; cut < data.length; cut += 7) expect(() => parseGitlinks(data.subarray(0, cut))).not.toThrow();
});

test('no index (no repository, or nothing added yet): none', async () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'mc-git-index-none-'));
  dirs.push(empty);
  expect(await gitlinkPaths(path.join(empty, '.git'), empty)).toEqual({ gitlinks: [] });
});

/** The marked entries as git lists them (`ls-files -v`: lower case for assume-unchanged, S for skip-worktree). */
function marksFromGit(git: (...args: string[]) => string): Map<string, number> {
  const marks = new Map<string, number>();
  for (const line of git('ls-files', '-v', '-z').split('\0')) {
    const [tag, name] = [line.slice(0, 1), line.slice(2)];
    const bits = (tag !== tag.toUpperCase() ? ASSUME_UNCHANGED : 0) | (tag.toUpperCase() === 'S' ? SKIP_WORKTREE : 0);
    if (bits) marks.set(name, bits);
  }
  return marks;
}

test.each(['3', '4', 'split index', 'entry offset table'])('version %s: the entries marked assume-unchanged or skip-worktree are the ones git lists, read or asked of git', async (kind) => {
  const { root, gitDir, index, git } = repo();
  git('update-index', '--assume-unchanged', 'a.txt');
  git('update-index', '--skip-worktree', 'src/ünï.ts', 'src/deep/nested/two.ts');
  if (kind === 'split index') git('update-index', '--split-index');
  else if (kind === 'entry offset table') git('-c', 'index.threads=2', '-c', 'index.recordEndOfIndexEntries=true', 'update-index', '--index-version=2', '--force-write-index');
  else git('update-index', `--index-version=${kind}`);
  if (/^\d$/.test(kind)) expect(readFileSync(index).readUInt32BE(4)).toBe(Number(kind));
  const expected = new Map([
    ['a.txt', ASSUME_UNCHANGED],
    ['src/deep/nested/two.ts', SKIP_WORKTREE],
    ['src/ünï.ts', SKIP_WORKTREE],
  ]);
  expect(marksFromGit(git)).toEqual(expected);
  const read = await indexFacts(gitDir, root);
  expect(read.unread).toBeUndefined();
  expect(read.marked).toEqual(expected);
  expect('unknown' in parseIndex(readFileSync(index))).toBe(kind === 'split index' || kind === 'entry offset table');
});

test('entries recorded as changed from a time on: read with their stat data and object, as git lists them', async () => {
  const { root, gitDir, index, git } = repo();
  const since = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 20));
  writeFileSync(path.join(root, 'a.txt'), 'changed');
  git('add', 'a.txt');
  const parsed = parseIndex(readFileSync(index), 20, since - 10);
  if ('unknown' in parsed) throw new Error(parsed.unknown);
  expect(parsed.recent.map((entry) => entry.name)).toEqual(['a.txt']);
  const [entry] = parsed.recent;
  expect(entry!.oid).toBe(git('rev-parse', ':a.txt').trim());
  expect(entry!.size).toBe(7);
  // git's own listing (the reader's fallback) says the same.
  git('update-index', '--split-index');
  expect((await indexFacts(gitDir, root, since - 10)).recent).toEqual(parsed.recent);
});

test('entries git never writes (absolute, empty, `.`, `..` or `.git` in any spelling): listed, read or asked of git; what git writes is not', async () => {
  const { root, gitDir, index, git } = repo();
  const entries = readEntries(readFileSync(index));
  const like = entries.find((entry) => entry.name.toString() === 'a.txt')!;
  const planted = ['../home/.bashrc', '.git/hooks/pre-commit', 'sub/.GIT/config', 'x/.git./y', 'a//b', './c', '/etc/passwd', 'git~1/hooks/x', 'd/.g\u200cit/e'];
  const safe = ['.gitignore', '.github/workflows/ci.yml', 'a..b', '...'];
  const all = [...entries, ...[...planted, ...safe].map((name) => ({ ...like, name: Buffer.from(name) }))].sort((a, b) => Buffer.compare(a.name, b.name));
  for (const version of [2, 4]) {
    const data = writeIndex(version, all);
    const parsed = parseIndex(data);
    expect('unsafe' in parsed && [...parsed.unsafe].sort()).toEqual([...planted].sort());
  }
  // Asked of git (a split index, which the reader leaves to it): the same answer.
  writeFileSync(index, writeIndex(2, all));
  git('update-index', '--split-index');
  expect(parseIndex(readFileSync(index))).toHaveProperty('unknown');
  expect([...(await indexFacts(gitDir, root)).unsafe].sort()).toEqual([...planted].sort());
});

test('unsafe entries are listed up to MAX_UNSAFE_LISTED', () => {
  const { index } = repo();
  const like = readEntries(readFileSync(index))[0]!;
  const withUnsafe = (count: number): string[] => {
    const parsed = parseIndex(writeIndex(2, Array.from({ length: count }, (_, i) => ({ ...like, name: Buffer.from(`../x${String(i).padStart(3, '0')}`) }))));
    return 'unsafe' in parsed ? parsed.unsafe : [];
  };
  expect(withUnsafe(MAX_UNSAFE_LISTED)).toHaveLength(MAX_UNSAFE_LISTED);
  expect(withUnsafe(MAX_UNSAFE_LISTED + 1)).toHaveLength(MAX_UNSAFE_LISTED);
  expect(withUnsafe(1)).toEqual(['../x000']);
});
