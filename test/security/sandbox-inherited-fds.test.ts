/**
 * Descriptors MewCode's parent left open (a CI runner's, an editor's, a wrapper's `200<secret`)
 * must not reach a sandboxed command: through one, a command would read a file the sandbox hides,
 * or write where it may not. Through the built CLI in the default setup: the CLI inherits a
 * descriptor on a hidden credential (a single-digit one and two larger ones, the largest over 255)
 * and one on a writable file outside the project; the model's bash calls try to use them.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { skipWithoutSandbox } from '../plugins/sandbox-os/fixture.js';
import { prepareCli } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { cliSandboxDirs, resultOf, runBashCalls, sandboxStatus, type BashRun, type CliSandboxDirs } from './cli-sandbox-harness.js';

const tally = securityTally('sandbox-inherited-fds');
afterAll(() => tally.save());

const SECRET = 'INHERITED-FD-SECRET-5c1e';
const READ_FDS = [7, 42, 300];
const WRITE_FD = 57;

let dirs: CliSandboxDirs;
let run: BashRun | undefined;
let status: Awaited<ReturnType<typeof sandboxStatus>>;
let outsideLog: string;
const opened: number[] = [];

beforeAll(async () => {
  await prepareCli();
  dirs = cliSandboxDirs();
  writeFileSync(path.join(dirs.home, '.netrc'), `machine example.com password ${SECRET}\n`);
  outsideLog = path.join(dirs.outside, 'host.log');
  writeFileSync(outsideLog, 'host log\n');
  status = await sandboxStatus(dirs.home);
  if (!status.active) return;
  const inherited: Record<number, number> = {};
  for (const at of READ_FDS) opened.push((inherited[at] = openSync(path.join(dirs.home, '.netrc'), 'r')));
  opened.push((inherited[WRITE_FD] = openSync(outsideLog, 'a')));
  run = await runBashCalls(
    dirs,
    [
      ...READ_FDS.map((fd) => ({ id: `read_${fd}`, command: `cat <&${fd} 2>&1; cat /proc/self/fd/${fd} 2>&1; echo end` })),
      { id: 'write', command: `echo from-the-sandbox >&${WRITE_FD} 2>&1; echo end` },
      { id: 'listing', command: 'ls /proc/self/fd | sort -n | tr "\\n" " "' },
    ],
    {},
    inherited,
  );
}, 120_000);
afterAll(() => {
  for (const fd of opened) closeSync(fd);
  dirs?.cleanup();
});

test.each(READ_FDS)('a descriptor inherited on a hidden credential (%i) is closed before the command runs', (fd) => {
  if (skipWithoutSandbox(tally, `inherited descriptor ${fd}`, status)) return;
  const result = resultOf(run as BashRun, `read_${fd}`);
  tally.attempt(`read through inherited descriptor ${fd}`, result.includes(SECRET));
  expect(result).toContain('end');
  expect(result).not.toContain(SECRET);
});

test('a descriptor inherited on a file outside the project cannot be written through', () => {
  if (skipWithoutSandbox(tally, 'inherited writable descriptor', status)) return;
  const written = readFileSync(outsideLog, 'utf8').includes('from-the-sandbox');
  tally.attempt('write through an inherited descriptor', written);
  expect(resultOf(run as BashRun, 'write')).toContain('end');
  expect(written).toBe(false);
});

test('the command starts with stdin, stdout and stderr only', () => {
  if (skipWithoutSandbox(tally, 'descriptor listing', status)) return;
  // ls's own directory descriptor is the 3.
  expect(resultOf(run as BashRun, 'listing')).toMatch(/(^|\n)0 1 2 3\s*$/);
});
