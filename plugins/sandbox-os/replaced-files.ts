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
}

/** Device and inode: what a mount over the name stays on while the file is written in place. */
const identity = (file: string): string | undefined => {
  try {
    const info = lstatSync(file);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
};

/** With the change time too: a file made in place of a removed one may get its inode number back at once. */
export const pathStamp = (file: string): string | undefined => {
  try {
    const info = lstatSync(file);
    return `${info.dev}:${info.ino}:${info.ctimeMs}`;
  } catch {
    return undefined;
  }
};

interface Watched {
  id: string;
  stamp: string;
  /** A folder, on the way or itself mounted over (its change time moves with every entry made in it: not compared). */
  folder: boolean;
}

/**
 * Watches `files` (absolute) until closed; `onReplaced` is called once, with the first one found
 * replaced or removed, or with a folder on its way that was moved or removed (the mount moves
 * with it, and a new folder at its path holds new files), or with a folder that cannot be watched
 * (`unwatchable`: the user's inotify watches used up…). What each is, is read now, before the
 * command starts; the watches are set once the caller has started it (they cost a few
 * milliseconds, spent while the sandbox starts) and everything is then read again, so that a
 * change in between is found as well.
 */
export function watchReplaced(files: readonly string[], writable: readonly string[], onReplaced: (file: string, unwatchable?: string) => void): ReplacedWatch {
  // Each file, and each folder on its way from `/`: a folder moved away takes the mount with it,
  // and a new one made at its path holds new files (inotify tells only the folder holding a name).
  // Not the folders inside a writable root: the command itself may rename those (`git mv apps/web
  // apps/frontend`, a hidden `.env` moving along with its mount), and only their own moves matter.
  const byDir = new Map<string, Map<string, Watched>>();
  const inside = new Set<string>();
  const add = (target: string, folder: boolean): boolean => {
    const dir = path.dirname(target);
    let names = byDir.get(dir);
    if (!names) byDir.set(dir, (names = new Map()));
    if (names.has(path.basename(target))) return false;
    let info;
    try {
      info = lstatSync(target);
    } catch {
      return false;
    }
    const id = `${info.dev}:${info.ino}`;
    // A folder's change time moves with every entry made in it (MewCode's own records, a cache): compared by inode only.
    names.set(path.basename(target), { id, stamp: `${id}:${info.ctimeMs}`, folder: folder || info.isDirectory() });
    return true;
  };
  for (const file of files) {
    if (identity(file) === undefined) continue; // nothing mounted over a file that is not there
    if (writable.some((root) => isPathWithin(root, path.dirname(file)))) {
      inside.add(path.dirname(file));
      add(file, false);
      continue;
    }
    for (let at = file; path.dirname(at) !== at && add(at, at !== file); at = path.dirname(at));
  }
  const dirIds = new Map([...byDir.keys()].map((dir) => [dir, identity(dir)]));
  const watchers: FSWatcher[] = [];
  let fired = false;
  let closed = false;
  const close = (): void => {
    closed = true;
    for (const watcher of watchers.splice(0)) watcher.close();
  };
  const fire = (what: string, unwatchable?: string): void => {
    if (fired || closed) return;
    fired = true;
    close();
    onReplaced(what, unwatchable);
  };
  const arm = (): void => {
    for (const [dir, names] of byDir) {
      if (closed) return;
      try {
        const watcher = watch(dir, { persistent: false }, (event, name) => {
          if (fired) return;
          const entry = typeof name === 'string' ? names.get(name) : undefined;
          if (entry !== undefined) {
            // `rename`: the name was removed, renamed over or away (its inode number may come back
            // at once for the file made in its place); `change`: written in place, the mount holds.
            if (event === 'rename' || identity(path.join(dir, name as string)) !== entry.id) fire(path.join(dir, name as string));
            return;
          }
          // An event on the folder itself (moved or removed: inotify names it by its own name).
          if (!inside.has(dir) && identity(dir) !== dirIds.get(dir)) fire(dir);
        });
        watcher.on('error', () => fire(dir));
        watchers.push(watcher);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        fire(dir, code === 'ENOENT' ? undefined : (code ?? (error as Error).message));
        return;
      }
    }
    // What changed before the watches were set.
    for (const [dir, names] of byDir) {
      if (!inside.has(dir) && identity(dir) !== dirIds.get(dir)) return fire(dir);
      for (const [name, entry] of names) {
        const file = path.join(dir, name);
        if ((entry.folder ? identity(file) : pathStamp(file)) !== (entry.folder ? entry.id : entry.stamp)) return fire(file);
      }
    }
  };
  setImmediate(arm);
  return { close };
}

/**
 * What a plan mounts over by name: protected files and folders, hidden ones (the folders rebuilt
 * in their place, rebuilt-folders.ts). MewCode's own hidden
 * files count too: MewCode replacing one while a command runs (an MCP server's tokens refreshed)
 * would show it to the command as much as anything else would.
 */
export function mountedOver(plan: MountPlan): string[] {
  // What is hidden in a rebuilt folder has no name the host can take back; the folder itself counts
  // (and a folder hidden whole there is a mount on a name in the rebuilt folder too).
  const rebuilt = new Set((plan.rebuilt ?? []).map((folder) => folder.dir));
  const hidden = [...plan.hiddenFiles, ...plan.hiddenDirs].filter((target) => !rebuilt.has(path.dirname(target)));
  return [...plan.readOnly, ...hidden, ...rebuilt];
}

export const replacedMessage = (file: string): string =>
  `${file} was replaced or removed on this machine while a sandboxed command ran; a replaced file loses the sandbox's mount over it (it would no longer be hidden or read-only), so the command was stopped. Run it again.`;

export const unwatchableMessage = (folder: string, why: string): string =>
  `the OS sandbox could not watch ${folder} (${why}), which holds files it hides or keeps read-only, so the command was stopped: a file there replaced while it ran would lose its protection. Run it again; if this repeats, another program may be using up this user's inotify watches (fs.inotify.max_user_watches).`;
