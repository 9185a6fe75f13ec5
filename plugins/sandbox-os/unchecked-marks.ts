/**
 * A project whose recovery sweep (sweep-recovery.ts) could not finish: a MewCode died during a
 * sandboxed command, and the check of what that command left stopped at its bound, so a git
 * directory it planted in the part not walked may still be there. The sweep after a command in a
 * live session refuses every later command in that case (sandbox-commands.ts `uncheckedTree`); this mark
 * carries the same refusal over to the next session in the project, since the process that
 * would have refused is gone. It is a file beside the command records
 * (`unchecked.<hash of the project root>.json`), which commands cannot reach, and it stays until
 * the user removes it after looking, or allows unchecked trees in their settings.
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { readFile, realpath, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface UncheckedMark {
  projectRoot: string;
  /** When the command whose check could not finish started (ms, wall clock). */
  since: number;
  /** The directories the check did not read (at most MAX_NAMED). */
  notWalked: string[];
}

/** Directories named in a mark (and so in the refusal): enough to look at, not a listing of the tree. */
const MAX_NAMED = 20;
/** A mark larger than this is not read as a mark: it still refuses, naming only the file. */
const MAX_MARK_BYTES = 64 * 1024;

export const markPath = (recordsDir: string, projectRoot: string): string =>
  path.join(recordsDir, `unchecked.${nodeCrypto().createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}.json`);

export async function writeUncheckedMark(recordsDir: string, mark: UncheckedMark): Promise<string> {
  const file = markPath(recordsDir, mark.projectRoot);
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, JSON.stringify({ ...mark, notWalked: mark.notWalked.slice(0, MAX_NAMED) }), { mode: 0o600 });
  await rename(partial, file);
  return file;
}

/**
 * The mark left for `projectRoot`, or undefined when there is none. A mark that is there but
 * cannot be read as one still counts (its file is named): it was written only for this refusal.
 */
export async function readUncheckedMark(recordsDir: string, projectRoot: string): Promise<{ file: string; mark?: UncheckedMark } | undefined> {
  const file = markPath(recordsDir, projectRoot);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { file };
  }
  try {
    if (text.length > MAX_MARK_BYTES) return { file };
    const parsed = JSON.parse(text) as Partial<UncheckedMark>;
    if (parsed.projectRoot !== projectRoot || typeof parsed.since !== 'number' || !Array.isArray(parsed.notWalked)) return { file };
    return { file, mark: { projectRoot, since: parsed.since, notWalked: parsed.notWalked.filter((entry): entry is string => typeof entry === 'string').slice(0, MAX_NAMED) } };
  } catch {
    return { file };
  }
}

/** The project's real path, or the path as given when it cannot be resolved (the mark's key). */
export const markKey = (projectRoot: string): Promise<string> => realpath(projectRoot).catch(() => projectRoot);

/**
 * The mark left for `projectRoot` or any folder holding it (a session started in a subfolder of
 * the project whose check could not finish writes there too), by real path.
 */
export async function markAbove(recordsDir: string, projectRoot: string): Promise<{ file: string; mark?: UncheckedMark } | undefined> {
  for (let dir = await markKey(projectRoot); ; dir = path.dirname(dir)) {
    const found = await readUncheckedMark(recordsDir, dir);
    if (found) return found;
    if (path.dirname(dir) === dir) return undefined;
  }
}
