/**
 * The sweep walks at most MAX_SWEEP_DIRS directories per root after each command. At the bound
 * it walks all of them; past it, what it did not read is named, and — since a command there could
 * have left a git directory that runs a program at the user's next git command — no later
 * sandboxed command runs in the session unless the user's settings say `unchecked_trees: true`.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { recordsDir } from '../../../plugins/sandbox-os/command-records.js';
import { findGitEntries } from '../../../plugins/sandbox-os/git-walk.js';
import { writeUncheckedMark } from '../../../plugins/sandbox-os/unchecked-marks.js';
import { sandboxFixture, skipWithoutSandbox } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };

test('the walk reads every directory up to its bound, and names what it did not read past it', async () => {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-bound-')));
  for (let i = 0; i < 4; i++) await mkdir(path.join(root, `d${i}`, 'inner'), { recursive: true });
  const total = 1 + 4 + 4; // the root, d0..d3, each one's inner
  const atBound = await findGitEntries(root, false, total);
  expect({ truncated: atBound.truncated, notWalked: atBound.notWalked }).toEqual({ truncated: false, notWalked: [] });
  const past = await findGitEntries(root, false, total - 1);
  expect(past.truncated).toBe(true);
  expect(past.notWalked).toHaveLength(1);
  expect(past.notWalked[0]).toMatch(/\/d\d\/inner$/);
});

const WIDE = (canary: string): string =>
  `mkdir -p wide && (cd wide && seq 0 40 | xargs mkdir) && mkdir -p deep/a/b && git init -q deep/a/b && printf '\\tfsmonitor = "touch ${canary}; false"\\n' >> deep/a/b/.git/config`;

test('past the bound: the warning names where it did not look, and the next command is refused', async () => {
  const fixture = await sandboxFixture({ maxSweepDirs: 30 });
  if (skipWithoutSandbox(tally, 'sweep bound', fixture.status)) return;
  const canary = path.join(fixture.outside, 'planted-ran');
  await fixture.run(WIDE(canary));
  const warning = fixture.warnings.find((w) => w.includes('stopped at'));
  expect(warning).toMatch(/Sandboxed commands are refused from now on/);
  expect(warning).toMatch(/unchecked_trees: true/);
  const next = await fixture.run('echo still-here');
  expect(next.isError).toBe(true);
  expect(String(next.content)).toMatch(/stopped at/);
  expect(String(next.content)).not.toContain('still-here');
  expect(existsSync(canary)).toBe(false);
});

test('with `sandbox.unchecked_trees: true` in the user settings: warned once, commands keep running', async () => {
  const fixture = await sandboxFixture({ maxSweepDirs: 30, sandboxYaml: '\n  unchecked_trees: true' });
  if (skipWithoutSandbox(tally, 'sweep bound', fixture.status)) return;
  await fixture.run(WIDE(path.join(fixture.outside, 'planted-ran')));
  expect(fixture.warnings.filter((w) => w.includes('too large to check'))).toHaveLength(1);
  const next = await fixture.run('echo still-here');
  expect(String(next.content)).toContain('still-here');
});

describe('a mark left by a recovery sweep that could not finish (unchecked-marks.ts)', () => {
  test("refuses sandboxed commands in that project, naming the mark's file and where the check did not look", async () => {
    const fixture = await sandboxFixture();
    if (skipWithoutSandbox(tally, 'sweep bound', fixture.status)) return;
    await mkdir(recordsDir(fixture.home), { recursive: true });
    const file = await writeUncheckedMark(recordsDir(fixture.home), { projectRoot: fixture.root, since: Date.now() - 5000, notWalked: [path.join(fixture.root, 'wide')] });
    const first = await fixture.run('echo still-here');
    expect(first.isError).toBe(true);
    expect(String(first.content)).not.toContain('still-here');
    expect(String(first.content)).toContain(file);
    expect(String(first.content)).toContain(path.join(fixture.root, 'wide'));
    // The user looked and removed it: commands run again (read once per process, so a new session).
    await rm(file);
    const next = await sandboxFixture();
    await mkdir(recordsDir(next.home), { recursive: true });
    expect(String((await next.run('echo still-here')).content)).toContain('still-here');
  });

  test('a mark left for a folder holding the project (a session started in a subfolder) refuses there too', async () => {
    const fixture = await sandboxFixture();
    if (skipWithoutSandbox(tally, 'sweep bound', fixture.status)) return;
    await mkdir(recordsDir(fixture.home), { recursive: true });
    const file = await writeUncheckedMark(recordsDir(fixture.home), { projectRoot: path.dirname(fixture.root), since: Date.now() - 5000, notWalked: [] });
    const first = await fixture.run('echo still-here');
    expect(first.isError).toBe(true);
    expect(String(first.content)).toContain(file);
  });

  test('with `sandbox.unchecked_trees: true`: said once, and commands run', async () => {
    const fixture = await sandboxFixture({ sandboxYaml: '\n  unchecked_trees: true' });
    if (skipWithoutSandbox(tally, 'sweep bound', fixture.status)) return;
    await mkdir(recordsDir(fixture.home), { recursive: true });
    await writeUncheckedMark(recordsDir(fixture.home), { projectRoot: fixture.root, since: Date.now() - 5000, notWalked: [] });
    expect(String((await fixture.run('echo one')).content)).toContain('one');
    expect(String((await fixture.run('echo two')).content)).toContain('two');
    expect(fixture.warnings.filter((w) => w.includes('would be refused'))).toHaveLength(1);
  });
});
