/**
 * A mount over a single file — a hidden file under /dev/null, a protected file bound read-only —
 * holds only while the file is the one that was there: since Linux 3.18, when a process outside
 * the sandbox renames another file over it or deletes it (an editor's save, git's
 * lock-and-rename of `.git/config`, `git credential-store`, a shell saving its history), the
 * kernel removes the mount in the sandbox too, and from then the command sees, and can write, the
 * new file. Folders hidden or protected whole keep their mount whatever happens inside them.
 *
 * So while a command runs, the folders holding such files are watched (inotify, through
 * fs.watch), and a file replaced or removed stops the command at once: its mount is gone. What a
 * command could do in the milliseconds before it stops is the window left; a protected git
 * configuration written in it is judged after the command (own-git-config.ts).
 */
import { lstatSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import type { MountPlan } from './mount-plan.js';

export interface ReplacedWatch {
  close(): void;
  /** A folder that could not be watched (the user's inotify watches used up…): its files would be unguarded. */
  failed?: string;
}

const identity = (file: string): string | undefined => {
  try {
    const info = lstatSync(file);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
};

/**
 * Watches `files` (absolute) until closed; `onReplaced` is called once, with the first one found
 * replaced or removed, or with a folder on its way that was moved or removed (the mount moves
 * with it, and a new folder at its path holds new files). `failed` names a folder that could not
 * be watched: the caller must not run the command unguarded.
 */
export function watchReplaced(files: readonly string[], writable: readonly string[], onReplaced: (file: string) => void): ReplacedWatch {
  // Each file, and each folder on its way from `/`: a folder moved away takes the mount with it,
  // and a new one made at its path holds new files (inotify tells only the folder holding a name).
  // Not the folders inside a writable root: the command itself may rename those (`git mv apps/web
  // apps/frontend`, a hidden `.env` moving along with its mount), and only their own moves matter.
  const byDir = new Map<string, Map<string, string>>();
  const inside = new Set<string>();
  for (const file of files) {
    if (identity(file) === undefined) continue; // nothing mounted over a file that is not there
    if (writable.some((root) => isPathWithin(root, path.dirname(file)))) {
      const dir = path.dirname(file);
      inside.add(dir);
      let names = byDir.get(dir);
      if (!names) byDir.set(dir, (names = new Map()));
      names.set(path.basename(file), identity(file)!);
      continue;
    }
    for (let at = file; path.dirname(at) !== at; at = path.dirname(at)) {
      const dir = path.dirname(at);
      let names = byDir.get(dir);
      if (!names) byDir.set(dir, (names = new Map()));
      if (names.has(path.basename(at))) break; // this folder's way is taken already
      const id = identity(at);
      if (id === undefined) break;
      names.set(path.basename(at), id);
    }
  }
  const watchers: FSWatcher[] = [];
  let fired = false;
  const close = (): void => {
    for (const watcher of watchers.splice(0)) watcher.close();
  };
  const fire = (what: string): void => {
    if (fired) return;
    fired = true;
    close();
    onReplaced(what);
  };
  for (const [dir, names] of byDir) {
    const dirId = identity(dir);
    try {
      const watcher = watch(dir, { persistent: false }, (event, name) => {
        if (fired) return;
        const id = typeof name === 'string' ? names.get(name) : undefined;
        if (id !== undefined) {
          // `rename`: the name was removed, renamed over or away (its inode number may come back
          // at once for the file made in its place); `change`: written in place, the mount holds.
          if (event === 'rename' || identity(path.join(dir, name as string)) !== id) fire(path.join(dir, name as string));
          return;
        }
        // An event on the folder itself (moved or removed: inotify names it by its own name).
        if (!inside.has(dir) && identity(dir) !== dirId) fire(dir);
      });
      watcher.on('error', () => fire(dir));
      watchers.push(watcher);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        fire(dir); // gone since its files were looked at
        continue;
      }
      close();
      return { close, failed: `${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
    }
  }
  return { close };
}

/**
 * What a plan mounts over by name: protected files and folders, hidden ones. MewCode's own hidden
 * files count too: MewCode replacing one while a command runs (an MCP server's tokens refreshed)
 * would show it to the command as much as anything else would.
 */
export function mountedOver(plan: MountPlan): string[] {
  return [...plan.readOnly, ...plan.hiddenFiles, ...plan.hiddenDirs];
}

export const replacedMessage = (file: string): string =>
  `${file} was replaced or removed on this machine while a sandboxed command ran; a replaced file loses the sandbox's mount over it (it would no longer be hidden or read-only), so the command was stopped. Run it again.`;

export const unwatchedRefusal = (folder: string): string =>
  `The OS sandbox could not watch ${folder}, which holds files it hides or keeps read-only, so the command was not run: a file there replaced while the command ran would lose its protection. Run it again; if this repeats, another program may be using up this user's inotify watches (fs.inotify.max_user_watches).`;
