/**
 * Where layer 1 keeps the results it moved out of the conversation (SPEC C1, C5):
 * `.mewcode/sessions/<id>/tool-results/<tool call id>`, written without following links (a
 * repository may have planted them) and never outside the project.
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { redirectedByLink } from '../../sdk/path-containment.js';
import { sessionDirectory } from '../../types/session-store.js';

const { O_CREAT, O_NOFOLLOW, O_TRUNC, O_WRONLY } = constants;

/** A file name from a vendor's call id (`toolu_01…`, `call_…`): anything else becomes `_`. */
export function resultFileName(toolCallId: string): string {
  const safe = toolCallId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 200);
  return safe === '' || safe === '.' ? '_' : safe;
}

export function resultFile(projectRoot: string, sessionId: string, toolCallId: string): string {
  return path.join(sessionDirectory(projectRoot, sessionId), 'tool-results', resultFileName(toolCallId));
}

/** Writes the full result; throws what went wrong (the caller keeps the result and tries again later). */
export function saveResult(projectRoot: string, sessionId: string, toolCallId: string, content: string): string {
  const file = resultFile(projectRoot, sessionId, toolCallId);
  const dir = path.dirname(file);
  const real = redirectedByLink(projectRoot, dir);
  if (real !== undefined) throw new Error(`${path.relative(projectRoot, dir)} leads to ${real} through a symbolic link; results are saved only inside the project`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fd = openSync(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return file;
}
