/**
 * The git sweep of commands MewCode died during (command-records.ts): each record whose MewCode
 * process is gone is swept as its command's end would have been (git-sweep.ts, with the record's
 * roots, start time and baseline), what was set aside is reported, and the record is removed.
 *
 * Run by the watchdog that outlives a killed MewCode (recovery-main.ts, a few seconds after the
 * death, before the user is likely to run git there), and at every MewCode start (the sandbox
 * plugin's start(): one directory read, almost always empty), which catches what the watchdog
 * could not: the watchdog killed with MewCode (a whole cgroup killed, a power cut) or no built
 * CLI to run. Records of every project are swept, not only the started one's: the planted
 * program would run on the same machine, as the same user, at the next `git status` in that
 * project, whichever project MewCode is started in next.
 */
import { open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { claim, listEntries, ownStateDirs, readRecord, stillRunning, type RecordEntry } from './command-records.js';
import { gitHome, MAX_SWEEP_DIRS, sweepGitDirs } from './git-sweep.js';
import { quarantineWarning, uncheckedMarkRefusal, uncheckedWarning } from './sweep-report.js';
import { shownPath } from './sweep-paths.js';
import { markKey, writeUncheckedMark } from './unchecked-marks.js';

/** Records swept per run; more (only after many deaths in a row) are left for the next run, said. */
export const MAX_SWEPT_PER_RUN = 32;
/**
 * A record older than this is dropped unswept, with a warning: judging every change of weeks as
 * the command's would set aside what the user configured since, and what was planted has had its
 * chance to run.
 */
export const MAX_RECORD_AGE_MS = 14 * 24 * 3600 * 1000;
/**
 * Directories walked per root by a recovery sweep: ten times a live session's bound (≈ 5 s here).
 * Nobody waits for it but a start after a death, and a check that stops short leaves the project
 * refused (unchecked-marks.ts) until the user has looked.
 */
export const RECOVERY_SWEEP_DIRS = 10 * MAX_SWEEP_DIRS;
/** The recovery bound that goes with a live session's bound `maxSweepDirs` (tests lower it); undefined: RECOVERY_SWEEP_DIRS. */
export const recoveryDirs = (maxSweepDirs: number | undefined): number | undefined =>
  maxSweepDirs === undefined ? undefined : maxSweepDirs * (RECOVERY_SWEEP_DIRS / MAX_SWEEP_DIRS);
/** A notice larger than this is not read (it lists what one sweep set aside). */
const MAX_NOTICE_BYTES = 256 * 1024;

/**
 * Reports what the sweep of one record found: `messages` (none when it found nothing). `record`
 * is the record's file name (for a notice named after it).
 */
export type Report = (messages: string[], record: string) => Promise<void>;

/**
 * Sweeps the records in `dir` whose process is gone, and says the notices a watchdog left. Never
 * throws: a record it cannot handle is said and dropped, or left for the next run.
 */
export async function recoverSweeps(dir: string, report: Report, options: { showNotices: boolean; now?: () => number; maxDirs?: number } = { showNotices: true }): Promise<void> {
  const entries = await listEntries(dir);
  if (entries.length === 0) return;
  const now = options.now ?? Date.now;
  let swept = 0;
  let left = 0;
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      if (entry.kind === 'notice') {
        if (options.showNotices) await showNotice(dir, entry.name, report);
        continue;
      }
      if (await stillRunning(entry.pid, entry.token)) continue;
      if (entry.kind === 'partial') {
        await rm(path.join(dir, entry.name), { force: true }); // a write cut short: its command never started
        continue;
      }
      if (swept === MAX_SWEPT_PER_RUN) {
        left++;
        continue;
      }
      const claimed = await claim(dir, entry);
      if (claimed === undefined) continue; // another process took it
      swept++;
      await sweepRecord(dir, claimed, recordName(entry), now(), report, options.maxDirs ?? RECOVERY_SWEEP_DIRS);
    } catch (error) {
      await report([`sandbox-os: the check of ${entry.name} in ${dir} failed (${(error as Error).message}); it is tried again at the next start`], entry.name).catch(() => undefined);
    }
  }
  if (left > 0) await report([`sandbox-os: ${left} more records of sandboxed commands MewCode ended during are left in ${dir} for the next start`], 'more');
}

const recordName = (entry: Extract<RecordEntry, { kind: 'record' | 'sweeping' }>): string => (entry.kind === 'record' ? entry.name : entry.record);

async function sweepRecord(dir: string, claimed: string, name: string, now: number, report: Report, maxDirs: number): Promise<void> {
  const record = await readRecord(claimed);
  if (record === undefined) {
    await report([`sandbox-os: the record ${claimed} of a sandboxed command MewCode ended during could not be read; it was removed without the git check that follows a command`], name);
    await rm(claimed, { force: true });
    return;
  }
  const when = new Date(record.created).toISOString();
  const where = `in ${record.projectRoot} (started ${when})`;
  if (now - record.created > MAX_RECORD_AGE_MS) {
    await report(
      [
        `sandbox-os: MewCode ended during a sandboxed command ${where} more than ${MAX_RECORD_AGE_MS / (24 * 3600 * 1000)} days ago, and what it left was never checked; ` +
          `look for git configuration that runs programs (core.fsmonitor, hooks) in nested repositories under ${record.roots.join(', ')}`,
      ],
      name,
    );
    await rm(claimed, { force: true });
    return;
  }
  const roots = await existingRoots(record.roots);
  const messages: string[] = [];
  if (roots.length > 0) {
    // The records live in the home's .mewcode (command-records.ts): it and the project's are MewCode's own.
    const home = path.dirname(path.dirname(dir));
    const result = await sweepGitDirs(roots, record.since, new Map(record.baseline), maxDirs, undefined, ownStateDirs(home, record.projectRoot), gitHome(home));
    messages.push(...result.quarantined.map(quarantineWarning), ...result.notices.map(uncheckedWarning), ...result.unchecked.map(uncheckedWarning));
    if (result.truncated) {
      // Fails closed: the next session in the project refuses commands until the user has looked.
      const notWalked = result.notWalked.map(shownPath);
      const file = await writeUncheckedMark(dir, { projectRoot: await markKey(record.projectRoot), since: record.since, notWalked });
      messages.push(uncheckedMarkRefusal(file, notWalked));
    }
  }
  if (messages.length > 0) messages.unshift(`sandbox-os: MewCode ended during a sandboxed command ${where} before checking what it left; checked now:`);
  await report(messages, name);
  await rm(claimed, { force: true });
}

/** The roots still there as they were: a real directory at the same real path (one gone or now a link is skipped). */
async function existingRoots(roots: readonly string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const root of roots) {
    try {
      if ((await realpath(root)) === root && (await stat(root)).isDirectory()) kept.push(root);
    } catch {
      // gone: nothing there to protect
    }
  }
  return kept;
}

async function showNotice(dir: string, name: string, report: Report): Promise<void> {
  const file = path.join(dir, name);
  let messages: string[] = [];
  try {
    if ((await stat(file)).size <= MAX_NOTICE_BYTES) {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (Array.isArray(parsed)) messages = parsed.filter((line): line is string => typeof line === 'string');
    }
  } catch {
    // unreadable: dropped
  }
  await rm(file, { force: true });
  if (messages.length > 0) await report(messages, name);
}

/**
 * A Report for a process with no user to tell (the watchdog's): what a sweep found is written
 * beside the records as `<record>.notice`, and the next MewCode start says it.
 */
export function noticeWriter(dir: string): Report {
  return async (messages, record) => {
    if (messages.length === 0) return;
    const base = record.endsWith('.json') ? record.slice(0, -'.json'.length) : `${process.pid}.w0.${Date.now()}`;
    const file = path.join(dir, `${base}.notice`);
    const partial = `${file}.tmp`;
    const handle = await open(partial, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(messages));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  };
}
