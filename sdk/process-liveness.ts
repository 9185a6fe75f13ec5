/**
 * Whether the process that wrote a lock still holds it. `kill -0` alone is not enough: a holder
 * killed while its parent never reaps it stays a zombie that still answers, and a pid is reused
 * by unrelated processes later. On Linux the holder's state and start time are read from
 * `/proc/<pid>/stat`: a zombie is dead, and a start time other than the one the lock recorded
 * means the pid now belongs to someone else. Elsewhere (macOS: no `/proc`) `kill -0` decides.
 */
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  /** One letter: R, S, D, Z (zombie), X (dead) … */
  state: string;
  /** Clock ticks after boot when the process started: with the pid, it names one process. */
  startTime: string;
}

/** The process's state and start time; undefined when it does not exist or there is no `/proc`. */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19]; // field 22 of proc(5), counted from field 3
  return state && startTime ? { state, startTime } : undefined;
}

let ownStart: { value: string | undefined } | undefined;
/** This process's start time, for the locks it writes (undefined without `/proc`); read once. */
export function ownStartTime(): string | undefined {
  return (ownStart ??= { value: processIdentity(process.pid)?.startTime }).value;
}

let procAvailable: boolean | undefined;
function hasProc(): boolean {
  return (procAvailable ??= ownStartTime() !== undefined);
}

/**
 * Whether the holder `pid` (which recorded `startTime`, when it did) is still running. A process
 * of another user counts as alive (kill's EPERM).
 */
export function holderAlive(pid: number, startTime?: string): boolean {
  if (hasProc()) {
    const identity = processIdentity(pid);
    if (identity === undefined) return false;
    if (identity.state === 'Z' || identity.state === 'X') return false;
    return startTime === undefined || identity.startTime === startTime;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The text a lock holds: the pid, then the start time when known. */
export function holderRecord(): string {
  const start = ownStartTime();
  return start === undefined ? `${process.pid}\n` : `${process.pid}\n${start}\n`;
}

/** The pid and start time a lock's text names (the start time is absent in older locks). */
export function parseHolderRecord(text: string): { pid: number; startTime?: string } | undefined {
  const [first, second] = text.split('\n');
  const pid = Number.parseInt((first ?? '').trim(), 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const start = (second ?? '').trim();
  return /^\d+$/.test(start) ? { pid, startTime: start } : { pid };
}
