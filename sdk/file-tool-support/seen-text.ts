/**
 * The read-first rule for a text a front end holds (TOKENS.WorkspaceFiles, an editor's buffer).
 * An unsaved edit in the editor changes no mtime, so the mtime alone would let write_file replace
 * the user's typing the model never saw. What the model last saw of the text (read, or written by
 * a tool) is kept as a hash; before a change the front end is asked again for the same text (the
 * same lines, for a window) and the change goes ahead only if it is the same. On disk the mtime
 * decides, as always.
 */
import { createHash } from 'node:crypto';
import type { FileReadTracker, Freshness, SeenText } from '../../types/file-reads.js';
import type { WorkspaceFiles } from '../../types/workspace-io.js';

/** What was seen of `text` (the answer to a request for `range`, or the whole text). */
export function seenText(text: string, range?: { line: number; limit: number }): SeenText {
  return { hash: createHash('sha256').update(text, 'utf8').digest('hex'), ...(range ? { range: { ...range } } : {}) };
}

/**
 * The read-first rule for `realPath` whose mtime on disk is `mtimeMs`: the tracker's mtime check,
 * then, when a front end holds the text and what the model saw of it was kept, that text compared
 * with the front end's now. `wholeText`: the front end's whole text, when the caller already has
 * it (edit_file), so it is not asked twice. Rejects when the front end cannot be asked.
 */
export async function freshForChange(
  reads: FileReadTracker,
  realPath: string,
  mtimeMs: number,
  files: WorkspaceFiles | undefined,
  signal: AbortSignal,
  wholeText?: string,
): Promise<Freshness> {
  const fresh = reads.checkFresh(realPath, mtimeMs);
  if (!fresh.ok || !files?.readText) return fresh;
  const seen = reads.lastRead(realPath)?.seen;
  // Read from the disk (no front end then): the mtime spoke for it.
  if (!seen) return fresh;
  const now = seen.range ? await files.readText(realPath, signal, seen.range) : (wholeText ?? (await files.readText(realPath, signal)));
  return seenText(now, seen.range).hash === seen.hash ? fresh : { ok: false, reason: 'text-changed' };
}
