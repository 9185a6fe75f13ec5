/**
 * The watchdog that outlives a killed MewCode removes the empty mount points it was told about.
 * A command still running elsewhere may swap a mount point's parent for a link by then: the
 * rmdir must stay in the planned place, never remove an empty directory the link leads to.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WATCHDOG_SCRIPT } from '../../../plugins/sandbox-os/watchdog.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(() => removeTempDirs());

/** Runs the watchdog with its stdin already closed (as after kill -9) and waits for it to end. */
function runWatchdog(base: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'mewcode-sandbox-cleanup', base], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', resolve);
    child.stdin.end();
  });
}

test('listed empty mount points are removed, a non-empty one is kept, and the session directory goes', async () => {
  const project = temp('mewcode-watchdog-project-');
  const base = temp('mewcode-watchdog-session-');
  mkdirSync(path.join(project, '.claude'));
  mkdirSync(path.join(project, 'pkg', '.mcp.json'), { recursive: true });
  mkdirSync(path.join(project, '.mewcode.yaml'));
  writeFileSync(path.join(project, '.mewcode.yaml', 'kept.txt'), 'not empty');
  const listed = [path.join(project, 'pkg', '.mcp.json'), path.join(project, '.claude'), path.join(project, '.mewcode.yaml')];
  writeFileSync(path.join(base, 'mount-points'), listed.map((p) => `${p}\n`).join(''));
  expect(await runWatchdog(base)).toBe(0);
  expect(existsSync(path.join(project, 'pkg', '.mcp.json'))).toBe(false);
  expect(existsSync(path.join(project, '.claude'))).toBe(false);
  expect(existsSync(path.join(project, '.mewcode.yaml', 'kept.txt'))).toBe(true);
  expect(existsSync(base)).toBe(false);
}, 20_000);

test("a mount point's parent swapped for a link: the empty directory the link leads to is not removed", async () => {
  const project = temp('mewcode-watchdog-project-');
  const outside = temp('mewcode-watchdog-outside-');
  const base = temp('mewcode-watchdog-session-');
  // The user's empty directory of the same name, outside the project.
  mkdirSync(path.join(outside, '.mcp.json'));
  mkdirSync(path.join(project, 'pkg', '.mcp.json'), { recursive: true });
  writeFileSync(path.join(base, 'mount-points'), `${path.join(project, 'pkg', '.mcp.json')}\n`);
  // The swap: `pkg` moved aside, a link to the outside directory in its place.
  renameSync(path.join(project, 'pkg'), path.join(project, 'pkg-moved'));
  symlinkSync(outside, path.join(project, 'pkg'));
  expect(await runWatchdog(base)).toBe(0);
  expect(existsSync(path.join(outside, '.mcp.json'))).toBe(true);
  expect(existsSync(path.join(project, 'pkg-moved', '.mcp.json'))).toBe(true);
}, 20_000);

/** Runs the watchdog with the records directory, the dead process's pid, node and a stand-in for the sweep's script. */
function runWatchdogWithSweep(base: string, records: string, pid: number, script: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'mewcode-sandbox-cleanup', base, records, String(pid), process.execPath, script], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', resolve);
    child.stdin.end();
  });
}

test("the dead process's records are handed to the sweep (node and its script); without a record of that pid, nothing is started", async () => {
  const records = temp('mewcode-watchdog-records-');
  const marker = path.join(records, '..', `${path.basename(records)}-swept`);
  const script = path.join(temp('mewcode-watchdog-script-'), 'sweep.mjs');
  writeFileSync(script, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, process.argv[2]);\n`);
  // Another process's record only: not this pid's.
  writeFileSync(path.join(records, '4242.b0-1.1.json'), '{}');
  let base = temp('mewcode-watchdog-session-');
  writeFileSync(path.join(base, 'mount-points'), '');
  expect(await runWatchdogWithSweep(base, records, 4343, script)).toBe(0);
  expect(existsSync(marker)).toBe(false);
  base = temp('mewcode-watchdog-session-');
  writeFileSync(path.join(base, 'mount-points'), '');
  expect(await runWatchdogWithSweep(base, records, 4242, script)).toBe(0);
  expect(existsSync(marker)).toBe(true);
  rmSync(marker);
}, 20_000);
