/**
 * Project settings below the project's root (git-walk.ts `settings`: a package's `.vscode/`,
 * `.devcontainer.json`, `.claude/`…) made or changed during a command: no read-only mount can be
 * made for a folder the command may create anywhere, so the sweep sets them aside after it, as it
 * does a planted git directory. Changed means the entry, or anything in it, has a ctime from the
 * command on (a ctime cannot be set back, unlike an mtime); a link in it is followed, so a
 * settings folder that leads elsewhere (`.vscode -> ../../out/vscode`) is judged by what it leads
 * to. One at a path the baseline did not know (git-sweep.ts) is the command's when it or a folder
 * on its way from the root arrived during the command (arrivedSince): one the user, an editor or
 * write_file made between two commands is theirs.
 */
import path from 'node:path';
import { entries, lstat, stat } from './byte-fs.js';
import type { ToolFile } from './git-walk.js';
import { follow, readSmallFile, shownPath } from './sweep-paths.js';

/** Entries looked at inside one settings folder; past this it counts as changed (erring towards setting aside). */
const MAX_LOOKED_AT = 2_000;

export async function changedSince(file: string, since: number): Promise<boolean> {
  let looked = 0;
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (++looked > MAX_LOOKED_AT) return true;
    let info;
    let at = current;
    try {
      info = await lstat(current);
      if (info.ctimeMs >= since) return true;
      if (info.isSymbolicLink()) {
        // Every link met on the way counts, not only the first: one in the middle of a chain
        // (`.vscode -> ../l1`, `l1 -> vs1`) pointed at a folder an earlier command made is the change.
        const reached = await follow('/', current, ['/']);
        if (reached.links.some((link) => link.ctimeMs >= since)) return true;
        if (reached.real === undefined) continue; // a link to nothing: nothing there to run
        at = reached.real;
        info = await stat(at);
      }
    } catch {
      continue; // gone meanwhile: nothing there to run
    }
    if (info.ctimeMs >= since) return true;
    if (!info.isDirectory()) continue;
    try {
      for (const child of await entries(at)) queue.push(path.join(at, child.name));
    } catch {
      return true; // unreadable now: it may hide what the command left
    }
  }
  return false;
}

/**
 * Whether `file` (below `root`) took its path during the command that started at `since`: it, or a
 * folder on its way from the root (the root left out: MewCode's own mount points change it), has a
 * ctime from `since` on. Making, renaming or linking a name sets the named entry's ctime, on the
 * file systems the sandbox runs on, so what a command moved into place (a folder holding an old
 * `.vscode`) counts, and what was already there does not. What cannot be looked at counts, and so
 * does a path through another file system than the root's (a mount in the project: its times may
 * come from another machine's clock).
 */
export async function arrivedSince(root: string, file: string, since: number): Promise<boolean> {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return true;
  const device = (await lstat(root).catch(() => undefined))?.dev;
  if (device === undefined) return true;
  let at = root;
  for (const part of relative.split(path.sep)) {
    at = path.join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (info === undefined || info.dev !== device || info.ctimeMs >= since) return true;
  }
  return false;
}

/**
 * A toolchain or package-manager file (sdk/host-tool-files.ts: `.tool-versions`, `mise.toml`,
 * `rust-toolchain.toml`, `.npmrc`…) made or changed during a command, at any depth: why to set it
 * aside, or undefined when it names no program and no path (a version bump is ordinary work). It
 * is followed as the tool opens it: one that leads outside the writable roots, or cannot be
 * followed or read, counts (what the command left there cannot be judged); a link to nothing, or
 * a folder of that name, holds nothing a tool reads.
 */
export async function toolFileOffence(file: ToolFile, roots: readonly string[]): Promise<string | undefined> {
  const { what } = file.entry;
  const reached = await follow(path.dirname(file.path), path.basename(file.path), roots);
  if (reached.real === undefined) return reached.blocked ? `${what} that cannot be followed (${reached.blocked.why})` : undefined;
  if (!reached.inside) return `${what} leading outside the directories the command may write (to ${shownPath(reached.real)})`;
  const info = await lstat(reached.real).catch(() => undefined);
  if (info === undefined || info.isDirectory()) return undefined;
  const read = await readSmallFile(reached.real);
  if (read === undefined) return `${what} that could not be read`;
  if ('tooLarge' in read) return `${what} too large to check`;
  const found = file.entry.judge(read.bytes.toString('utf8'));
  return found === undefined ? undefined : `${what} naming ${found}`;
}
