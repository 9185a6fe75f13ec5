/**
 * The current session's own saved outputs (`<project>/.mewcode/tool-output/<session id>/`, where
 * plugins/output-limits saves the full output of a cut result and the result names the file),
 * bound back read-only over the hidden `tool-output` folder (session-transcripts.ts hides it
 * whole: earlier sessions' outputs may hold a credential an approved command printed).
 *
 * Only a plain folder of a writable root's own `tool-output`, reached without a link (its real
 * path is the path itself) and under a folder the plan hides; a session id that is not a plain
 * name, a missing folder (nothing saved yet: bound from the next command on) or anything else
 * gives nothing. `.mewcode` is read-only to commands, so none can put a link there meanwhile;
 * the mount check (mount-check.ts) verifies the bind before the command runs. One lstat and one
 * realpath per writable root and command.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export async function ownSpillFolders(sessionId: string | undefined, writableRoots: readonly string[], hiddenDirs: readonly string[]): Promise<string[]> {
  if (sessionId === undefined || !PLAIN_NAME.test(sessionId)) return [];
  const found: string[] = [];
  for (const root of writableRoots) {
    const folder = path.join(root, '.mewcode', 'tool-output', sessionId);
    if (!hiddenDirs.some((dir) => dir !== folder && isPathWithin(dir, folder))) continue;
    try {
      const info = await lstat(folder);
      if (info.isDirectory() && (await realpath(folder)) === folder) found.push(folder);
    } catch {
      // nothing saved yet
    }
  }
  return found;
}
