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
  /** Entries whose path git would never have written (unsafeIndexPath), the first MAX_UNSAFE_LISTED of them. */
  unsafe: string[];
  /** The entries a reader was asked to keep (git-index.ts readOwnIndex): `<path>\0<stage>` → mode and object. */
  kept?: Map<string, { mode: number; oid: string }>;
}

export const MAX_UNSAFE_LISTED = 20;

/** Code points HFS+ ignores in a name (so `.g\u200cit` is `.git` there), as git's is_hfs_dotgit lists them. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** What every unsafe path holds: a component starting with a dot, an empty one, a `~` (NTFS's `git~1`), an HFS+-ignored code point. */
const MAYBE_UNSAFE = /(?:^|\/)\.|\/\/|\/$|~|[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/;

/** A component git's verify_path refuses: `.git` in any spelling a file system may take for it (case, NTFS's trailing dots and spaces, its short name, HFS+'s ignored code points). */
function isDotGit(part: string): boolean {
  const bare = part.replace(HFS_IGNORED, '').toLowerCase().replace(/(?::.*)?$/, '').replace(/[. ]+$/, '');
  return bare === '.git' || bare === 'git~1';
}

/**
 * An index entry's path git itself never writes (its verify_path): absolute, with an empty, `.`
 * or `..` component, or a `.git` one. git of this age reads such an entry from an index file
 * without checking it, and `git checkout -- .`, `git restore .` or `git reset --hard` then write or
 * delete it wherever it leads (`../home/.bash_aliases`, `sub/.git/hooks/pre-commit`).
 */
export function unsafeIndexPath(name: string): boolean {
  if (name === '' || name.startsWith('/')) return true;
  // Read for every entry of every index a command changed: most paths pass on this alone.
  if (!MAYBE_UNSAFE.test(name)) return false;
  return name.split('/').some((part) => part === '' || part === '.' || part === '..' || isDotGit(part));
}

/** Notes `name` among an index's unsafe entries (the first MAX_UNSAFE_LISTED). */
export function noteUnsafe(facts: IndexFacts, name: string): void {
  if (facts.unsafe.length < MAX_UNSAFE_LISTED && unsafeIndexPath(name)) facts.unsafe.push(name);
}

/** Read from the index, or listed by git; `unread`: neither could, and why. */
export type IndexRead = IndexFacts & { unread?: string };

export const emptyFacts = (recentSince = Infinity): IndexFacts => ({ gitlinks: [], marked: new Map(), recent: [], recentSince, recentCut: false, caches: [], unsafe: [] });
