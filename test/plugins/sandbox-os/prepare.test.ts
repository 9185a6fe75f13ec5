/**
 * prepare(): the probe, the project's git baseline, the repository's refs and the session's
 * directory made or read while the model is still answering, so the first command does not walk
 * the tree, start git or make them. It must not weaken the check after a command: a
 * git directory the first command plants is still set aside, and what was there before is not.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { TICK_MS } from '../../../plugins/sandbox-os/file-clock.js';
import { sandboxFixture, type SandboxFixture } from './fixture.js';

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
  await new Promise((resolve) => setTimeout(resolve, 2300)); // older than the sweep's allowance for coarse file times
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
  const project = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-prepare-refs-')));
  const bin = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-prepare-bin-')));
  const calls = path.join(bin, 'calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  // Every git the sandbox starts, logged, then run.
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
  const git = (...args: string[]): string => execFileSync(realGit, ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: project, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'a');
  await new Promise((resolve) => setTimeout(resolve, TICK_MS + 200)); // a listing is kept only for refs older than this
  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${savedPath}`;
  const sandbox = new OsCommandSandbox({ homeDir: fixture.home, warn: () => undefined });
  const logged = (): string => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');
  try {
    await sandbox.prepare(project);
    expect(logged()).toMatch(/for-each-ref/);
    rmSync(calls, { force: true });
    const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', 'true'], cwd: project, projectRoot: project, homeDir: fixture.home });
    expect(wrapped.kind).toBe('sandboxed');
    if (wrapped.kind === 'sandboxed') await wrapped.launch.release();
    expect(logged()).not.toMatch(/for-each-ref/);
  } finally {
    process.env.PATH = savedPath;
    await sandbox.dispose();
    await rm(project, { recursive: true, force: true });
    await rm(bin, { recursive: true, force: true });
  }
});
