/**
 * A small cross-process lock (`audit.lock`, created with O_CREAT|O_EXCL, which never follows a
 * link). Two MewCode processes in one project append to the same chain: each must read the head,
 * append and move the head while the other waits, or both would chain to the same record.
 *
 * A lock left by a process that died (its pid is gone, a zombie, or now another process's:
 * sdk/process-liveness.ts) or older than STALE_MS is broken. Held only for the fraction of a
 * millisecond one append takes, so a wait is short; it is synchronous like the append.
 */
import { constants, lstatSync, openSync, closeSync, unlinkSync, writeSync } from 'node:fs';
import { holderAlive, holderRecord, parseHolderRecord } from '../../sdk/process-liveness.js';
import { readNoFollow, type AuditDirectory } from './no-follow.js';

/**
 * A lock held longer than this is taken to be left over (an append takes well under a
 * millisecond); also the longest an append waits, blocking its process, for a holder that is alive
 * but stuck (stopped, swapped out).
 */
export const STALE_MS = 2_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (the append that waits is synchronous by design). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Takes the lock `name` in the directory; returns its release. */
export function acquireLock(dir: AuditDirectory, name: string): () => void {
  const lockFile = dir.at(name);
  const giveUpWaiting = Date.now() + STALE_MS;
  for (;;) {
    try {
      const fd = openSync(lockFile, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, holderRecord());
      } finally {
        closeSync(fd);
      }
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {
          // broken by another process that thought it stale: nothing to release
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (Date.now() > giveUpWaiting || isStale(dir, name)) {
      // A directory planted at the name cannot be unlinked: that error ends the attempt.
      try {
        unlinkSync(lockFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      continue;
    }
    sleepSync(1 + Math.floor(Math.random() * 4));
  }
}

function isStale(dir: AuditDirectory, name: string): boolean {
  try {
    const info = lstatSync(dir.at(name));
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const holder = parseHolderRecord(readNoFollow(dir, name) ?? '');
    if (holder === undefined) return false; // being written right now
    return !holderAlive(holder.pid, holder.startTime);
  } catch (error) {
    // Vanished between the attempts (free now), or not a file we can read: a link or a
    // directory planted at the name would never go away, so treat it as stale and remove it.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
