/** replaced-files.ts on real folders: a file mounted over that is replaced, removed, or whose folder moves, is reported once; other changes are not. */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mountedOver, watchReplaced } from '../../../plugins/sandbox-os/replaced-files.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-replaced-')));
  mkdirSync(path.join(base, 'cfg'));
  writeFileSync(path.join(base, 'cfg', 'secret'), 'a\n');
  writeFileSync(path.join(base, 'cfg', 'other'), 'b\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** What the watch reports within 500 ms of `act`. */
async function reported(act: () => void): Promise<string[]> {
  const seen: string[] = [];
  const watch = watchReplaced([path.join(base, 'cfg', 'secret'), path.join(base, 'missing')], [], (file) => seen.push(file));
  await new Promise((resolve) => setTimeout(resolve, 50)); // the watches are set once the command has started
  act();
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch.close();
  return seen;
}

test('a file renamed over the one mounted over', async () => {
  expect(await reported(() => {
    writeFileSync(path.join(base, 'cfg', 'secret.tmp'), 'new\n');
    renameSync(path.join(base, 'cfg', 'secret.tmp'), path.join(base, 'cfg', 'secret'));
  })).toEqual([path.join(base, 'cfg', 'secret')]);
});

test('the file removed (and made again)', async () => {
  expect(await reported(() => {
    unlinkSync(path.join(base, 'cfg', 'secret'));
    writeFileSync(path.join(base, 'cfg', 'secret'), 'again\n');
  })).toEqual([path.join(base, 'cfg', 'secret')]);
});

test('its folder moved away and made again', async () => {
  expect(await reported(() => {
    renameSync(path.join(base, 'cfg'), path.join(base, 'cfg.old'));
    mkdirSync(path.join(base, 'cfg'));
    writeFileSync(path.join(base, 'cfg', 'secret'), 'new\n');
  })).toEqual([path.join(base, 'cfg')]);
});

test('not: the file written in place (its mount stays), another file replaced', async () => {
  expect(await reported(() => {
    writeFileSync(path.join(base, 'cfg', 'secret'), 'appended\n', { flag: 'a' });
    writeFileSync(path.join(base, 'cfg', 'other.tmp'), 'c\n');
    renameSync(path.join(base, 'cfg', 'other.tmp'), path.join(base, 'cfg', 'other'));
  })).toEqual([]);
});

test('a folder further up the way moved away and made again', async () => {
  mkdirSync(path.join(base, 'top', 'cfg'), { recursive: true });
  writeFileSync(path.join(base, 'top', 'cfg', 'secret'), 'a\n');
  const seen: string[] = [];
  const watch = watchReplaced([path.join(base, 'top', 'cfg', 'secret')], [], (file) => seen.push(file));
  await new Promise((resolve) => setTimeout(resolve, 50));
  renameSync(path.join(base, 'top'), path.join(base, 'top.old'));
  mkdirSync(path.join(base, 'top', 'cfg'), { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch.close();
  expect(seen).toEqual([path.join(base, 'top')]);
});

test('what a plan mounts over: protected and hidden paths (MewCode\'s own hidden files too), not the mount points of missing names', () => {
  const plan = { writable: ['/p'], pinned: [], readOnly: ['/p/.git/config', '/p/.mewcode'], blocked: ['/p/.vscode'], hiddenDirs: ['/h/.ssh'], hiddenFiles: ['/h/.netrc', '/h/.mewcode/mcp-oauth.json'] };
  expect(mountedOver(plan)).toEqual(['/p/.git/config', '/p/.mewcode', '/h/.netrc', '/h/.mewcode/mcp-oauth.json', '/h/.ssh']);
});

test('inside a writable root only the names themselves: the command may rename the folders holding them (a hidden .env moves along with its mount)', async () => {
  mkdirSync(path.join(base, 'proj', 'apps', 'web'), { recursive: true });
  writeFileSync(path.join(base, 'proj', 'apps', 'web', '.env'), 'SECRET=1\n');
  const seen: string[] = [];
  const watch = watchReplaced([path.join(base, 'proj', 'apps', 'web', '.env')], [path.join(base, 'proj')], (file) => seen.push(file));
  await new Promise((resolve) => setTimeout(resolve, 50));
  renameSync(path.join(base, 'proj', 'apps', 'web'), path.join(base, 'proj', 'apps', 'frontend'));
  await new Promise((resolve) => setTimeout(resolve, 500));
  watch.close();
  expect(seen).toEqual([]);
});

test('a file replaced after it was read but before the watches were set is found too (read again once they are)', async () => {
  const seen: string[] = [];
  const watch = watchReplaced([path.join(base, 'cfg', 'secret')], [], (file) => seen.push(file));
  unlinkSync(path.join(base, 'cfg', 'secret'));
  writeFileSync(path.join(base, 'cfg', 'secret'), 'made again, maybe with the same inode number\n');
  await new Promise((resolve) => setTimeout(resolve, 200));
  watch.close();
  expect(seen).toEqual([path.join(base, 'cfg', 'secret')]);
});
