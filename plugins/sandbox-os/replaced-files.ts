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
 * replaced or removed. A folder that cannot be watched is skipped (its files keep today's risk).
 */
export function watchReplaced(files: readonly string[], onReplaced: (file: string) => void): ReplacedWatch {
  const byDir = new Map<string, Map<string, string>>();
  for (const file of files) {
    const id = identity(file);
    if (id === undefined) continue; // nothing mounted over a file that is not there
    const dir = path.dirname(file);
    let names = byDir.get(dir);
    if (!names) byDir.set(dir, (names = new Map()));
    names.set(path.basename(file), id);
  }
  const watchers: FSWatcher[] = [];
  let fired = false;
  const close = (): void => {
    for (const watcher of watchers.splice(0)) watcher.close();
  };
  for (const [dir, names] of byDir) {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (fired || typeof name !== 'string') return;
        const id = names.get(name);
        if (id === undefined) return;
        const file = path.join(dir, name);
        if (identity(file) === id) return;
        fired = true;
        close();
        onReplaced(file);
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // a folder that cannot be watched (gone, or the inotify limit reached)
    }
  }
  return { close };
}

/**
 * What a plan mounts over by name: protected files and folders, hidden ones. MewCode's own state
 * folders are left out: MewCode itself replaces files there while a command runs (settings an
 * approval saves, the audit log's head), and the mounts keep them read-only to the command.
 */
export function mountedOver(plan: MountPlan, own: readonly string[]): string[] {
  return [...plan.readOnly, ...plan.hiddenFiles, ...plan.hiddenDirs].filter((target) => !own.some((dir) => isPathWithin(dir, target)));
}

export const replacedMessage = (file: string): string =>
  `${file} was replaced or removed on this machine while a sandboxed command ran; a replaced file loses the sandbox's mount over it (it would no longer be hidden or read-only), so the command was stopped. Run it again.`;
