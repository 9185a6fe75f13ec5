/**
 * The session directory every plugin writing there shares (C1): `<root>/.mewcode/sessions/
 * <id>/` with the transcript (the session plugin) and `tool-results/` (compaction), its
 * `.gitignore` (whoever writes first creates it: transcripts and saved results hold what was said
 * and read, secrets included) and the lock that keeps two processes out of one session.
 */
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { resolveRealSync } from './path-containment.js';
import { isStatePathRefused, openProjectStateFile, openStateDirectory, readProjectStateFile, replaceProjectStateFile, unlinkProjectStateFile } from './project-state-dir.js';
import { holderAlive, holderRecord, parseHolderRecord } from './process-liveness.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = constants;

export function sessionsRoot(projectRoot: string): string {
  return path.join(projectRoot, '.mewcode', 'sessions');
}

export function sessionDirectory(projectRoot: string, sessionId: string): string {
  return path.join(sessionsRoot(projectRoot), sessionId);
}

/**
 * Creates `dir` (inside the sessions root) one checked name at a time (sdk/project-state-dir.ts:
 * a symbolic link on the way is refused, never followed), and the root's `.gitignore` of `*` if it
 * is missing. Throws what went wrong.
 */
export function prepareSessionDirectory(projectRoot: string, dir: string, what: string): void {
  try {
    openStateDirectory(projectRoot, path.relative(projectRoot, dir), { create: true })?.close();
  } catch (error) {
    if (isStatePathRefused(error)) throw new Error(`${error.message}; ${what} are written only inside the project`);
    throw error;
  }
  let fd: number;
  try {
    fd = openProjectStateFile(projectRoot, path.join(sessionsRoot(projectRoot), '.gitignore'), O_WRONLY | O_CREAT | O_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    writeSync(fd, '# MewCode session transcripts and saved tool results: local only\n*\n');
  } finally {
    closeSync(fd);
  }
}

/** What a reservation made: the session's directory, and the state folders that were not there before it. */
export interface SessionReservation {
  projectRoot: string;
  sessionId: string;
  /** `.mewcode/sessions` (with its `.gitignore`) and `.mewcode` were made by this reservation. */
  madeSessionsRoot: boolean;
  madeStateRoot: boolean;
}

/**
 * Creates a new session's directory, exclusively: what it made when this call made it (the id is
 * the caller's; releaseSession gives it back), undefined when it exists already (another session,
 * maybe another process's, has the id). Reached as prepareSessionDirectory reaches it: a symbolic link on the way is refused (thrown).
 */
export function reserveSession(projectRoot: string, sessionId: string): SessionReservation | undefined {
  const stateRoot = path.dirname(sessionsRoot(projectRoot));
  const madeStateRoot = !existsSync(stateRoot);
  const madeSessionsRoot = madeStateRoot || !existsSync(sessionsRoot(projectRoot));
  prepareSessionDirectory(projectRoot, sessionsRoot(projectRoot), 'session transcripts');
  const root = openStateDirectory(projectRoot, path.relative(projectRoot, sessionsRoot(projectRoot)), { create: false });
  const reservation = { projectRoot, sessionId, madeSessionsRoot, madeStateRoot };
  if (root === undefined) return reservation;
  try {
    mkdirSync(root.at(sessionId), { mode: 0o700 }); // not recursive: EEXIST when it is there
    return reservation;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  } finally {
    root.close();
  }
}

/**
 * The reserved directory when it stayed empty, then the folders the reservation made when they hold nothing else (a
 * `mewcode doctor` or `mcp list` in a fresh project leaves no `.mewcode/` behind). The sessions
 * root goes only when its `.gitignore` is all it holds; should another process's session appear
 * in it meanwhile (its rmdir then fails), the `.gitignore` is written back.
 */
export function releaseSession(reservation: SessionReservation): void {
  const { projectRoot, sessionId } = reservation;
  releaseSessionDirectory(projectRoot, sessionId);
  if (!reservation.madeSessionsRoot) return;
  const root = sessionsRoot(projectRoot);
  try {
    const dir = openStateDirectory(projectRoot, path.relative(projectRoot, root), { create: false });
    if (dir === undefined) return;
    try {
      if (readdirSync(dir.at('.')).join('/') !== '.gitignore') return;
      unlinkSync(dir.at('.gitignore'));
    } finally {
      dir.close();
    }
    try {
      rmdirSync(root);
    } catch {
      prepareSessionDirectory(projectRoot, root, 'session transcripts');
      return;
    }
    if (reservation.madeStateRoot) rmdirSync(path.dirname(root));
  } catch {
    // in use, or already gone: kept as it is
  }
}

/**
 * Gives back a reserved session directory that stayed empty (a kernel booted only to inspect, an
 * editor session never prompted): nothing is left behind for it. A directory with anything in it
 * is kept (rmdir refuses it); any failure leaves it as it is.
 */
function releaseSessionDirectory(projectRoot: string, sessionId: string): void {
  try {
    const root = openStateDirectory(projectRoot, path.relative(projectRoot, sessionsRoot(projectRoot)), { create: false });
    if (root === undefined) return;
    try {
      rmdirSync(root.at(sessionId));
    } finally {
      root.close();
    }
  } catch {
    // not empty (the session was saved), or already gone: kept as it is
  }
}

/** The whole file, opened without following a symbolic link at its name (ELOOP when it is one). */
export function readNoFollow(file: string): string {
  const fd = openSync(file, O_RDONLY | O_NOFOLLOW);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to a temporary name beside `file` (under `projectRoot`), then renames it over:
 * never a half-written file, never through a link.
 */
export function replaceFile(projectRoot: string, file: string, text: string): void {
  replaceProjectStateFile(projectRoot, file, text);
}

/** writeSync may write less than asked (a full disk, a signal): the rest, or an error. */
export function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    const count = writeSync(fd, bytes, written, bytes.length - written);
    if (count <= 0) throw new Error(`wrote ${written} of ${bytes.length} bytes`);
    written += count;
  }
}

/**
 * The sessions started on this machine, one JSON line each (`{"v":1,"root","id"}`), in the user's
 * own `~/.mewcode/sessions.jsonl`: a transcript that a project brought with it (an archive, a
 * checkout) is not one of them, and is never resumed as if the user had had that conversation.
 */
export function knownSessionsFile(homeDir: string): string {
  return path.join(homeDir, '.mewcode', 'sessions.jsonl');
}

export function rememberSession(homeDir: string, projectRoot: string, sessionId: string): void {
  const file = knownSessionsFile(homeDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, O_WRONLY | O_CREAT | constants.O_APPEND | O_NOFOLLOW, 0o600);
  try {
    writeFully(fd, `${JSON.stringify({ v: 1, root: resolveRealSync(projectRoot), id: sessionId })}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The ids of this project's sessions started on this machine (the list read once). */
export function knownSessions(homeDir: string, projectRoot: string): Set<string> {
  const ids = new Set<string>();
  let text: string;
  try {
    text = readNoFollow(knownSessionsFile(homeDir));
  } catch {
    return ids;
  }
  const root = resolveRealSync(projectRoot);
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { root?: unknown; id?: unknown };
      if (entry.root === root && typeof entry.id === 'string') ids.add(entry.id);
    } catch {
      // a torn or foreign line: not a session of ours
    }
  }
  return ids;
}

export function lockFile(projectRoot: string, sessionId: string): string {
  return path.join(sessionDirectory(projectRoot, sessionId), 'lock');
}

/**
 * The pid of another live process that holds this session, if any. A dead holder's lock is stale,
 * and so is one whose holder is a zombie or whose pid now names a process started later
 * (sdk/process-liveness.ts).
 */
export function sessionHolder(projectRoot: string, sessionId: string): number | undefined {
  let text: string;
  try {
    text = readProjectStateFile(projectRoot, lockFile(projectRoot, sessionId));
  } catch {
    return undefined;
  }
  const holder = parseHolderRecord(text);
  if (holder === undefined || holder.pid === process.pid) return undefined;
  return holderAlive(holder.pid, holder.startTime) ? holder.pid : undefined;
}

/**
 * Takes the session for this process: fails (with the holder's pid) while another live process
 * holds it, takes over a stale lock. The directory must exist.
 */
export function lockSession(projectRoot: string, sessionId: string): void {
  const file = lockFile(projectRoot, sessionId);
  // Several kernels may share this process (the programmatic API runs each query on its own): one
  // of them may not write into a session another holds, although the lock names this very process.
  const holder = heldHere.has(file) ? process.pid : sessionHolder(projectRoot, sessionId);
  if (holder !== undefined) throw new Error(`session ${sessionId} is open ${holderText(holder)}`);
  unlinkProjectStateFile(projectRoot, file); // stale, or ours from before
  let fd: number;
  try {
    fd = openProjectStateFile(projectRoot, file, O_WRONLY | O_CREAT | O_EXCL);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`session ${sessionId} was just taken by another MewCode process`);
    throw error;
  }
  try {
    writeSync(fd, holderRecord());
  } finally {
    closeSync(fd);
  }
  heldHere.add(file);
}

/** Lock files this process holds, by path: a second kernel of the process must not take one. */
const heldHere = new Set<string>();

/**
 * What a lock error says when a session is open in another kernel of this very process: the
 * editor front end (ui-acp) recognises that case in the error's message, which reaches it as text.
 */
export const HELD_IN_THIS_PROCESS = 'in another session of this process';

/** Where the holder is, for messages: another process, or another session of this one. */
export function holderText(pid: number): string {
  return pid === process.pid ? `${HELD_IN_THIS_PROCESS} (a concurrent query)` : `in another MewCode process (pid ${pid})`;
}

export function unlockSession(projectRoot: string, sessionId: string): void {
  heldHere.delete(lockFile(projectRoot, sessionId));
  if (sessionHolder(projectRoot, sessionId) !== undefined) return; // someone else's now
  try {
    unlinkProjectStateFile(projectRoot, lockFile(projectRoot, sessionId));
  } catch {
    // already gone, or a link now: nothing of ours to remove
  }
}
