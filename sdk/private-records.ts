/**
 * MewCode's private records, refused to every file tool wherever they are: a session's folder
 * (`.mewcode/sessions/<id>/`: the transcript with every prompt the user typed — a token they
 * pasted —, sub-agents' transcripts under `agents/`, the tool results saved under `tool-results/`)
 * in this project, in another project (an additional directory) or in a copy, and the user's list
 * of the projects MewCode ran in (`~/.mewcode/sessions.jsonl`). The OS sandbox hides the same
 * records from commands (plugins/sandbox-os/session-transcripts.ts); the file tools must not be
 * the way around it, and a session id (the audit log shows them) must open nothing.
 *
 * Judged on path names, not on a list of known projects, so a spelling (`./.mewcode//sessions`),
 * a link into them (the caller passes where the path leads too) or an unlisted project's copy
 * changes nothing. The one exception: the current session's own `tool-results/`, where compaction
 * saved the large results it tells the model to read — for reading only, and only in this project.
 */
import path from 'node:path';

export interface PrivateRecordScope {
  /** The project root as given and as resolved (links followed); both are compared. */
  projectRoots: readonly string[];
  /** The session making the call; undefined: no exception. */
  sessionId?: string;
  /** A read: the current session's saved tool results are allowed. */
  read: boolean;
}

const STATE_DIR = '.mewcode';
const PRIVATE_NAMES = new Set(['sessions', 'sessions.jsonl']);

/** Why the absolute path is one of MewCode's private records, or undefined when it is not. */
export function privateRecordReason(absolutePath: string, scope: PrivateRecordScope): string | undefined {
  const normal = path.resolve(absolutePath);
  const parts = normal.split(path.sep);
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] !== STATE_DIR || !PRIVATE_NAMES.has(parts[i + 1]!)) continue;
    const stateDir = parts.slice(0, i + 1).join(path.sep) || path.sep;
    if (scope.read && ownSavedResult(parts.slice(i + 2), path.dirname(stateDir), scope)) return undefined;
    const shown = parts.slice(i, i + 2).join('/');
    return `${normal} is inside ${shown}, MewCode's session records (transcripts with every prompt typed, saved tool results): no tool may read or change them; the user can open them with \`mewcode sessions\``;
  }
  return undefined;
}

/** `<this project>/.mewcode/sessions/<current id>/tool-results/<file>`. */
function ownSavedResult(rest: readonly string[], owner: string, scope: PrivateRecordScope): boolean {
  if (scope.sessionId === undefined || rest.length < 3) return false;
  if (rest[0] !== scope.sessionId || rest[1] !== 'tool-results') return false;
  return scope.projectRoots.some((root) => path.resolve(root) === owner);
}

/** A predicate for walks (grep, glob, file includes): every private record, no exception. */
export function isPrivateRecord(absolutePath: string): boolean {
  return privateRecordReason(absolutePath, { projectRoots: [], read: false }) !== undefined;
}
