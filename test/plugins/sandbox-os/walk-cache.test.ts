/**
 * The sweep's walk keeps what it took from each directory while the directory is unchanged
 * (walk-cache.ts): a later walk lists again only what changed, and finds everything a fresh walk
 * finds. The cache's clock is moved ahead here instead of waiting for the tree to age: times
 * within a tick of the file system's clock (file-clock.ts) are never trusted.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findGitEntries } from '../../../plugins/sandbox-os/git-walk.js';
import { FINE_TICK_MS, TICK_MS, onFineClockFileSystem, tickOf } from '../../../plugins/sandbox-os/file-clock.js';
import { WalkCache } from '../../../plugins/sandbox-os/walk-cache.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-walk-cache-')));
  for (const dir of ['src/a/b', 'src/c', 'docs/d', 'packages/app/src', 'node_modules/x']) await mkdir(path.join(root, dir), { recursive: true });
  await writeFile(path.join(root, 'src/a/b/file.ts'), 'x\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A cache whose clock runs `aheadMs` ahead: the tree just made looks that old to it. */
const agedCache = (aheadMs = 60_000): WalkCache<never> => new WalkCache({ now: () => Date.now() + aheadMs });
/** File system times come from a coarse clock: a change made at once could carry the same time. */
const nextTick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

const rel = (files: readonly string[]): string[] => files.map((file) => path.relative(root, file)).sort();
const summary = (walk: Awaited<ReturnType<typeof findGitEntries>>): Record<string, string[]> => ({
  entries: rel(walk.entries.map((entry) => entry.path)),
  settings: rel(walk.settings),
  toolFiles: rel(walk.toolFiles.map((file) => file.path)),
  controlNames: rel(walk.controlNames),
});

test('an unchanged tree is not listed again, and the second walk finds what the first did', async () => {
  await mkdir(path.join(root, 'docs/d/.git'));
  const cache = agedCache();
  const first = await findGitEntries(root, false, undefined, cache);
  // The root, src, docs, packages, src/a, src/c, docs/d, packages/app, src/a/b, packages/app/src.
  expect(cache.counts).toEqual({ reused: 0, listed: 10 });
  const second = await findGitEntries(root, false, undefined, cache);
  expect(cache.counts).toEqual({ reused: 10, listed: 10 });
  expect(summary(second)).toEqual(summary(first));
  expect(summary(second).entries).toEqual(['docs/d/.git']);
});

test('what a command makes deep in an unchanged tree is found by the next walk, as by a fresh one', async () => {
  const cache = agedCache();
  await findGitEntries(root, false, undefined, cache);
  await nextTick();
  await mkdir(path.join(root, 'src/a/b/.git'));
  await mkdir(path.join(root, 'packages/app/.vscode'));
  await writeFile(path.join(root, 'docs/d/.tool-versions'), 'nodejs 20\n');
  await writeFile(path.join(root, 'src/c/name\u009dx'), '');
  await mkdir(path.join(root, 'src/c/bare/objects'), { recursive: true });
  await mkdir(path.join(root, 'src/c/bare/refs'));
  await writeFile(path.join(root, 'src/c/bare/HEAD'), 'ref: refs/heads/main\n');
  const walked = summary(await findGitEntries(root, false, undefined, cache));
  expect(walked).toEqual(summary(await findGitEntries(root, false, undefined, agedCache())));
  expect(walked.entries).toEqual(['src/a/b/.git', 'src/c/bare']);
  expect(walked.settings).toEqual(['packages/app/.vscode']);
  expect(walked.toolFiles).toEqual(['docs/d/.tool-versions']);
  expect(walked.controlNames).toEqual(['src/c/name\u009dx']);
  // Listed again: the four directories that changed (src/a/b, packages/app, docs/d, src/c) and
  // the four new ones (packages/app/.vscode, src/c/bare and its objects and refs); the rest kept.
  expect(cache.counts).toEqual({ reused: 6, listed: 10 + 8 });
});

test('a directory whose mtime a command set back after a change is listed again (its ctime moved)', async () => {
  const dir = path.join(root, 'src/c');
  const times = path.join(root, 'times-of-src-c');
  await writeFile(times, '');
  // touch -r copies the times to the nanosecond (utimes from Node would round them).
  execFileSync('touch', ['-r', dir, times]);
  const cache = agedCache();
  await findGitEntries(root, false, undefined, cache);
  await nextTick();
  await mkdir(path.join(dir, '.git'));
  execFileSync('touch', ['-r', times, dir]);
  expect((await lstat(dir)).mtimeMs).toBe((await lstat(times)).mtimeMs);
  expect(summary(await findGitEntries(root, false, undefined, cache)).entries).toEqual(['src/c/.git']);
});

test('a directory swapped for another at the same path is listed again', async () => {
  const cache = agedCache();
  await mkdir(path.join(root, 'other/.git'), { recursive: true });
  await findGitEntries(root, false, undefined, cache);
  await nextTick();
  await rename(path.join(root, 'src/c'), path.join(root, 'c-old'));
  await rename(path.join(root, 'other'), path.join(root, 'src/c'));
  const walked = summary(await findGitEntries(root, false, undefined, cache));
  expect(walked.entries).toEqual(['src/c/.git']);
});

test('a listed directory swapped for a link is not entered, as a fresh walk does not enter it; swapped back, it is listed again', async () => {
  const cache = agedCache();
  const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-walk-cache-out-')));
  try {
    await mkdir(path.join(outside, 'inner/.git'), { recursive: true });
    await mkdir(path.join(root, 'src/c/.git'));
    expect(summary(await findGitEntries(root, false, undefined, agedCache())).entries).toEqual(['src/c/.git']);
    const before = await findGitEntries(root, false, undefined, cache);
    await nextTick();
    await rename(path.join(root, 'src/c'), path.join(root, 'c-away'));
    await symlink(outside, path.join(root, 'src/c'));
    const linked = summary(await findGitEntries(root, false, undefined, cache));
    expect(linked).toEqual(summary(await findGitEntries(root, false, undefined, agedCache())));
    expect(linked.entries).toEqual(['c-away/.git']); // the moved folder still holds it; nothing through the link
    await rm(path.join(root, 'src/c'));
    await rename(path.join(root, 'c-away'), path.join(root, 'src/c'));
    expect(summary(await findGitEntries(root, false, undefined, cache))).toEqual(summary(before));
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});

test('node_modules is walked when asked to (`everywhere`): what was kept for the walk that skips it is not used', async () => {
  await mkdir(path.join(root, 'node_modules/x/.git'));
  const cache = agedCache();
  expect(summary(await findGitEntries(root, false, undefined, cache)).entries).toEqual([]);
  expect(summary(await findGitEntries(root, true, undefined, cache)).entries).toEqual(['node_modules/x/.git']);
});

/** The newest of each directory's ctime and mtime, for the ten directories the walk lists. */
async function dirTimes(): Promise<number[]> {
  const dirs = ['.', 'src', 'src/a', 'src/a/b', 'src/c', 'docs', 'docs/d', 'packages', 'packages/app', 'packages/app/src'];
  return Promise.all(dirs.map(async (dir) => lstat(path.join(root, dir)).then((info) => Math.max(info.ctimeMs, info.mtimeMs))));
}

test('times within a tick of the file system clock are not trusted; one past it, they are', async () => {
  // This machine's temporary directory: a local file system with nanosecond times (file-clock.ts).
  expect(onFineClockFileSystem(root)).toBe(true);
  const times = await dirTimes();
  const newest = Math.max(...times);
  // The clock 1 ms short of a tick after the newest time: that directory (and any as new) is listed again.
  const within = new WalkCache<never>({ now: () => newest + FINE_TICK_MS - 1 });
  await findGitEntries(root, false, undefined, within);
  await findGitEntries(root, false, undefined, within);
  expect(within.counts.reused).toBe(times.filter((time) => time <= newest - 1).length);
  expect(within.counts.reused).toBeLessThan(10);
  const past = new WalkCache<never>({ now: () => newest + FINE_TICK_MS });
  await findGitEntries(root, false, undefined, past);
  await findGitEntries(root, false, undefined, past);
  expect(past.counts).toEqual({ reused: 10, listed: 10 });
});

test('a whole-second ctime, or a file system of another kind, gets the long tick', async () => {
  const whole = { ctimeMs: 1_780_000_000_000 };
  const fine = { ctimeMs: 1_780_000_000_000.25 };
  expect(tickOf(fine, true)).toBe(FINE_TICK_MS);
  expect(tickOf(whole, true)).toBe(TICK_MS);
  expect(tickOf(fine, false)).toBe(TICK_MS);
  // procfs is no file system of files: not one whose times the caches may trust.
  expect(onFineClockFileSystem('/proc/self')).toBe(false);
  expect(onFineClockFileSystem(path.join(root, 'missing'))).toBe(false);
});
