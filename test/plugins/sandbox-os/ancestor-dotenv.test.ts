/**
 * Dotenv files in the project's parent folders (ancestor-dotenv.ts), on a real file system: from
 * the project's parent up to the home (or `/`), never inside the project.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_ANCESTORS, ancestorDotenvPaths, dotenvAncestors, isDotenvName } from '../../../plugins/sandbox-os/ancestor-dotenv.js';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-ancestor-env-')));
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function files(root: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    if (name.endsWith('/')) await mkdir(path.join(root, name), { recursive: true });
    else await writeFile(path.join(root, name), 'TOKEN=x\n');
  }
}

test('the names: dotenv files, direnv files and its .direnv directory', () => {
  for (const name of ['.env', '.env.local', '.env.production', '.envrc', '.envrc.private', '.direnv']) expect(isDotenvName(name)).toBe(true);
  for (const name of ['env', '.environment', 'x.env', '.envs', '.gitignore', 'README.md']) expect(isDotenvName(name)).toBe(false);
});

test('a project under the home: each folder from its parent up to the home, nothing inside the project or above the home', async () => {
  const home = path.join(base, 'a', 'home');
  const project = path.join(home, 'work', 'client', 'app');
  await files(base, ['a/.env', 'a/.envrc']); // above the home: not looked at
  await files(home, ['.envrc', '.direnv/', 'work/.envrc', 'work/.env.local', 'work/notes.md', 'work/client/.env', 'work/client/app/.env', 'work/client/app/src/.envrc']);
  const found = (await ancestorDotenvPaths([project], home)).map((p) => path.relative(base, p)).sort();
  expect(found).toEqual(['a/home/.direnv', 'a/home/.envrc', 'a/home/work/.env.local', 'a/home/work/.envrc', 'a/home/work/client/.env']);
});

test('a project outside the home: its folders up to the root; one under another shares them once', async () => {
  const home = path.join(base, 'b', 'home');
  await files(base, ['b/srv/.envrc', 'b/srv/one/app/x', 'b/srv/two/x', 'b/.env']);
  const found = await ancestorDotenvPaths([path.join(base, 'b/srv/one/app'), path.join(base, 'b/srv/two')], home);
  expect(found.filter((p) => p.startsWith(base)).map((p) => path.relative(base, p)).sort()).toEqual(['b/.env', 'b/srv/.envrc']);
  // Every folder up to `/` was looked at (the missing fixed names of unlistable ones are left to the caller).
  expect(dotenvAncestors(path.join(base, 'b/srv/one/app'), home).at(-1)).toBe('/');
});

test(`at most ${MAX_ANCESTORS} folders above a root`, () => {
  const deep = path.join('/', ...Array.from({ length: MAX_ANCESTORS + 5 }, (_, i) => `d${i}`));
  const ancestors = dotenvAncestors(deep, '/home/u');
  expect(ancestors).toHaveLength(MAX_ANCESTORS);
  expect(ancestors[0]).toBe(path.dirname(deep));
  const shallow = path.join('/', ...Array.from({ length: MAX_ANCESTORS }, (_, i) => `d${i}`));
  expect(dotenvAncestors(shallow, '/home/u').at(-1)).toBe('/');
  // The home itself is a root: nothing above it is hidden by this rule.
  expect(dotenvAncestors('/home/u', '/home/u')).toEqual(['/home', '/']);
  expect(dotenvAncestors('/home/u/p', '/home/u')).toEqual(['/home/u']);
});

test('a folder with more entries than listed: the fixed names are tried too (a .env.* beyond the bound is not found)', async () => {
  const home = path.join(base, 'c', 'home');
  await files(home, ['work/.env', 'work/.env.local', 'work/a', 'work/b', 'work/app/x']);
  const project = path.join(home, 'work', 'app');
  const inWork = (found: string[]): string[] => found.filter((p) => path.dirname(p) === path.join(home, 'work')).map((p) => path.basename(p)).sort();
  expect(inWork(await ancestorDotenvPaths([project], home, 5))).toEqual(['.env', '.env.local']);
  expect(inWork(await ancestorDotenvPaths([project], home, 4))).toEqual(expect.arrayContaining(['.direnv', '.env', '.envrc']));
});
