/**
 * What the sweep reads from a git index (git-index.ts, or git's own listing: git-index-git.ts).
 */

/** Recent entries kept per read (git-review.ts checks each one against the work tree). */
export const MAX_RECENT = 5_000;

/** An entry's marks: git takes the file for unchanged without looking at it. */
export const ASSUME_UNCHANGED = 1;
export const SKIP_WORKTREE = 2;

/** An entry whose recorded change time is recent, with what git compares to tell it unchanged. */
export interface RecentEntry {
  /** The path in the work tree (a byte string, `/`-separated). */
  name: string;
  mode: number;
  /** The object name, hex. */
  oid: string;
  stage: number;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  ino: number;
  size: number;
}

/** What the sweep reads from an index. */
export interface IndexFacts {
  /** Paths relative to the work tree, `/`-separated, as byte strings (byte-names.ts): a name's bytes, UTF-8 or not. */
  gitlinks: string[];
  /** The entries marked assume-unchanged or skip-worktree: path → ASSUME_UNCHANGED | SKIP_WORKTREE. */
  marked: Map<string, number>;
  /** The entries whose recorded change time is at or after `recentSince` (ms), at most MAX_RECENT. */
  recent: RecentEntry[];
  recentSince: number;
  /** More entries were recent than MAX_RECENT. */
  recentCut: boolean;
  /** The cache extensions git trusts instead of looking at the work tree (`UNTR`, `FSMN`) that the index holds. */
  caches: string[];
}

/** Read from the index, or listed by git; `unread`: neither could, and why. */
export type IndexRead = IndexFacts & { unread?: string };

export const emptyFacts = (recentSince = Infinity): IndexFacts => ({ gitlinks: [], marked: new Map(), recent: [], recentSince, recentCut: false, caches: [] });
