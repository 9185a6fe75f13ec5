/**
 * prepare(): the probe, the project's git baseline, the repository's refs and the session's
 * directory made or read while the model is still answering, so the first command does not walk
 * the tree, start git or make them. It must not weaken the check after a command: a
 * git directory the first command plants is still set aside, and what was there before is not.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { commandClockSlack } from '../../../plugins/sandbox-os/file-clock.js';
import { hostMounts } from '../../../plugins/sandbox-os/mount-check.js';
import { SESSION_ENDED_REFUSAL } from '../../../plugins/sandbox-os/refusal.js';
import { sandboxFixture, type SandboxFixture } from './fixture.js';
import { loggedGitRepo } from './logged-git.js';

let fixture: SandboxFixture;
beforeAll(async () => {
  fixture = await sandboxFixture();
  if (!fixture.status.active && process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error(`the OS sandbox must run here: ${fixture.status.reason}`);
});

const HOSTILE = '[core]\\n\\tfsmonitor = touch /tmp/mewcode-prepare-canary\\n';

test('after prepare(), the first command still has a planted repository set aside, and an older one is left', async () => {
  if (!fixture.status.active) return; // no sandbox here: the check after a command never runs (tallied by the security suites)
  // A nested repository of the user's, from before anything ran, with a setting that runs a program.
  mkdirSync(path.join(fixture.root, 'mine', '.git'), { recursive: true });
  writeFileSync(path.join(fixture.root, 'mine', '.git', 'config'), '[core]\n\tpager = less -R\n');
  await new Promise((resolve) => setTimeout(resolve, commandClockSlack([fixture.root], hostMounts()) + 300)); // older than the sweep's allowance for a coarse clock
  await fixture.sandbox.prepare(fixture.root);

  const result = await fixture.run(`mkdir -p planted/.git && printf '${HOSTILE}' > planted/.git/config && echo done`);
  expect(result.content).toContain('done');
  expect(existsSync(path.join(fixture.root, 'planted', '.git', 'config.quarantined-by-mewcode'))).toBe(true);
  expect(existsSync(path.join(fixture.root, 'mine', '.git', 'config'))).toBe(true);
  expect(fixture.warnings.join('\n')).toMatch(/planted\/\.git\/config/);
});

test('prepare() also makes the session directory (private /tmp, seccomp filter) the first command uses; dispose() removes it', async () => {
  if (!fixture.status.active) return; // no sandbox here: nothing is made (tallied by the security suites)
  const tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'mc-prepare-tmp-'));
  const sandbox = new OsCommandSandbox({ homeDir: fixture.home, warn: () => undefined, tmpRoot });
  try {
    await sandbox.prepare(fixture.root);
    const made = readdirSync(tmpRoot);
    expect(made).toHaveLength(1);
    const base = path.join(tmpRoot, made[0] as string);
    expect(readdirSync(base)).toEqual(expect.arrayContaining(['tmp', 'empty']));
    if (sandbox.status().mechanism === 'bubblewrap') expect(readdirSync(base).some((name) => name.endsWith('.bpf'))).toBe(true);
    const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', 'true'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
    expect(wrapped.kind).toBe('sandboxed');
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    expect(readdirSync(tmpRoot)).toEqual(made); // the command used the one prepared
    await sandbox.dispose();
    expect(existsSync(base)).toBe(false);
  } finally {
    await sandbox.dispose();
    await rm(tmpRoot, { recursive: true, force: true });
  }
});

test('dispose() while the session directory is being prepared leaves none behind; the next command makes a new one', async () => {
  if (!fixture.status.active) return; // no sandbox here: nothing is made (tallied by the security suites)
  const tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'mc-prepare-tmp-'));
  const sandbox = new OsCommandSandbox({ homeDir: fixture.home, warn: () => undefined, tmpRoot });
  try {
    // Ended before the probe is known, and ended while the directory itself is being made.
    const early = sandbox.prepare(fixture.root);
    await sandbox.dispose();
    await early;
    expect(readdirSync(tmpRoot)).toEqual([]);
    await sandbox.probe();
    const making = sandbox.prepareCommand();
    await new Promise((resolve) => setImmediate(resolve));
    await sandbox.dispose();
    await making.catch(() => undefined);
    expect(readdirSync(tmpRoot)).toEqual([]);

    const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', 'true'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
    expect(wrapped.kind).toBe('sandboxed');
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    expect(readdirSync(tmpRoot)).toHaveLength(1);
    await sandbox.dispose();
    expect(readdirSync(tmpRoot)).toEqual([]);
  } finally {
    await sandbox.dispose();
    await rm(tmpRoot, { recursive: true, force: true });
  }
});

test('a command whose session ends while its sandbox is being prepared is refused as such (not as a sandbox to check with doctor), its mount points gone', async () => {
  if (!fixture.status.active) return; // no sandbox here: nothing is prepared (tallied by the security suites)
  const tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'mc-prepare-tmp-'));
  const sandbox = new OsCommandSandbox({ homeDir: fixture.home, warn: () => undefined, tmpRoot });
  const before = readdirSync(fixture.root).sort();
  try {
    await sandbox.probe();
    const wrapping = sandbox.wrap({ argv: ['/bin/sh', '-c', 'true'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
    await new Promise((resolve) => setImmediate(resolve));
    await sandbox.dispose();
    const wrapped = await wrapping;
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    expect(wrapped).toEqual({ kind: 'refused', message: SESSION_ENDED_REFUSAL });
    expect(readdirSync(fixture.root).sort()).toEqual(before); // no empty directory left over a protected name
    expect(readdirSync(tmpRoot)).toEqual([]); // nor a session directory made for a session that may never come
  } finally {
    await sandbox.dispose();
    await rm(tmpRoot, { recursive: true, force: true });
  }
});

test("a command that leaves an interactive rebase's todo list with exec lines in the project's .git: set aside, with a warning", async () => {
  if (!fixture.status.active) return; // no sandbox here: the check after a command never runs (tallied by the security suites)
  const result = await fixture.run("mkdir -p .git/rebase-merge && printf 'pick 1234567 a\\nexec touch /tmp/mewcode-rebase-canary\\n' > .git/rebase-merge/git-rebase-todo && echo done");
  expect(result.content).toContain('done');
  expect(existsSync(path.join(fixture.root, '.git', 'rebase-merge', 'git-rebase-todo'))).toBe(false);
  expect(existsSync(path.join(fixture.root, '.git', 'rebase-merge', 'git-rebase-todo.quarantined-by-mewcode'))).toBe(true);
  expect(fixture.warnings.join('\n')).toMatch(/todo list with exec lines.*at \S*\.git\/rebase-merge\/git-rebase-todo;/);
});

test("prepare() lists the repository's refs ahead: the first command starts no git to list them again", async () => {
  if (!fixture.status.active) return; // no sandbox here: no command is reviewed (tallied by the security suites)
  const repo = await loggedGitRepo();
  const restorePath = repo.onPath();
  const sandbox = new OsCommandSandbox({ homeDir: fixture.home, warn: () => undefined });
  try {
    await sandbox.prepare(repo.project);
    expect(repo.count('for-each-ref')).toBe(1);
    repo.reset();
    const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', 'true'], cwd: repo.project, projectRoot: repo.project, homeDir: fixture.home });
    expect(wrapped.kind).toBe('sandboxed');
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    expect(repo.count('for-each-ref')).toBe(0);
  } finally {
    restorePath();
    await sandbox.dispose();
    await repo.remove();
  }
});
