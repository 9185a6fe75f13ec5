/**
 * After each sandboxed command (from git-history.ts): reflog lines the command wrote that `git
 * reflog` (and `git log -g`, `git stash list`) would print into the user's terminal as they are.
 * A reflog line ends with a free message (`git update-ref -m`, `git checkout`'s "moving from … to
 * …" with the branch names, or a line simply appended to `logs/HEAD`), and git prints it raw, so
 * a terminal control sequence there (OSC 52 sets the clipboard to a command a paste runs) reaches
 * the user's terminal.
 *
 * Each file under `logs/` of the git directory and of its common directory is stat'ed before and
 * after the command (no file is read unless it changed: cost is a stat per reflog). After it:
 * - a reflog that only grew (the same file, longer) has its new bytes judged; holding a control
 *   character, it is cut back to its old length (the lines the command added are gone) and named;
 * - one made, replaced or rewritten during the command is judged whole and, holding one, set aside
 *   (renamed, as the sweep sets files aside) and named.
 * Without the sizes from before (a sweep for a command MewCode died during), a reflog changed
 * during the command that holds a control character is named, not undone. A reflog that grew is
 * judged by its new bytes only: lines the command rewrote in place before appending are not.
 */
import path from 'node:path';
import { lstatNow, namesNow, tailNow, truncateNow } from './byte-fs.js';
import { hasControl } from './git-printed.js';
import { readSmallFile, setAsideEntry, shownPath, MAX_JUDGED_BYTES } from './sweep-paths.js';

/** A reflog file → its inode and size before the command. */
export type LogsState = ReadonlyMap<string, { ino: number; size: number }>;

interface Found {
  notices: string[];
  unchecked: string[];
}

/** Reflog files looked at per git directory at most (one per ref that has a reflog). */
const MAX_LOG_FILES = 20_000;

/** The `logs` directories of a git directory and its common directory (a worktree's HEAD reflog is its own). */
const logDirs = (commonDir: string, gitDir: string): string[] => [...new Set([path.join(commonDir, 'logs'), path.join(gitDir, 'logs')])];

/** Every entry under the logs directories (links not followed), with its stat. */
function walk(commonDir: string, gitDir: string): Map<string, NonNullable<ReturnType<typeof lstatNow>>> {
  const found = new Map<string, NonNullable<ReturnType<typeof lstatNow>>>();
  const visit = (dir: string): void => {
    for (const name of namesNow(dir) ?? []) {
      if (found.size >= MAX_LOG_FILES) return;
      const file = path.join(dir, name);
      const info = lstatNow(file);
      if (info === undefined) continue;
      if (info.isDirectory()) visit(file);
      else found.set(file, info);
    }
  };
  for (const dir of logDirs(commonDir, gitDir)) if (lstatNow(dir)?.isDirectory()) visit(dir);
  return found;
}

/** Before a command: each reflog's inode and size. */
export function logsState(commonDir: string, gitDir: string): LogsState {
  const state = new Map<string, { ino: number; size: number }>();
  for (const [file, info] of walk(commonDir, gitDir)) if (info.isFile()) state.set(file, { ino: info.ino, size: info.size });
  return state;
}

/** A reflog the command changed: what it added (the whole file when it was made or rewritten) and, when it only grew, its inode and old size. */
export interface ChangedReflog {
  file: string;
  added: Buffer;
  grew?: { ino: number; size: number };
}

/** The reflogs of `gitDir` and `commonDir` changed since `since` (a command's start) against `before`; one too large to read is left out. */
export async function changedReflogs(commonDir: string, gitDir: string, since: number, before: LogsState): Promise<ChangedReflog[]> {
  const changed: ChangedReflog[] = [];
  for (const [file, info] of walk(commonDir, gitDir)) {
    if (info.ctimeMs < since || !info.isFile()) continue;
    const known = before.get(file);
    if (known !== undefined && known.ino === info.ino && info.size > known.size && info.size - known.size <= MAX_JUDGED_BYTES) {
      const added = tailNow(file, info.size - known.size);
      if (added !== undefined) changed.push({ file, added, grew: { ino: info.ino, size: known.size } });
      continue;
    }
    const read = await readSmallFile(file);
    if (read !== undefined && 'bytes' in read) changed.push({ file, added: read.bytes });
  }
  return changed;
}

/**
 * After a command that started at `since`: the reflogs of `gitDir` and `commonDir` (work tree
 * shown as `where`) against `before` (undefined: unknown; empty for a git directory the command made).
 */
export async function checkLogs(commonDir: string, gitDir: string, where: string, roots: readonly string[], since: number, before: LogsState | undefined, result: Found): Promise<void> {
  const how = '`git reflog` and `git log -g` print its lines into your terminal as they are, where a control sequence can set your clipboard (OSC 52) or your window title';
  for (const [file, info] of walk(commonDir, gitDir)) {
    if (info.ctimeMs < since) continue;
    const shown = JSON.stringify(shownPath(file));
    const known = before?.get(file);
    if (!info.isFile()) {
      // git writes reflogs as plain files; a link or anything else made there is not one of them.
      if (before !== undefined && !info.isSymbolicLink()) continue;
      setAsideOrName(file, `the command left a link at ${shown} in ${where}, where git reads a reflog (through it)`, roots, before !== undefined, result);
      continue;
    }
    const grew = known !== undefined && known.ino === info.ino && info.size > known.size;
    if (grew && info.size - known.size <= MAX_JUDGED_BYTES) {
      const added = tailNow(file, info.size - known.size);
      if (added === undefined || !hasControl(added)) continue;
      const cut = truncateNow(file, info.ino, known.size);
      result.notices.push(
        cut
          ? `the command added reflog lines holding a terminal control character to ${shown} in ${where}; ${how}. MewCode cut them off (the file is back to its ${known.size} bytes from before the command)`
          : `the command added reflog lines holding a terminal control character to ${shown} in ${where}; ${how}. MewCode could not cut them off: remove them (\`cat -v\` shows them safely) before you run \`git reflog\``,
      );
      continue;
    }
    const read = await readSmallFile(file);
    if (read === undefined) continue; // gone meanwhile
    if ('tooLarge' in read) {
      result.unchecked.push(`${shown} in ${where} was changed during the command and is too large to check for terminal control characters, which \`git reflog\` prints as they are`);
      continue;
    }
    if (!hasControl(read.bytes)) continue;
    setAsideOrName(file, `the command ${known === undefined ? 'made' : 'rewrote'} the reflog ${shown} in ${where}, and it holds a terminal control character; ${how}`, roots, before !== undefined, result);
  }
}

function setAsideOrName(file: string, what: string, roots: readonly string[], undo: boolean, result: Found): void {
  if (!undo) {
    result.notices.push(`${what}: look at it with \`cat -v\` and remove what the command added before you run \`git reflog\``);
    return;
  }
  const aside = setAsideEntry(file, roots);
  if (aside === undefined) return; // gone meanwhile
  result.notices.push('movedTo' in aside ? `${what}. MewCode set it aside to ${JSON.stringify(shownPath(aside.movedTo))}` : `${what}. MewCode could not set it aside (${aside.refused}): remove it before you run \`git reflog\``);
}
