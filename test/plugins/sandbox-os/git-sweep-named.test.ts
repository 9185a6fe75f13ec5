/**
 * The check after a sandboxed command (git-sweep.ts) on what an existing nested repository's git
 * configuration names inside the project: a file it includes, the hooks directory core.hooksPath
 * names (the user's global one too, taken from each work tree), a program such as a clean filter.
 * Changed by the command in a way that runs something: set aside; older, or changed harmlessly: left.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitBaseline, sweepGitDirs } from '../../../plugins/sandbox-os/git-sweep.js';

let base: string;
let root: string;
let home: string;
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' } }).toString();
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-named-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  git(root, 'init', '-q');
  git(root, 'init', '-q', 'vendor');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** Lets file times move past what came before, runs `act` (the "command"), sweeps against `baseline`. */
async function sweepAfter(baseline: Awaited<ReturnType<typeof gitBaseline>>, act: () => void): Promise<string[]> {
  const before = Date.now();
  while (Date.now() - before < 30);
  const since = Date.now() - 20;
  act();
  const { quarantined } = await sweepGitDirs([root], since, baseline, undefined, undefined, [], { homeDir: home });
  return quarantined.map((q) => path.relative(root, q.path));
}

/** Takes the baseline, then sweepAfter. */
const around = async (act: () => void): Promise<string[]> => sweepAfter(await gitBaseline([root]), act);

const vendor = (...parts: string[]): string => path.join(root, 'vendor', ...parts);
const HOSTILE = '[core]\n\tfsmonitor = touch /tmp/x\n';

describe('a file the nested repository includes (../../team.gitconfig)', () => {
  beforeEach(() => {
    writeFileSync(path.join(root, 'team.gitconfig'), '[pull]\n\trebase = true\n');
    git(vendor(), 'config', 'include.path', '../../team.gitconfig');
  });

  test('given an fsmonitor by the command: set aside', async () => {
    expect(await around(() => writeFileSync(path.join(root, 'team.gitconfig'), HOSTILE))).toEqual(['team.gitconfig']);
  });

  test('changed to keys that run nothing: left', async () => {
    expect(await around(() => writeFileSync(path.join(root, 'team.gitconfig'), '[pull]\n\trebase = false\n'))).toEqual([]);
  });

  test('naming a program already, not changed by the command: left (it was the user\'s)', async () => {
    writeFileSync(path.join(root, 'team.gitconfig'), '[core]\n\tpager = less -R\n');
    expect(await around(() => writeFileSync(path.join(root, 'other.txt'), 'x\n'))).toEqual([]);
  });
});

test("a hook made in the hooks directory the nested repository's core.hooksPath names: set aside", async () => {
  mkdirSync(vendor('githooks'));
  git(vendor(), 'config', 'core.hooksPath', 'githooks');
  expect(await around(() => writeFileSync(vendor('githooks', 'pre-commit'), '#!/bin/sh\ntouch /tmp/x\n', { mode: 0o755 }))).toEqual(['vendor/githooks/pre-commit']);
});

test("the user's global core.hooksPath, relative: a hook made in the nested repository's own .githooks is set aside", async () => {
  writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
  expect(
    await around(() => {
      mkdirSync(vendor('.githooks'));
      writeFileSync(vendor('.githooks', 'post-checkout'), '#!/bin/sh\ntouch /tmp/x\n', { mode: 0o755 });
    }),
  ).toEqual(['vendor/.githooks/post-checkout']);
});

describe("a clean filter's program the nested repository names by a path (./tools/clean.sh)", () => {
  beforeEach(() => {
    mkdirSync(vendor('tools'));
    writeFileSync(vendor('tools', 'clean.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 });
    git(vendor(), 'config', 'filter.tidy.clean', './tools/clean.sh');
  });

  test('rewritten by the command: set aside', async () => {
    expect(await around(() => writeFileSync(vendor('tools', 'clean.sh'), '#!/bin/sh\ntouch /tmp/x\ncat\n'))).toEqual(['vendor/tools/clean.sh']);
    expect(existsSync(vendor('tools', 'clean.sh'))).toBe(false);
  });

  test('not touched: left', async () => {
    expect(await around(() => writeFileSync(vendor('data.txt'), 'two\n'))).toEqual([]);
    expect(existsSync(vendor('tools', 'clean.sh'))).toBe(true);
  });

  test('saved between two commands by renaming a new file over it (an editor, write_file): left; its folder renamed in during one: set aside', async () => {
    const baseline = await gitBaseline([root], { homeDir: home });
    writeFileSync(vendor('tools', 'clean.new'), '#!/bin/sh\ncat\n', { mode: 0o755 });
    renameSync(vendor('tools', 'clean.new'), vendor('tools', 'clean.sh'));
    mkdirSync(path.join(root, 'stash'));
    writeFileSync(path.join(root, 'stash', 'clean.sh'), '#!/bin/sh\ntouch /tmp/x\ncat\n', { mode: 0o755 });
    expect(await sweepAfter(baseline, () => writeFileSync(vendor('data.txt'), 'two\n'))).toEqual([]);
    expect(
      await sweepAfter(baseline, () => {
        renameSync(vendor('tools'), path.join(root, 'old-tools'));
        renameSync(path.join(root, 'stash'), vendor('tools'));
      }),
    ).toEqual(['vendor/tools/clean.sh']);
  });
});

test("the project's own repository is not judged here (its named files are read-only mounts): a file its config includes is left", async () => {
  writeFileSync(path.join(root, 'own.gitconfig'), '[pull]\n\trebase = true\n');
  git(root, 'config', 'include.path', '../own.gitconfig');
  expect(await around(() => writeFileSync(path.join(root, 'own.gitconfig'), HOSTILE))).toEqual([]);
});
