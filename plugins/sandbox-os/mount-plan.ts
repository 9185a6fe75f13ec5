/**
 * From the policy and what is on disk to a list of mounts (pure, given `inspect`): the part both
 * the bubblewrap arguments and the tests are built from.
 *
 * Protected paths that do not exist yet (e.g. `.mcp.json`, `.mewcode/` in a fresh project) must
 * not be creatable either. A mount needs a mount point, so the caller creates an EMPTY DIRECTORY
 * at that path just for the call and removes it afterwards (if still empty and no other call uses
 * it), and an empty read-only directory is bound over it. A directory rather than a file: git
 * ignores empty directories, so `git status` inside or outside the sandbox shows nothing new,
 * while a file (/dev/null or an empty one) would show up as untracked. Inside the sandbox the
 * path is a read-only mount point, which cannot be written, removed, renamed or replaced.
 *
 * A protected path that is a symbolic link is refused: a mount lands on the link's target, and
 * the link itself could still be removed and replaced by a file the sandbox wrote. Rare, and fail
 * closed: the command does not run.
 */
import path from 'node:path';
import { GIT_PROTECTED, PROTECTED_NAMES, isWithin } from './policy.js';

export type PathKind = 'dir' | 'file' | 'missing' | 'symlink' | 'other';

export interface MountPlan {
  /** Bound read-write over themselves (the project root, additional directories, allow_write). */
  writable: string[];
  /** Bound read-write over themselves AFTER the writable roots: makes them mount points, which cannot be renamed or removed (`.git`). */
  pinned: string[];
  /** Existing protected paths, bound read-only over themselves. */
  readOnly: string[];
  /** Missing protected paths: an empty read-only directory is bound there (the caller makes the mount point). */
  blocked: string[];
  /** Unreadable: a read-only empty tmpfs over directories. */
  hiddenDirs: string[];
  /** Unreadable: /dev/null bound over files. */
  hiddenFiles: string[];
}

export type PlanResult = { ok: true; plan: MountPlan } | { ok: false; message: string };

export interface PlanInput {
  writableRoots: readonly string[];
  homeDir: string;
  /** Absolute paths (default list + user's), after following links. */
  denyRead: readonly string[];
}

/** lstat-like for protected paths (links not followed); stat-like (`follow`) for deny-read paths. */
export type Inspect = (absolutePath: string, follow: boolean) => Promise<PathKind>;

export async function planMounts(input: PlanInput, inspect: Inspect): Promise<PlanResult> {
  const writable = dedupe(input.writableRoots);
  const plan: MountPlan = { writable, pinned: [], readOnly: [], blocked: [], hiddenDirs: [], hiddenFiles: [] };

  const protect = async (target: string): Promise<string | undefined> => {
    const kind = await inspect(target, false);
    if (kind === 'symlink') return refusal(target);
    if (kind === 'missing') plan.blocked.push(target);
    else plan.readOnly.push(target);
    return undefined;
  };

  for (const root of writable) {
    const git = path.join(root, '.git');
    const gitKind = await inspect(git, false);
    if (gitKind === 'symlink') return { ok: false, message: refusal(git) };
    if (gitKind === 'dir') {
      plan.pinned.push(git);
      for (const name of GIT_PROTECTED) {
        const problem = await protect(path.join(git, name));
        if (problem) return { ok: false, message: problem };
      }
    } else if (gitKind === 'missing') plan.blocked.push(git);
    else plan.readOnly.push(git); // a `gitdir:` file (worktree, submodule)

    const names = [...PROTECTED_NAMES.map((name) => path.join(root, name))];
    // The user's own MewCode settings, when the home directory is inside a writable root.
    const userDir = path.join(input.homeDir, '.mewcode');
    if (isWithin(root, userDir) && !names.includes(userDir)) names.push(userDir);
    for (const target of names) {
      const problem = await protect(target);
      if (problem) return { ok: false, message: problem };
    }
  }

  for (const target of dedupe(input.denyRead)) {
    const kind = await inspect(target, true);
    if (kind === 'dir') plan.hiddenDirs.push(target);
    else if (kind === 'file' || kind === 'other') plan.hiddenFiles.push(target);
  }
  plan.readOnly = dedupe(plan.readOnly);
  plan.blocked = dedupe(plan.blocked);
  return { ok: true, plan };
}

function refusal(target: string): string {
  return (
    `${target} is a symbolic link. The OS sandbox keeps this path read-only, which it cannot do for a link (the link could be replaced), ` +
    'so the command was not run. Ask the user to replace the link with the file or directory it points to, ' +
    'or to turn the sandbox off with `sandbox: false` in ~/.mewcode/settings.yaml (commands then ask for approval again).'
  );
}

function dedupe(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.normalize(p)))];
}
