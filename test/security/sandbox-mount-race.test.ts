/**
 * A path bound into the sandbox swapped for a symbolic link between MewCode's plan and
 * bubblewrap's mounts — what another sandboxed command running in the project at that moment
 * (a parallel call, a background sub-agent's) can do. bubblewrap follows the link, so without a
 * check the link's target (here a directory outside the project, as it could be the user's home)
 * would be bound read-write. The swap is made here, deterministically, between `wrap()` and the
 * launch: the command must not run, and the outside directory must stay as it was.
 */
import { afterAll, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MOUNT_CHECK_FAILED } from '../../plugins/sandbox-os/mount-check.js';
import { OUTSIDE_TEXT, SECRET, sandboxFixture, skipWithoutSandbox } from '../plugins/sandbox-os/fixture.js';
import { securityTally } from './attempts.js';

const tally = securityTally('sandbox-mount-race');
afterAll(() => tally.save());

/** Runs `command` through wrap(), with `swap` applied to the project after the plan and before bubblewrap. */
async function runSwapped(swap: ((root: string, outside: string) => () => void) | undefined, setup?: (root: string, outside: string) => void): Promise<{ status: number | null; stdout: string; stderr: string; outside: string }> {
  const fixture = await sandboxFixture();
  setup?.(fixture.root, fixture.outside);
  const canary = path.join(fixture.outside, 'canary.txt');
  const wrapped = await fixture.sandbox.wrap({ argv: ['/bin/sh', '-c', `echo PWNED >> ${canary}; echo ran`], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
  if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
  const undo = swap?.(fixture.root, fixture.outside);
  try {
    const run = spawnSync(wrapped.launch.file, wrapped.launch.args, { cwd: fixture.root, encoding: 'utf8', timeout: 20_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, outside: readFileSync(canary, 'utf8') };
  } finally {
    undo?.();
    await wrapped.launch.release();
  }
}

/** `dir` (inside the project) set aside and replaced by a relative link to the outside directory. */
function linkedAway(relative: string): (root: string, outside: string) => () => void {
  return (root, outside) => {
    const dir = path.join(root, relative);
    renameSync(dir, `${dir}.aside`);
    symlinkSync(path.relative(path.dirname(dir), outside), dir);
    return () => {
      rmSync(dir);
      renameSync(`${dir}.aside`, dir);
    };
  };
}

test('control: with nothing swapped the command runs (the check passes)', async () => {
  const probe = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', probe.status, 3)) return;
  const run = await runSwapped(undefined);
  expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: 'ran\n' });
  expect(run.stderr).toContain('Read-only file system'); // outside the project, as it should be
  expect(run.outside).toBe(OUTSIDE_TEXT);
});

test.each([
  ['the pinned .git', '.git'],
  ['a submodule git directory pinned on the way (.git/modules/y, no HEAD yet)', '.git/modules/y'],
])('%s swapped for a link to a directory outside the project before bubblewrap mounts it: nothing runs, nothing outside changes', async (_label, relative) => {
  const probe = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', probe.status)) return;
  const run = await runSwapped(linkedAway(relative), (root, outside) => {
    mkdirSync(path.join(root, relative), { recursive: true });
    // What the plan protects inside the directory exists behind the link too, so bubblewrap finds every source.
    for (const name of ['hooks', 'info', 'modules']) mkdirSync(path.join(outside, name), { recursive: true });
    for (const name of ['config', 'HEAD', 'packed-refs']) writeFileSync(path.join(outside, name), '');
  });
  const escaped = run.outside.includes('PWNED');
  tally.attempt(`mount race: ${relative} linked outside`, escaped);
  expect(escaped).toBe(false);
  expect(run.stdout).not.toContain('ran');
  expect(run.status).toBe(MOUNT_CHECK_FAILED);
  expect(run.stderr).toContain('the sandbox was not set up as planned');
});

test("a missing protected path's parent swapped for a link before its mount point is made: nothing is made outside the project, and the command does not run", async () => {
  const probe = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', probe.status)) return;
  const fixture = await sandboxFixture();
  // A submodule's git directory `.git/modules/y` (found by its HEAD) whose config is missing, so
  // the plan blocks `.git/modules/y/config` with a mount point made for the call…
  mkdirSync(path.join(fixture.root, '.git', 'modules', 'y'), { recursive: true });
  writeFileSync(path.join(fixture.root, '.git', 'modules', 'y', 'HEAD'), 'ref: refs/heads/main\n');
  // …and is a link to the outside directory by the time the mount points are made (made here, between
  // the two, in the sandbox's command part: sandbox-commands.ts, which the service loads at its first command).
  const { SandboxCommands } = await import('../../plugins/sandbox-os/sandbox-commands.js');
  const commands = SandboxCommands.prototype as unknown as { makeMountPoints: (...args: unknown[]) => Promise<unknown> };
  const original = commands.makeMountPoints;
  commands.makeMountPoints = async function (this: unknown, ...args: unknown[]) {
    linkedAway('.git/modules/y')(fixture.root, fixture.outside);
    return original.apply(this, args);
  };
  let wrapped;
  try {
    wrapped = await fixture.sandbox.wrap({ argv: ['/bin/sh', '-c', 'echo ran'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
  } finally {
    commands.makeMountPoints = original;
  }
  let ran = false;
  if (wrapped.kind === 'sandboxed') {
    ran = spawnSync(wrapped.launch.file, wrapped.launch.args, { cwd: fixture.root, encoding: 'utf8', timeout: 20_000 }).stdout.includes('ran');
    await wrapped.launch.release();
  }
  const made = ['config', 'config.worktree'].filter((name) => existsSync(path.join(fixture.outside, name)));
  tally.attempt('mount race: a mount point made through a parent swapped for a link', made.length > 0);
  expect(made).toEqual([]);
  expect(ran).toBe(false);
});

test("the private /tmp's source swapped for a link before bubblewrap mounts it: nothing runs", async () => {
  const probe = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', probe.status)) return;
  const fixture = await sandboxFixture();
  const canary = path.join(fixture.outside, 'canary.txt');
  const wrapped = await fixture.sandbox.wrap({ argv: ['/bin/sh', '-c', 'echo PWNED >> /tmp/canary.txt; echo ran'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
  if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
  const args = wrapped.launch.args;
  const privateTmp = args[args.findIndex((arg, at) => arg === '/tmp' && args[at - 2] === '--bind') - 1]!;
  renameSync(privateTmp, `${privateTmp}.aside`);
  symlinkSync(fixture.outside, privateTmp);
  try {
    const run = spawnSync(wrapped.launch.file, args, { cwd: fixture.root, encoding: 'utf8', timeout: 20_000 });
    const escaped = readFileSync(canary, 'utf8').includes('PWNED');
    tally.attempt("mount race: the private /tmp's source linked outside", escaped);
    expect(escaped).toBe(false);
    expect(run.status).toBe(MOUNT_CHECK_FAILED);
  } finally {
    rmSync(privateTmp);
    renameSync(`${privateTmp}.aside`, privateTmp);
    await wrapped.launch.release();
  }
});

test('with the sandbox\'s private files inside a directory commands may write (allow_write: the temp directory), commands are refused, naming it', async () => {
  const fixture = await sandboxFixture({ sandboxYaml: `\n  allow_write: [${JSON.stringify(os.tmpdir())}]` });
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', fixture.status)) return;
  const wrapped = await fixture.sandbox.wrap({ argv: ['/bin/sh', '-c', 'echo ran'], cwd: fixture.root, projectRoot: fixture.root, homeDir: fixture.home });
  tally.attempt('private files reachable through allow_write', wrapped.kind !== 'refused');
  expect(wrapped).toMatchObject({ kind: 'refused', message: expect.stringContaining('which commands may write') });
});

test('an allowed unix socket that is a link to a credential file is not bound (the file stays hidden)', async () => {
  const fixture = await sandboxFixture({ sandboxYaml: (dirs) => `\n  allow_unix_sockets: [${JSON.stringify(path.join(dirs.outside, 'puma.sock'))}]` });
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', fixture.status)) return;
  symlinkSync(path.join(fixture.home, '.ssh', 'id_rsa'), path.join(fixture.outside, 'puma.sock'));
  const result = await fixture.run(`cat ${path.join(fixture.home, '.ssh', 'id_rsa')}; cat ${path.join(fixture.outside, 'puma.sock')}`);
  const leaked = String(result.content).includes(SECRET);
  tally.attempt('a credential bound back as an allowed socket', leaked);
  expect(leaked).toBe(false);
});

test('an allowed unix socket "directory" that holds hidden paths (the home) is not bound (its credentials stay hidden)', async () => {
  const fixture = await sandboxFixture({ sandboxYaml: (dirs) => `\n  allow_unix_sockets: [${JSON.stringify(dirs.home)}]` });
  if (skipWithoutSandbox(tally, 'sandbox-mount-race', fixture.status)) return;
  const result = await fixture.run(`cat ${path.join(fixture.home, '.ssh', 'id_rsa')} ${path.join(fixture.home, '.aws', 'credentials')}`);
  const leaked = String(result.content).includes(SECRET);
  tally.attempt('the home bound back as an allowed socket directory', leaked);
  expect(leaked).toBe(false);
  // The command ran (the sandbox was set up, the home was left out) and met the hidden key.
  expect(String(result.content)).not.toContain('bwrap:');
  expect(String(result.content)).toContain('No such file or directory');
  expect(fixture.warnings).toEqual([expect.stringContaining(`sandbox.allow_unix_sockets: ${fixture.home} is not bound into the sandbox: it is, or holds, a path the sandbox hides`)]);
});
