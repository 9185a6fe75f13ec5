/**
 * Sandboxed commands in flight, recorded on disk (`~/.mewcode/sandbox-commands/`), so that the git
 * sweep that follows a command (git-sweep.ts) still happens when MewCode dies during it (kill -9,
 * the OOM killer, a crash, a power cut): a record is written before the command starts and removed
 * once its sweep is done; one whose MewCode process is gone is swept by whoever finds it
 * (sweep-recovery.ts: the watchdog that outlives MewCode, or the next MewCode start).
 *
 * A record's name says whose it is: `<pid>.<token>.<n>.json`, the token telling that process from
 * a later one given the same pid (its start time since boot, and the boot). One being swept is
 * renamed to `<record>.<pid>.<token>.sweeping` by the process sweeping it (a rename: exactly one
 * of two finders gets it); one whose sweeper died is taken over.
 *
 * Commands cannot reach the directory: every entry of `~/.mewcode` but a few (not this one) is
 * hidden from them (credential-paths.ts), and the directory is made before the first command's
 * mounts are planned, so it is among them.
 */
import { execFile } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readFile, readlink, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import type { RecordEntry } from './record-names.js';

// The directory and its entries' names live apart, read at every start without this file.
export { listEntries, parseEntry, RECORDS_DIR, recordsDir, type RecordEntry } from './record-names.js';

/**
 * MewCode's own state directories, which the sweep never sets aside (git-sweep.ts `own`): the
 * `.mewcode` of each home the run uses (the records' parent among them) and the project's.
 */
export const ownStateDirs = (...places: string[]): string[] => [...new Set(places.map((dir) => path.join(dir, '.mewcode')))];

/** What the sweep needs to run as if the command had just ended. */
export interface CommandRecord {
  version: 1;
  /** When the record was written (ms, wall clock). */
  created: number;
  /** The sweep's `since` (ms, wall clock): changes from then on are the command's. */
  since: number;
  projectRoot: string;
  /** The writable roots (real paths). */
  roots: string[];
  /**
   * The `.git` entries below the roots before the command (path, identity), for the sweep to tell
   * new ones; at most MAX_BASELINE. An entry not listed is judged as new: whole.
   */
  baseline: [string, string][];
}

/** Entries of the baseline kept in a record (≈ 100 bytes each): more are judged as new, erring towards setting aside. */
export const MAX_BASELINE = 2_000;
/** A record file larger than this is not read (a full baseline is ≈ 250 KiB). */
export const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * A token that tells process `pid` from any other that had or will have the same pid: on Linux
 * the boot's id, the PID namespace the pid is seen in, and the process's start time in clock
 * ticks since boot (/proc/<pid>/stat field 22); elsewhere its start time in whole seconds (`ps -o
 * lstart`, only for another process; ours from the clock). undefined: no such process, or one
 * that has ended (a zombie).
 */
export async function processToken(pid: number): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, the fields after the last `)` do not.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
      const ticks = fields[19];
      if (!ticks || !/^\d+$/.test(ticks)) return undefined;
      return `${await bootId()}-${await pidNamespace()}-${ticks}`;
    } catch {
      return undefined;
    }
  }
  if (pid === process.pid) return `w${Math.round(Date.now() / 1000 - process.uptime())}`;
  return new Promise((resolve) => {
    execFile('/bin/ps', ['-o', 'lstart=', '-p', String(pid)], { env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' }, timeout: 5000 }, (error, stdout) => {
      const started = error ? NaN : Date.parse(stdout.trim());
      resolve(Number.isFinite(started) ? `w${Math.round(started / 1000)}` : undefined);
    });
  });
}

let boot: Promise<string> | undefined;
/** The first 8 hex digits of this boot's id: after a reboot, pids and start ticks begin again. */
function bootId(): Promise<string> {
  boot ??= readFile('/proc/sys/kernel/random/boot_id', 'latin1').then(
    (id) => id.replace(/[^0-9a-f]/g, '').slice(0, 8) || 'noboot',
    () => 'noboot',
  );
  return boot;
}

let namespace: Promise<string> | undefined;
/**
 * This process's PID namespace (its inode): a MewCode in a container sharing the home sees other
 * pids, so its records cannot be judged from here.
 */
function pidNamespace(): Promise<string> {
  namespace ??= readlink('/proc/self/ns/pid').then(
    (link) => /\[(\d+)\]/.exec(link)?.[1] ?? 'nons',
    () => 'nons',
  );
  return namespace;
}

/**
 * Whether the process a record names is still the one that wrote it. A record made in another
 * PID namespace (a container sharing the home) is taken as running: its pid means another process
 * here, and a MewCode in that namespace sweeps it.
 */
export async function stillRunning(pid: number, token: string): Promise<boolean> {
  const linux = /^[0-9a-z]+-(\w+)-\d+$/.exec(token);
  if (process.platform === 'linux' && linux && linux[1] !== (await pidNamespace())) return true;
  const now = await processToken(pid);
  if (now === undefined) return false;
  if (now === token) return true;
  // `ps` gives whole seconds: a token taken from our own clock may differ from it by a second or two.
  if (token.startsWith('w') && now.startsWith('w')) return Math.abs(Number(token.slice(1)) - Number(now.slice(1))) <= 2;
  return false;
}

let ownToken: Promise<string | undefined> | undefined;
const selfToken = (): Promise<string | undefined> => (ownToken ??= processToken(process.pid));

let sequence = 0;

/**
 * Writes a command's record before it starts; the returned function removes it once its sweep is
 * done. Written to a temporary name and renamed, so a reader never sees half a record; with
 * synchronous calls (≈ 0.03 ms, where four trips through the thread pool take several times
 * that, more on a busy machine). Not flushed to disk before the command starts (a few ms per
 * command): MewCode dying leaves the file in the page cache, and the flush started at once covers
 * a power cut.
 */
export async function writeRecord(dir: string, record: CommandRecord): Promise<() => Promise<void>> {
  const token = await selfToken();
  if (token === undefined) throw new Error('the process start time is unknown');
  const file = path.join(dir, `${process.pid}.${token}.${++sequence}.json`);
  const partial = `${file}.tmp`;
  writeFileSync(partial, JSON.stringify(record), { flag: 'wx', mode: 0o600 });
  renameSync(partial, file);
  void flush(file);
  return async () => rmSync(file, { force: true });
}

/** The record's contents and its name in the directory, on disk (best effort). */
async function flush(file: string): Promise<void> {
  for (const target of [file, path.dirname(file)]) {
    try {
      const handle = await open(target, 'r');
      await handle.sync().finally(() => handle.close());
    } catch {
      // removed already (a quick command), or a file system without fsync
    }
  }
}

/**
 * The directory, made private if missing; this process's token (three reads of /proc) is read
 * beside it, or the first record would wait for them behind the first command's other file work.
 */
export async function ensureRecordsDir(dir: string): Promise<void> {
  void selfToken();
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * A record read back, checked: anything malformed is undefined (dropped by the caller). Only
 * roots that are absolute, and baseline entries inside them, are kept.
 */
export async function readRecord(file: string): Promise<CommandRecord | undefined> {
  try {
    if ((await stat(file)).size > MAX_RECORD_BYTES) return undefined;
    const data = JSON.parse(await readFile(file, 'utf8')) as Partial<CommandRecord>;
    if (data.version !== 1 || !Number.isFinite(data.created) || !Number.isFinite(data.since) || typeof data.projectRoot !== 'string') return undefined;
    if (!Array.isArray(data.roots) || data.roots.length > 64 || !data.roots.every((root) => typeof root === 'string' && path.isAbsolute(root))) return undefined;
    if (!Array.isArray(data.baseline)) return undefined;
    const roots = data.roots;
    const baseline = data.baseline
      .slice(0, MAX_BASELINE)
      .filter((entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string' && roots.some((root) => isPathWithin(root, entry[0])));
    return { version: 1, created: data.created!, since: data.since!, projectRoot: data.projectRoot, roots, baseline };
  } catch {
    return undefined;
  }
}

/** The baseline entries below `roots`, at most MAX_BASELINE. */
export function baselineFor(baseline: ReadonlyMap<string, string>, roots: readonly string[]): [string, string][] {
  const entries: [string, string][] = [];
  for (const [file, id] of baseline) {
    if (entries.length === MAX_BASELINE) break;
    if (roots.some((root) => isPathWithin(root, file))) entries.push([file, id]);
  }
  return entries;
}

/**
 * Takes a record (or a dead sweeper's claim on one) for this process to sweep: renamed to carry
 * our pid and token. undefined: another process took it first.
 */
export async function claim(dir: string, entry: Extract<RecordEntry, { kind: 'record' | 'sweeping' }>): Promise<string | undefined> {
  const token = await selfToken();
  if (token === undefined) return undefined;
  const record = entry.kind === 'record' ? entry.name : entry.record;
  const claimed = path.join(dir, `${record}.${process.pid}.${token}.sweeping`);
  try {
    await rename(path.join(dir, entry.name), claimed);
    return claimed;
  } catch {
    return undefined;
  }
}
