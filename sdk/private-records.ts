/**
 * MewCode's private records, refused to every file tool wherever they are: a session's folder
 * (`.mewcode/sessions/<id>/`: the transcript with every prompt the user typed — a token they
 * pasted —, sub-agents' transcripts under `agents/`, the tool results saved under `tool-results/`)
 * and the saved full outputs of cut tool results (`.mewcode/tool-output/`: per session in
 * `<id>/`, and the flat files of older versions, shared by every session — the output of a
 * command the user approved that printed a credential) in this project, in another project (an
 * additional directory) or in a copy, and the user's list of the projects MewCode ran in
 * (`~/.mewcode/sessions.jsonl`). The OS sandbox hides the same records from commands
 * (plugins/sandbox-os/session-transcripts.ts); the file tools must not be the way around it, and
 * a session id (the audit log shows them) must open nothing.
 *
 * Judged on path names, not on a list of known projects, so a spelling (`./.mewcode//sessions`),
 * a link into them (the caller passes where the path leads too) or an unlisted project's copy
 * changes nothing. The exceptions, for reading only and only in this project, are the current
 * session's own: its `tool-results/`, where compaction saved the large results it tells the model
 * to read, and its `tool-output/<id>/`, where the full outputs its results name are.
 */
import path from 'node:path';

export interface PrivateRecordScope {
  /** The project root as given and as resolved (links followed); both are compared. */
  projectRoots: readonly string[];
  /** The session making the call; undefined: no exception. */
  sessionId?: string;
  /** A read: the current session's saved tool results and outputs are allowed. */
  read: boolean;
}

const STATE_DIR = '.mewcode';
const SESSION_NAMES = new Set(['sessions', 'sessions.jsonl']);
/** The spill folder (plugins/output-limits: DEFAULT_SPILL_DIR). */
const SPILL_NAME = 'tool-output';

/** Why the absolute path is one of MewCode's private records, or undefined when it is not. */
export function privateRecordReason(absolutePath: string, scope: PrivateRecordScope): string | undefined {
  const normal = path.resolve(absolutePath);
  const parts = normal.split(path.sep);
  for (let i = 0; i + 1 < parts.length; i++) {
    const name = parts[i + 1]!;
    if (parts[i] !== STATE_DIR || (!SESSION_NAMES.has(name) && name !== SPILL_NAME)) continue;
    const stateDir = parts.slice(0, i + 1).join(path.sep) || path.sep;
    const shown = parts.slice(i, i + 2).join('/');
    const rest = parts.slice(i + 2);
    if (name === SPILL_NAME) {
      if (scope.read && ownSpill(rest, path.dirname(stateDir), scope)) return undefined;
      return `${normal} is inside ${shown}, MewCode's saved tool outputs (full outputs of earlier commands and tool calls, of every session of the project): no tool may read or change them, but for reading this session's own (${shown}/<this session's id>/)`;
    }
    if (scope.read && ownSavedResult(rest, path.dirname(stateDir), scope)) return undefined;
    return `${normal} is inside ${shown}, MewCode's session records (transcripts with every prompt typed, saved tool results): no tool may read or change them; the user can open them with \`mewcode sessions\``;
  }
  return undefined;
}

/** `<this project>/.mewcode/sessions/<current id>/tool-results/<file>`. */
function ownSavedResult(rest: readonly string[], owner: string, scope: PrivateRecordScope): boolean {
  if (scope.sessionId === undefined || rest.length < 3) return false;
  if (rest[0] !== scope.sessionId || rest[1] !== 'tool-results') return false;
  return inThisProject(owner, scope);
}

/** `<this project>/.mewcode/tool-output/<current id>/` and what is in it. */
function ownSpill(rest: readonly string[], owner: string, scope: PrivateRecordScope): boolean {
  if (scope.sessionId === undefined || rest.length < 1 || rest[0] !== scope.sessionId) return false;
  return inThisProject(owner, scope);
}

function inThisProject(owner: string, scope: PrivateRecordScope): boolean {
  return scope.projectRoots.some((root) => path.resolve(root) === owner);
}

/** A predicate for walks (grep, glob, file includes): every private record, no exception. */
export function isPrivateRecord(absolutePath: string): boolean {
  return privateRecordReason(absolutePath, { projectRoots: [], read: false }) !== undefined;
}

/**
 * The private records a search started at `start` leaves out: every one, as isPrivateRecord —
 * unless the search was started inside what the session may read (its own `tool-output/<id>/`
 * folder or a file in it, named as the bash result names it: "search it with grep"), where the
 * session's own records under that start are searched. A search of the project or of `.mewcode`
 * still lists none.
 */
export function privateSearchFilter(scope: Omit<PrivateRecordScope, 'read'> & { start: string }): (absolutePath: string) => boolean {
  const read = { ...scope, read: true };
  const start = path.resolve(scope.start);
  if (!isPrivateRecord(start) || privateRecordReason(start, read) !== undefined) return isPrivateRecord;
  return (file) => {
    if (!isPrivateRecord(file)) return false;
    const normal = path.resolve(file);
    return !(normal === start || normal.startsWith(start + path.sep)) || privateRecordReason(normal, read) !== undefined;
  };
}
