/**
 * The git sweep of commands a MewCode died during (command-records.ts, sweep-recovery.ts), on real
 * git repositories and real processes: a record whose process is gone is swept as the command's
 * end would have been, reported and removed; one of a live process is left alone, one of a
 * process whose pid was reused is not; old, malformed and excess records are bounded.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineFor, claim, parseEntry, processToken, readRecord, stillRunning, writeRecord, type CommandRecord } from '../../../plugins/sandbox-os/command-records.js';
import { gitBaseline, QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';
import { MAX_RECORD_AGE_MS, MAX_SWEPT_PER_RUN, noticeWriter, recoverSweeps } from '../../../plugins/sandbox-os/sweep-recovery.js';
import { markPath, readUncheckedMark } from '../../../plugins/sandbox-os/unchecked-marks.js';

let root: string;
let dir: string;
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: root } }).toString();
const HOSTILE = '[core]\n\tfsmonitor = touch /tmp/x\n';

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-recover-')));
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-records-')));
  git(root, 'init', '-q');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** A process that has ended (and was reaped): its pid names no process. */
async function deadPid(): Promise<number> {
  const child = spawn('/bin/true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** The record a command would have left, written under `pid`/`token` (a dead process's by default). */
async function leaveRecord(fields: Partial<CommandRecord> = {}, owner?: { pid: number; token: string }, n = 1): Promise<string> {
  const baseline = await gitBaseline([root]);
  const record: CommandRecord = { version: 1, created: Date.now(), since: Date.now() - 2000, projectRoot: root, roots: [root], baseline: baselineFor(baseline, [root]), ...fields };
  const who = owner ?? { pid: await deadPid(), token: 'b0-1' };
  const name = `${who.pid}.${who.token}.${n}.json`;
  writeFileSync(path.join(dir, name), JSON.stringify(record));
  return name;
}

const plant = (sub = 'sub'): void => {
  git(root, 'init', '-q', sub);
  writeFileSync(path.join(root, sub, '.git', 'config'), HOSTILE);
};

async function recover(options: { now?: () => number; maxDirs?: number } = {}): Promise<string[]> {
  const said: string[] = [];
  await recoverSweeps(dir, async (messages) => void said.push(...messages), { showNotices: true, ...options });
  return said;
}

test('a record whose process is gone: the nested repository it planted is set aside, said, and the record removed', async () => {
  await leaveRecord();
  plant();
  const said = await recover();
  expect(existsSync(path.join(root, 'sub', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
  expect(said[0]).toContain(`MewCode ended during a sandboxed command in ${root}`);
  expect(said[1]).toContain('core.fsmonitor');
  expect(said[1]).toContain(path.join(root, 'sub', '.git', 'config'));
  expect(readdirSync(dir)).toEqual([]);
});

test("what was there before the command (in the record's baseline, unchanged) is left alone, and nothing is said", async () => {
  plant('mine');
  // Older than the command: its files' times are before `since`.
  await leaveRecord({ since: Date.now() + 1000 });
  expect(await recover()).toEqual([]);
  expect(readFileSync(path.join(root, 'mine', '.git', 'config'), 'utf8')).toBe(HOSTILE);
  expect(readdirSync(dir)).toEqual([]);
});

test('a repository moved into place during the command (old file times, not in the baseline) is judged whole', async () => {
  const stash = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-recover-stash-')));
  try {
    git(stash, 'init', '-q', 'repo');
    writeFileSync(path.join(stash, 'repo', '.git', 'config'), HOSTILE);
    const before = Date.now();
    while (Date.now() - before < 30); // its files' times are before the command's start
    await leaveRecord({ since: Date.now() - 10 });
    execFileSync('mv', [path.join(stash, 'repo'), path.join(root, 'moved')]);
    await recover();
    expect(existsSync(path.join(root, 'moved', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
  } finally {
    rmSync(stash, { recursive: true, force: true });
  }
});

test('a record of a live process is left alone; one naming a live pid with another start (pid reused) is swept', async () => {
  const own = await processToken(process.pid);
  expect(own).toBeDefined();
  const live = await leaveRecord({}, { pid: process.pid, token: own! });
  plant();
  expect(await recover()).toEqual([]);
  expect(readdirSync(dir)).toEqual([live]);
  expect(existsSync(path.join(root, 'sub', '.git', 'config'))).toBe(true);
  rmSync(path.join(dir, live));
  await leaveRecord({}, { pid: process.pid, token: own === 'b0-1' ? 'b0-2' : 'b0-1' });
  await recover();
  expect(existsSync(path.join(root, 'sub', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
  expect(readdirSync(dir)).toEqual([]);
});

test('a record made in another PID namespace (a container sharing the home) is left to a MewCode there', async () => {
  if (process.platform !== 'linux') return; // the namespace is part of Linux tokens only
  const own = (await processToken(process.pid))!;
  const [boot, ns, ticks] = own.split('-');
  const foreign = await leaveRecord({}, { pid: await deadPid(), token: `${boot}-${Number(ns) + 1}-${ticks}` });
  plant();
  expect(await recover()).toEqual([]);
  expect(readdirSync(dir)).toEqual([foreign]);
});

test('process tokens: a live process keeps its token, an ended one has none', async () => {
  const child = spawn('/bin/sleep', ['5']);
  try {
    const token = await processToken(child.pid!);
    expect(token).toBeDefined();
    expect(await stillRunning(child.pid!, token!)).toBe(true);
  } finally {
    child.kill('SIGKILL');
  }
  await new Promise((resolve) => child.once('exit', resolve));
  expect(await processToken(child.pid!)).toBeUndefined();
  expect(await processToken(await deadPid())).toBeUndefined();
});

test('a record older than the age limit is dropped unswept, with a warning naming its roots', async () => {
  await leaveRecord({ created: Date.now() - MAX_RECORD_AGE_MS - 1000 });
  plant();
  const said = await recover();
  expect(said).toHaveLength(1);
  expect(said[0]).toContain('days ago');
  expect(said[0]).toContain(root);
  expect(existsSync(path.join(root, 'sub', '.git', 'config'))).toBe(true);
  expect(readdirSync(dir)).toEqual([]);
});

test('a malformed, oversized or foreign-shaped record is dropped with a warning; names this code never makes are left alone', async () => {
  const pid = await deadPid();
  writeFileSync(path.join(dir, `${pid}.b0-1.1.json`), '{"version":1,"roots":"/"}');
  writeFileSync(path.join(dir, `${pid}.b0-1.2.json`), 'x'.repeat(1024 * 1024 + 1));
  writeFileSync(path.join(dir, 'README'), 'not ours');
  const said = await recover();
  expect(said.filter((line) => line.includes('could not be read'))).toHaveLength(2);
  expect(readdirSync(dir)).toEqual(['README']);
});

test('a root that is gone, or is now a link, is not swept', async () => {
  const elsewhere = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-recover-else-')));
  try {
    git(elsewhere, 'init', '-q', 'sub');
    writeFileSync(path.join(elsewhere, 'sub', '.git', 'config'), HOSTILE);
    const linked = path.join(dir, '..', `${path.basename(dir)}-link`);
    execFileSync('ln', ['-s', elsewhere, linked]);
    try {
      await leaveRecord({ roots: [linked, path.join(root, 'gone')] });
      expect(await recover()).toEqual([]);
      expect(existsSync(path.join(elsewhere, 'sub', '.git', 'config'))).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(linked);
    }
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('claims: a record another live process is sweeping is left to it; one whose sweeper died is taken over', async () => {
  const name = await leaveRecord();
  plant();
  const own = (await processToken(process.pid))!;
  // "Another" live sweeper: this process under its own token (claim() uses the same).
  const entry = parseEntry(name)!;
  expect(entry.kind).toBe('record');
  const claimed = await claim(dir, entry as Extract<typeof entry, { kind: 'record' }>);
  expect(path.basename(claimed!)).toBe(`${name}.${process.pid}.${own}.sweeping`);
  expect(await recover()).toEqual([]);
  expect(existsSync(path.join(root, 'sub', '.git', 'config'))).toBe(true);
  // The sweeper died mid-sweep.
  const dead = await deadPid();
  execFileSync('mv', [claimed!, path.join(dir, `${name}.${dead}.b0-1.sweeping`)]);
  await recover();
  expect(existsSync(path.join(root, 'sub', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
  expect(readdirSync(dir)).toEqual([]);
});

test('the watchdog leaves what it found as a notice; the next start says it and removes it', async () => {
  const name = await leaveRecord();
  plant();
  await recoverSweeps(dir, noticeWriter(dir), { showNotices: false });
  expect(readdirSync(dir)).toEqual([name.replace(/\.json$/, '.notice')]);
  const said = await recover();
  expect(said.join('\n')).toContain('core.fsmonitor');
  expect(readdirSync(dir)).toEqual([]);
});

test(`at most ${MAX_SWEPT_PER_RUN} records are swept in one run; the rest are said and left for the next`, async () => {
  const pid = await deadPid();
  for (let n = 1; n <= MAX_SWEPT_PER_RUN + 3; n++) await leaveRecord({}, { pid, token: 'b0-1' }, n);
  const said = await recover();
  expect(said).toEqual([expect.stringContaining('3 more records')]);
  expect(readdirSync(dir)).toHaveLength(3);
  await recover();
  expect(readdirSync(dir)).toEqual([]);
});

test('writeRecord: written whole under this process, read back, and removed by what it returns', async () => {
  const baseline = await gitBaseline([root]);
  const remove = await writeRecord(dir, { version: 1, created: 1, since: 2, projectRoot: root, roots: [root], baseline: baselineFor(baseline, [root]) });
  const [name] = readdirSync(dir);
  const entry = parseEntry(name!);
  expect(entry).toMatchObject({ kind: 'record', pid: process.pid, token: await processToken(process.pid) });
  expect(await readRecord(path.join(dir, name!))).toEqual({ version: 1, created: 1, since: 2, projectRoot: root, roots: [root], baseline: [...baseline] });
  await remove();
  expect(readdirSync(dir)).toEqual([]);
});

test('a write cut short by a death (a .tmp left) is removed once its process is gone', async () => {
  const pid = await deadPid();
  writeFileSync(path.join(dir, `${pid}.b0-1.1.json.tmp`), '{"ver');
  const own = (await processToken(process.pid))!;
  writeFileSync(path.join(dir, `${process.pid}.${own}.1.json.tmp`), '{"ver');
  expect(await recover()).toEqual([]);
  expect(readdirSync(dir)).toEqual([`${process.pid}.${own}.1.json.tmp`]);
});

describe('a recovery sweep that stops at its bound fails closed', () => {
  /** `count` directories beside the repository planted deeper, so a walk of fewer stops short of it. */
  const wideTree = (count: number): void => {
    for (let i = 0; i < count; i++) mkdirSync(path.join(root, 'wide', String(i)), { recursive: true });
    mkdirSync(path.join(root, 'deep', 'a'), { recursive: true });
    plant(path.join('deep', 'a', 'b'));
  };

  test('past the bound: a mark for the project is left, and what is said names where the check did not look and how to lift the refusal', async () => {
    await leaveRecord();
    wideTree(12);
    // The root, wide, deep, wide's 12, deep/a and the planted repository deep/a/b: 17 directories.
    const said = await recover({ maxDirs: 16 });
    const refusal = said.find((line) => line.includes('could not finish'));
    expect(refusal).toBeDefined();
    expect(refusal).toContain(markPath(dir, root));
    expect(refusal).toMatch(/unchecked_trees: true/);
    expect(refusal).toMatch(new RegExp(`${root}/(wide|deep)`));
    const found = await readUncheckedMark(dir, root);
    expect(found?.mark?.projectRoot).toBe(root);
    expect(found?.mark?.notWalked.length).toBeGreaterThan(0);
    // The record is gone; the mark stays (names this code never makes as records are left alone).
    expect(readdirSync(dir)).toEqual([path.basename(markPath(dir, root))]);
    expect(await recover({ maxDirs: 16 })).toEqual([]);
    expect(existsSync(markPath(dir, root))).toBe(true);
  });

  test('at the bound: the whole tree is walked, the planted repository is set aside, and no mark is left', async () => {
    await leaveRecord();
    wideTree(12);
    const said = await recover({ maxDirs: 17 });
    expect(said.join('\n')).toContain('core.fsmonitor');
    expect(said.join('\n')).not.toContain('could not finish');
    expect(existsSync(markPath(dir, root))).toBe(false);
  });

  test('a mark that cannot be read as one still refuses, naming its file', async () => {
    writeFileSync(markPath(dir, root), 'not json');
    expect(await readUncheckedMark(dir, root)).toEqual({ file: markPath(dir, root) });
    expect(await readUncheckedMark(dir, path.join(root, 'elsewhere'))).toBeUndefined();
  });
});
