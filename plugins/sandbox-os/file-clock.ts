/**
 * File times come from a coarse clock: a change made in the same tick as the time last seen can
 * leave that time as it was. What is kept while a file's or directory's times stay the same (the
 * refs' listing, git-refs.ts; the walk's listings, walk-cache.ts) is kept only for times at least
 * one tick older than now.
 *
 * How long a tick is depends on the file system. Linux's local ones (FINE_CLOCK_TYPES) store
 * nanoseconds taken from the kernel's coarse clock, which is at most one timer interrupt behind
 * the wall clock (10 ms at the slowest rate, HZ=100): a ctime with a fraction of a second shows
 * that precision, and FINE_TICK_MS is ten such ticks. A whole-second ctime (ext3's small inodes,
 * FAT, many network file systems) or another kind of file system (NFS and FUSE take the time from
 * another machine's clock) gets TICK_MS. Only the ctime counts: a command sets an mtime at will.
 *
 * The same tick is how far before a command's start a change still counts as the command's
 * (commandSince): a change the command makes can carry a time up to a tick before the moment it
 * began. A longer allowance costs every command that follows a change within it: the sweep after
 * the command takes what changed then (a file edit, a commit's objects and refs) as the command's,
 * and checks it again, and sets aside a project setting write_file had just written as if the
 * command had planted it. So on a fine clock the allowance also ends where the last tool call
 * ended, when that was at least CLOCK_LAG_MS before the command: what changed before is that
 * call's (or the user's), and what the command changes carries a time after it.
 */
import { lstatSync, statfsSync, type Stats } from 'node:fs';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { toBytes } from './byte-names.js';

/** A tick where times may be whole seconds or come from another clock. */
export const TICK_MS = 2_500;
/** A tick on a local file system whose times have a fraction of a second. */
export const FINE_TICK_MS = 100;
/** How far the kernel's coarse clock can lag the wall clock, with a margin: two intervals of the slowest timer (HZ=100). */
export const CLOCK_LAG_MS = 20;

/** statfs `f_type` of Linux's local file systems with nanosecond times: ext2/3/4, xfs, btrfs, tmpfs, overlayfs, zfs, f2fs. */
export const FINE_CLOCK_TYPES: ReadonlySet<number> = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010]);

/** Whether `file` is on one of FINE_CLOCK_TYPES (Linux only; false when it cannot be told). */
export function onFineClockFileSystem(file: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return FINE_CLOCK_TYPES.has(statfsSync(toBytes(file)).type);
  } catch {
    return false;
  }
}

/** Whether `info`'s ctime has a fraction of a second: its file system keeps finer times than seconds. */
export const showsSubsecond = (info: Pick<Stats, 'ctimeMs'>): boolean => info.ctimeMs % 1000 !== 0;

/** The tick that applies to `info`, on a file system `fineClock` (onFineClockFileSystem) or not. */
export function tickOf(info: Pick<Stats, 'ctimeMs'>, fineClock: boolean): number {
  return fineClock && showsSubsecond(info) ? FINE_TICK_MS : TICK_MS;
}

/**
 * How far before a command's start a change in `roots` still counts as the command's: the fine
 * tick only when every root has a fine clock and no file system is mounted below one (`mounts`:
 * the host's, mount-check.ts hostMounts). A command writes there too, with that file system's
 * times (a network one's come from another machine's clock).
 */
export function commandClockSlack(roots: readonly string[], mounts: readonly { mountPoint: string }[]): number {
  const fine = (root: string): boolean => {
    const info = lstatSync(toBytes(root), { throwIfNoEntry: false });
    return info !== undefined && onFineClockFileSystem(root) && showsSubsecond(info);
  };
  const mountedBelow = mounts.some(({ mountPoint }) => roots.some((root) => isPathStrictlyWithin(root, mountPoint)));
  return roots.length > 0 && !mountedBelow && roots.every(fine) ? FINE_TICK_MS : TICK_MS;
}

/**
 * From when (wall clock) a change in `roots` counts as the doing of a command starting `now`:
 * a tick before it, or just after the last tool call ended (`lastCallEndedAt`) when the roots'
 * clock is fine and that was at least CLOCK_LAG_MS before.
 */
export function commandSince(now: number, roots: readonly string[], mounts: readonly { mountPoint: string }[], lastCallEndedAt: number | undefined): number {
  const slack = commandClockSlack(roots, mounts);
  const since = now - slack;
  if (slack !== FINE_TICK_MS || lastCallEndedAt === undefined) return since;
  return Math.max(since, Math.min(lastCallEndedAt + 1, now - CLOCK_LAG_MS));
}
