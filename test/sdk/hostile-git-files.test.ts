/**
 * Files of git's own that a repository (an archive with its `.git`, or a `.git` file pointing
 * anywhere) controls, read by the search tools and the trust check: a FIFO, a link to
 * `/dev/zero`, a file larger than any real one. None may block the process (a blocked main thread
 * ignores SIGTERM and Ctrl-C) or fill its memory; such a file's rules are skipped. Run in a child
 * process with a deadline, on the built library, so a regression fails instead of hanging the suite.
 */
import { afterEach, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../cli/helpers.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';
import { MAX_SMALL_FILE_BYTES } from '../../types/small-file.js';

afterEach(removeTempDirs);

/** A repository at `root` whose `.git/<file>` is made by `plant`. */
function repository(file: string, plant: (at: string) => void): string {
  const root = temp('mewcode-hostile-git-');
  mkdirSync(path.join(root, '.git', 'info'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  rmSync(path.join(root, '.git', file), { force: true });
  plant(path.join(root, '.git', file));
  return root;
}

/** excludeText (what grep and glob read) in a child that must finish within 20 s. */
function excludeTextInChild(root: string): { status: number | null; stdout: string; timedOut: boolean } {
  const script = `import(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'sdk.js'))}).then((m) => process.stdout.write(JSON.stringify(m.excludeText(${JSON.stringify(root)}) ?? null)))`;
  const child = spawnSync(process.execPath, ['--max-old-space-size=256', '-e', script], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' });
  return { status: child.status, stdout: child.stdout, timedOut: child.signal === 'SIGKILL' };
}

const fifo = (at: string): void => {
  const made = spawnSync('mkfifo', [at]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
};

test.each([
  ['a FIFO', fifo],
  ['a link to /dev/zero', (at: string) => symlinkSync('/dev/zero', at)],
  ['a file larger than any ignore file', (at: string) => writeFileSync(at, Buffer.alloc(MAX_SMALL_FILE_BYTES + 1, 0x61))],
])('.git/info/exclude as %s: read in no time, its rules skipped', (_what, plant) => {
  const root = repository('info/exclude', plant);
  expect(excludeTextInChild(root)).toEqual({ status: 0, stdout: 'null', timedOut: false });
});

test('a real .git/info/exclude is still read', () => {
  const root = repository('info/exclude', (at) => writeFileSync(at, '*.log\n'));
  expect(excludeTextInChild(root)).toEqual({ status: 0, stdout: JSON.stringify('*.log\n'), timedOut: false });
});

test('a .git file whose commondir is a FIFO: read in no time', () => {
  const root = temp('mewcode-hostile-git-');
  const gitDir = path.join(root, 'elsewhere');
  mkdirSync(gitDir);
  fifo(path.join(gitDir, 'commondir'));
  writeFileSync(path.join(root, '.git'), `gitdir: ${gitDir}\n`);
  const seen = excludeTextInChild(root);
  expect(seen.timedOut).toBe(false);
  expect(seen.status).toBe(0);
});
