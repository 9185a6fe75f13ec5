/**
 * A small cross-process lock (`audit.lock`, created with O_CREAT|O_EXCL, which never follows a
 * link). Two MewCode processes in one project append to the same chain: each must read the head,
 * append and move the head while the other waits, or both would chain to the same record.
 *
 * A lock left by a process that died (its pid is gone) or older than STALE_MS is broken. Held
 * only for the few milliseconds of one batch of appends, so a wait is short.
 */
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { readNoFollow, type AuditDirectory } from './no-follow.js';

/** A lock older than this is taken to be left over (a batch takes milliseconds). */
export const STALE_MS = 10_000;

/** Takes the lock `name` in the directory; resolves to its release. */
export async function acquireLock(dir: AuditDirectory, name: string): Promise<() => Promise<void>> {
  const lockFile = dir.at(name);
  const giveUpWaiting = Date.now() + STALE_MS;
  for (;;) {
    try {
      const handle = await open(lockFile, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return () => unlink(lockFile).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (Date.now() > giveUpWaiting || (await isStale(dir, name))) {
      // A directory planted at the name cannot be unlinked: that error ends the attempt.
      await unlink(lockFile).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      continue;
    }
    await delay(5 + Math.floor(Math.random() * 10));
  }
}

async function isStale(dir: AuditDirectory, name: string): Promise<boolean> {
  try {
    const info = await lstat(dir.at(name));
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const pid = Number.parseInt((await readNoFollow(dir, name)) ?? '', 10);
    if (!Number.isSafeInteger(pid) || pid <= 0) return false; // being written right now
    return !processExists(pid);
  } catch (error) {
    // Vanished between the attempts (free now), or not a file we can read: a link or a
    // directory planted at the name would never go away, so treat it as stale and remove it.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
