/**
 * Where layer 1 keeps the results it moved out of the conversation (C1, C5):
 * `.mewcode/sessions/<id>/tool-results/<tool call id>`, written without following links (a
 * repository may have planted them) and never outside the project.
 */
import { nodeCrypto } from '../../sdk/lazy-builtin.js';
import { prepareSessionDirectory, replaceFile, sessionDirectory } from '../../sdk/session-files.js';
import path from 'node:path';

/** A file name from a vendor's call id (`toolu_01…`, `call_…`): anything else becomes `_`. */
export function resultFileName(toolCallId: string): string {
  const safe = toolCallId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200);
  // Ids that had to change (or were cut) keep a hash of the original, so two never share a file.
  return safe === toolCallId && safe !== '' ? safe : `${safe}-${nodeCrypto().createHash('sha256').update(toolCallId).digest('hex').slice(0, 12)}`;
}

export function resultFile(projectRoot: string, sessionId: string, toolCallId: string): string {
  return path.join(sessionDirectory(projectRoot, sessionId), 'tool-results', resultFileName(toolCallId));
}

/** Writes the full result; throws what went wrong (the caller keeps the result and tries again later). */
export function saveResult(projectRoot: string, sessionId: string, toolCallId: string, content: string): string {
  const file = resultFile(projectRoot, sessionId, toolCallId);
  const dir = path.dirname(file);
  prepareSessionDirectory(projectRoot, dir, 'results');
  replaceFile(projectRoot, file, content); // a failed write never spoils a copy saved before
  return file;
}
