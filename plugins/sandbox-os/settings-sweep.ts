/**
 * Project settings below the project's root (git-walk.ts `settings`: a package's `.vscode/`,
 * `.devcontainer.json`, `.claude/`…) made or changed during a command: no read-only mount can be
 * made for a folder the command may create anywhere, so the sweep sets them aside after it, as it
 * does a planted git directory. Changed means the entry, or anything in it, has a ctime from the
 * command on (a ctime cannot be set back, unlike an mtime); a link in it is followed, so a
 * settings folder that leads elsewhere (`.vscode -> ../../out/vscode`) is judged by what it leads
 * to. (One at a path the baseline did not know is new, whatever its times: git-sweep.ts.)
 */
import path from 'node:path';
import { entries, lstat, stat } from './byte-fs.js';

/** Entries looked at inside one settings folder; past this it counts as changed (erring towards setting aside). */
const MAX_LOOKED_AT = 2_000;

export async function changedSince(file: string, since: number): Promise<boolean> {
  let looked = 0;
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (++looked > MAX_LOOKED_AT) return true;
    let info;
    try {
      info = await lstat(current);
      if (info.ctimeMs >= since) return true;
      if (info.isSymbolicLink()) info = await stat(current);
    } catch {
      continue; // gone meanwhile, or a link to nothing: nothing there to run
    }
    if (info.ctimeMs >= since) return true;
    if (!info.isDirectory()) continue;
    try {
      for (const child of await entries(current)) queue.push(path.join(current, child.name));
    } catch {
      return true; // unreadable now: it may hide what the command left
    }
  }
  return false;
}
