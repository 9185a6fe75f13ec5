/**
 * Where the records of commands in flight live and what their names say (command-records.ts
 * writes them, sweep-recovery.ts sweeps them). Apart from both because every start reads the
 * directory (the plugin's start(), almost always of nothing), and only a record found there
 * loads the sweep's code.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export const RECORDS_DIR = path.join('.mewcode', 'sandbox-commands');

export const recordsDir = (homeDir: string): string => path.join(homeDir, RECORDS_DIR);

/** `<pid>.<token>.<n>.json`, and the same followed by the sweeper's `.<pid>.<token>.sweeping`. */
const RECORD = /^(\d+)\.([a-z0-9_-]+)\.(\d+)\.json$/;
const SWEEPING = /^(\d+\.[a-z0-9_-]+\.\d+\.json)\.(\d+)\.([a-z0-9_-]+)\.sweeping$/;
const PARTIAL = /^(\d+)\.([a-z0-9_-]+)\.(\d+)\.json\.tmp$/;
/** What a sweep found for a record, left by a process with no user to tell (the watchdog): said at the next start. */
const NOTICE = /^\d+\.[a-z0-9_-]+\.\d+\.notice$/;

export type RecordEntry =
  | { kind: 'record'; name: string; pid: number; token: string }
  | { kind: 'sweeping'; name: string; record: string; pid: number; token: string }
  | { kind: 'partial'; name: string; pid: number; token: string }
  | { kind: 'notice'; name: string };

/** What a directory entry is; undefined for a name command-records.ts never makes (left alone). */
export function parseEntry(name: string): RecordEntry | undefined {
  let m = RECORD.exec(name);
  if (m) return { kind: 'record', name, pid: Number(m[1]), token: m[2]! };
  m = SWEEPING.exec(name);
  if (m) return { kind: 'sweeping', name, record: m[1]!, pid: Number(m[2]), token: m[3]! };
  m = PARTIAL.exec(name);
  if (m) return { kind: 'partial', name, pid: Number(m[1]), token: m[2]! };
  if (NOTICE.test(name)) return { kind: 'notice', name };
  return undefined;
}

/** The directory's entries command-records.ts makes (none when it does not exist). */
export async function listEntries(dir: string): Promise<RecordEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names.map(parseEntry).filter((entry): entry is RecordEntry => entry !== undefined);
}
