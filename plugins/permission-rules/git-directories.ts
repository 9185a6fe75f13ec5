/**
 * The inside of any git directory, for the file tools (write_file, edit_file): git trusts all of
 * it, not only the config and hooks protected-paths.ts names. `HEAD` is printed raw by a shell
 * prompt (`__git_ps1`: terminal escapes, an OSC 52 clipboard write), `refs/replace/<commit>` hides
 * a committed change from `git log -p` and `git status`, `info/exclude` hides a new file,
 * `info/grafts`, `shallow`, `packed-refs` and `objects/` rewrite history. The model never needs a
 * file tool there (git's own commands change it), so every such write asks, as `.claude/**` does.
 *
 * A git directory is a path with a `.git` part (the project's, a submodule's under
 * `.git/modules/**`, a worktree's under `.git/worktrees/**`, a nested repository's), or any
 * folder git takes for one by its shape (setup.c, is_git_directory: `HEAD` beside `objects` and
 * `refs`, or beside `commondir`): a bare repository inside the project, the target of a `.git`
 * file, another repository's directory outside it. Judged as written and symlink-resolved.
 * (A `.git` file's target that is not yet shaped, and links into git directories, are found by
 * linked-protected.ts.)
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { forms, type ProtectedHit } from './protected-paths.js';

const INSIDE = 'the inside of a git directory (git trusts what is there: HEAD, refs, objects, info/exclude; git changes it itself)';

/** Whether writing `absolute` with a file tool changes a git directory; undefined when it does not. */
export function insideGitDirectory(absolute: string): ProtectedHit | undefined {
  for (const candidate of forms(absolute)) {
    // Without case: on a filesystem that ignores it `.GIT` is `.git` (as protected-paths.ts).
    if (candidate.split(path.sep).some((part) => part.toLowerCase() === '.git')) return { path: absolute, what: INSIDE };
    const shaped = shapedAncestor(candidate);
    if (shaped !== undefined) return { path: absolute, what: `a file inside ${shaped}, which git takes for a git directory (HEAD with objects and refs, or a commondir)` };
  }
  return undefined;
}

/** The nearest folder above `candidate` shaped as a git directory. At most three stats a level, most levels one. */
function shapedAncestor(candidate: string): string | undefined {
  for (let dir = path.dirname(candidate); ; ) {
    if (isShaped(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Git's own test, with the names as git opens them (on a filesystem that ignores case the stat
 * finds `head` for `HEAD`, as git's open does). `objects` and `refs` count of any kind: git asks
 * only that they be searchable.
 */
function isShaped(dir: string): boolean {
  const at = (name: string): ReturnType<typeof statSync> | undefined => {
    try {
      return statSync(path.join(dir, name), { throwIfNoEntry: false });
    } catch {
      return undefined; // ENOTDIR, EACCES: not there for git either
    }
  };
  if (at('HEAD')?.isFile() !== true) return false;
  return (at('objects') !== undefined && at('refs') !== undefined) || at('commondir')?.isFile() === true;
}
