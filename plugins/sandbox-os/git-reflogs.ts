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

/** A reflog file → its inode, size and bytes (when kept: see copyOf) before the command. */
export type LogsState = ReadonlyMap<string, { ino: number; size: number; copy?: Buffer }>;

/** A reflog larger than this is not kept (the most read to judge one: a larger one changed by a command is set aside). */
const MAX_COPIED_BYTES = MAX_JUDGED_BYTES;
/** Reflogs kept at most (per process). */
const MAX_COPIES = 5000;

/**
 * Each reflog's bytes as last read, by its stamp: read again only when it changed. A reflog that
 * grew during a command is compared with them, since a rewrite in place that also grew (the same
 * file, longer) is no append: `cat` of a planted line and the old lines over `logs/HEAD` makes
 * `git checkout -` take the planted commit (a red team's).
 */
const copies = new Map<string, { stamp: string; bytes: Buffer }>();

function copyOf(file: string, info: NonNullable<ReturnType<typeof lstatNow>>): Buffer | undefined {
  const stamp = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  const known = copies.get(file);
  if (known?.stamp === stamp) return known.bytes;
  if (info.size > MAX_COPIED_BYTES || (known === undefined && copies.size >= MAX_COPIES)) return undefined;
  const bytes = tailNow(file, info.size);
  if (bytes === undefined || bytes.length !== info.size) return undefined;
  copies.set(file, { stamp, bytes });
  return bytes;
}

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
  // The reflogs a user reaches by `@{n}`, `git checkout -` and `stash@{n}` first: whatever else fills the bound (a red team's).
  for (const dir of logDirs(commonDir, gitDir)) {
    for (const first of ['HEAD', 'refs/stash']) {
      const file = path.join(dir, first);
      const info = lstatNow(file);
      if (info !== undefined && !info.isDirectory()) found.set(file, info);
    }
  }
  for (const dir of logDirs(commonDir, gitDir)) if (lstatNow(dir)?.isDirectory()) visit(dir);
  return found;
}

/** Before a command: each reflog's inode, size and bytes (kept by copyOf). */
export function logsState(commonDir: string, gitDir: string): LogsState {
  const state = new Map<string, { ino: number; size: number; copy?: Buffer }>();
  for (const [file, info] of walk(commonDir, gitDir)) {
    if (!info.isFile()) continue;
    const copy = copyOf(file, info);
    state.set(file, { ino: info.ino, size: info.size, ...(copy ? { copy } : {}) });
  }
  return state;
}

/** A reflog the command changed: what it added (the whole file when it was made or rewritten) and, when it only grew, its inode and old size. */
export type ChangedReflog = { file: string; added: Buffer; grew?: { ino: number; size: number } } | { file: string; tooLarge: true };

/**
 * The reflogs of `gitDir` and `commonDir` changed since `since` (a command's start) against
 * `before`, with what the command added: the new bytes when the old ones are as they were, else
 * the lines that were not there before (all of them when the old bytes were not kept). One too
 * large to read is reported as such (the caller sets it aside: nothing in it was judged).
 */
export async function changedReflogs(commonDir: string, gitDir: string, since: number, before: LogsState): Promise<ChangedReflog[]> {
  const changed: ChangedReflog[] = [];
  for (const [file, info] of walk(commonDir, gitDir)) {
    if (info.ctimeMs < since || !info.isFile()) continue;
    const read = await readSmallFile(file);
    if (read === undefined) continue;
    if (!('bytes' in read)) {
      changed.push({ file, tooLarge: true });
      continue;
    }
    const known = before.get(file);
    const copy = known?.copy;
    if (known !== undefined && copy !== undefined && known.ino === info.ino && read.bytes.length > known.size && read.bytes.subarray(0, known.size).equals(copy)) {
      // From the start of the old bytes' last line: one left unended before is ended by what was added (a red team's).
      changed.push({ file, added: read.bytes.subarray(copy.lastIndexOf(10) + 1), grew: { ino: info.ino, size: known.size } });
      continue;
    }
    const lines = new Set(copy?.toString('latin1').split('\n'));
    changed.push({ file, added: Buffer.from(read.bytes.toString('latin1').split('\n').filter((line) => !lines.has(line)).join('\n'), 'latin1') });
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
    // Grown with its old bytes kept as they were (when they were kept: else as before, by its tail).
    const grew = known !== undefined && known.ino === info.ino && info.size > known.size && (known.copy === undefined || tailNow(file, info.size)?.subarray(0, known.size).equals(known.copy) === true);
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
