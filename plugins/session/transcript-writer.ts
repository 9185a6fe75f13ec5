/**
 * Appends a session's records, one JSON line each (C1, K4). Every line is written before the
 * history append resolves, so a crash of the process loses at most the line being written (what
 * write(2) returned is in the kernel's page cache and survives the process). The fsync that makes
 * it survive a crash of the machine too is started at once for every append but runs on libuv's
 * thread pool: it takes 0.3–1 ms, and waiting for it on the event loop (with meta.json rewritten
 * each time, below) cost about 2.5 ms of every turn gap (BENCHMARKS.md). Appends made while one
 * is in flight share the next fsync (group commit), and closing a transcript fsyncs it
 * synchronously first. So a power loss can lose the appends of the last fraction of a
 * millisecond as well; a late fsync failure is reported like a write failure and stops further
 * appends to that file.
 *
 * meta.json (what listing reads) is rewritten at turn boundaries — a user message, an answer
 * without tool calls, a compaction, a new title or model, and at close — not for the tool
 * exchanges in between, whose rename cost as much as the fsync. The count may lag behind the
 * transcript while a turn runs; the transcript is the record.
 *
 * A file is opened on its first record (sessions that never speak leave nothing behind). A
 * failure is returned to the caller, which reports it once; the session goes on in memory.
 *
 * A repository may ship `.mewcode/sessions/…` with symbolic links in it: every file is reached
 * one name at a time from the project root without following a link (sdk/project-state-dir.ts);
 * a link on the way is refused and the session goes on unsaved, with a warning.
 */
import { close, closeSync, constants, fstatSync, fsync, fsyncSync, open, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { lockSession, prepareSessionDirectory, rememberSession, replaceFile, unlockSession, writeFully } from '../../sdk/session-files.js';
import { openProjectStateFile, readProjectStateFile } from '../../sdk/project-state-dir.js';
import type { CompactionReport } from '../../types/session.js';
import type { Message, ToolResult } from '../../types/messages.js';
import { RECORD_VERSION, metaFile, titleOf, transcriptFile, type SessionMeta } from './layout.js';

const { O_APPEND, O_CREAT, O_RDONLY, O_RDWR } = constants;

export interface Origin {
  sessionId: string;
  agentId: string;
  parentAgentId?: string;
}

export interface AppendInput extends Origin {
  message: Message;
  model?: string;
  /** The provider entry `model` belongs to. */
  provider?: string;
}

/** Where a session's requests go: a provider entry and its model. */
export interface ModelInUse {
  provider: string;
  model: string;
}

export interface TranscriptWriterOptions {
  /** A failure found after the append returned (a background fsync): report it like a write failure. */
  onLateFailure?(origin: Origin, error: Error): void;
  /** The asynchronous fsync (tests inject failures and delays). */
  fsync?(fd: number, done: (error: Error | null) => void): void;
}

/** A transcript's background fsync: one in flight at most, and whether appends since need another. */
interface SyncState {
  inFlight: boolean;
  again: boolean;
  closed: boolean;
  origin: Origin;
}

export class TranscriptWriter {
  readonly #projectRoot: string;
  readonly #homeDir: string;
  readonly #files = new Map<string, number>();
  readonly #meta = new Map<string, SessionMeta>();
  /** Sessions this writer holds the lock of (released on close). */
  readonly #locked = new Set<string>();
  /** Transcripts that failed once: nothing more is appended, so the file never has a hole. */
  readonly #broken = new Map<string, Error>();
  /** Per open descriptor: its background fsync. */
  readonly #syncs = new Map<number, SyncState>();
  /** New files' directories whose background fsync has not finished (#syncDirectorySoon). */
  readonly #directorySyncs = new Set<{ dir: string; file: string; origin: Origin; closed: boolean }>();
  /** Sessions whose meta.json is behind what is in memory (written at the next turn boundary). */
  readonly #metaBehind = new Set<string>();
  readonly #options: TranscriptWriterOptions;
  /** Transcript paths by session and agent: built once (path.join normalises, on every append). */
  readonly #paths = new Map<string, string>();

  constructor(projectRoot: string, homeDir: string, options: TranscriptWriterOptions = {}) {
    this.#projectRoot = projectRoot;
    this.#homeDir = homeDir;
    this.#options = options;
  }

  /** Appends one message record; returns the error that kept it from disk, if any. */
  append(input: AppendInput, now = new Date()): Error | undefined {
    return this.#guarded(() => {
      this.#write(input, { type: 'message', time: now.toISOString(), message: input.message }, now);
      if (input.agentId === 'main') this.#updateMeta(input.sessionId, now, (meta) => ({ ...meta, messages: meta.messages + 1, title: meta.title !== '' ? meta.title : titleFrom(input.message), ...(input.model ? { model: input.model } : {}), ...(input.provider ? { provider: input.provider } : {}) }), endsExchange(input.message));
    });
  }

  /** The provider and model the session's main transcript last recorded (undefined for a new session, or one saved before providers were recorded). */
  lastModel(sessionId: string): Partial<ModelInUse> | undefined {
    const meta = this.#meta.get(sessionId) ?? readMeta(this.#projectRoot, metaFile(this.#projectRoot, sessionId), sessionId);
    return meta?.model === undefined ? undefined : { model: meta.model, ...(meta.provider ? { provider: meta.provider } : {}) };
  }

  /** The session's requests go to another provider or model from here on: a record, and meta.json follows. */
  recordSwitch(origin: Origin, from: Partial<ModelInUse>, to: ModelInUse, now = new Date()): Error | undefined {
    return this.#guarded(() => {
      this.#write(origin, { type: 'provider_switch', time: now.toISOString(), from, to }, now);
      if (origin.agentId === 'main') this.#updateMeta(origin.sessionId, now, (meta) => ({ ...meta, model: to.model, provider: to.provider }), true);
    });
  }

  /**
   * One tool call's result, as soon as it exists: the history gets all results of a batch at once,
   * and a crash in between must not make finished calls look as if they never ran.
   */
  appendResult(origin: Origin, result: ToolResult, now = new Date()): Error | undefined {
    return this.#guarded(() => this.#write(origin, { type: 'tool_result', time: now.toISOString(), result }, now));
  }

  /**
   * A compaction replaced the history: one record holding the new history, so a crash while it is
   * written leaves a torn line (skipped) and the history before it, never half of the new one.
   * `dropped` is the compaction service's report of what it took out (loading ignores it).
   */
  appendCompaction(origin: Origin, history: readonly Message[], dropped?: CompactionReport, now = new Date()): Error | undefined {
    return this.#guarded(() => {
      this.#write(origin, { type: 'compact', time: now.toISOString(), ...(dropped ? { dropped } : {}), messages: history }, now);
      if (origin.agentId === 'main') this.#updateMeta(origin.sessionId, now, (meta) => ({ ...meta, messages: history.length }), true);
    });
  }

  /** A resumed session: take it (its lock) and mark the transcript, before anything is appended. */
  open(origin: Origin, now = new Date()): Error | undefined {
    return this.#guarded(() => void this.#open(this.#fileOf(origin), origin, now));
  }

  /**
   * A sub-agent's run ended: its transcript is closed now, not at exit, so a long session with many
   * sub-agents does not hold a descriptor for each (a later run of the same one opens it again).
   */
  closeTranscript(origin: Origin): void {
    const file = this.#fileOf(origin);
    const fd = this.#files.get(file);
    if (fd === undefined) return;
    this.#files.delete(file);
    this.#closeFile(file, fd);
  }

  /** Open transcripts (for tests and the long-session benchmark). */
  get openFiles(): number {
    return this.#files.size;
  }

  close(): void {
    for (const sessionId of this.#metaBehind) this.#guarded(() => this.#writeMeta(sessionId));
    this.#metaBehind.clear();
    for (const [file, fd] of this.#files) this.#closeFile(file, fd);
    this.#files.clear();
    this.#syncDirectoriesNow();
    for (const sessionId of this.#locked) unlockSession(this.#projectRoot, sessionId);
    this.#locked.clear();
  }

  /** The lines whose background fsync has not finished are fsynced now, before the descriptor goes. */
  #closeFile(file: string, fd: number): void {
    const sync = this.#syncs.get(fd);
    this.#syncs.delete(fd);
    if (sync) sync.closed = true; // a callback still to come must not touch a reused descriptor number
    try {
      if (sync && (sync.inFlight || sync.again)) fsyncSync(fd);
    } catch (error) {
      this.#lateFailure(file, sync!.origin, error);
    }
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }

  /** fsync in the background; appends made meanwhile share the next one. */
  #syncSoon(file: string, fd: number, origin: Origin): void {
    if (this.#broken.has(file)) return;
    let sync = this.#syncs.get(fd);
    if (!sync) {
      sync = { inFlight: false, again: false, closed: false, origin };
      this.#syncs.set(fd, sync);
    }
    if (sync.inFlight) {
      sync.again = true;
      return;
    }
    const state = sync;
    const run = (): void => {
      state.inFlight = true;
      state.again = false;
      (this.#options.fsync ?? fsync)(fd, (error) => {
        state.inFlight = false;
        if (state.closed) return;
        if (error) return this.#lateFailure(file, state.origin, error);
        if (state.again) run();
      });
    };
    run();
  }

  /**
   * A new file's directory is fsynced in the background, like the file's lines (#syncSoon), and
   * a failure is reported as theirs: synchronously it held up the first request (≈ 1 ms here, more
   * on a laptop's disk) for no stronger guarantee, since the lines themselves are synced later.
   */
  #syncDirectorySoon(dir: string, file: string, origin: Origin): void {
    const pending = { dir, file, origin, closed: false };
    this.#directorySyncs.add(pending);
    const done = (error: Error | null): void => {
      if (pending.closed) return; // close() synced it itself
      this.#directorySyncs.delete(pending);
      if (error) this.#lateFailure(file, origin, error);
    };
    open(dir, O_RDONLY, (openError, fd) => {
      if (openError) return done(openError);
      fsync(fd, (error) => {
        close(fd, () => undefined);
        done(error);
      });
    });
  }

  /** At close, a directory whose background fsync has not finished is fsynced now. */
  #syncDirectoriesNow(): void {
    for (const pending of this.#directorySyncs) {
      pending.closed = true;
      const failed = this.#guarded(() => {
        const fd = openSync(pending.dir, O_RDONLY);
        try {
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      });
      if (failed) this.#lateFailure(pending.file, pending.origin, failed);
    }
    this.#directorySyncs.clear();
  }

  #lateFailure(file: string, origin: Origin, error: unknown): void {
    if (this.#broken.has(file)) return; // reported already
    const failure = error instanceof Error ? error : new Error(String(error));
    this.#broken.set(file, failure);
    this.#options.onLateFailure?.(origin, failure);
  }

  #fileOf(origin: Origin): string {
    const key = `${origin.sessionId}/${origin.agentId}`;
    let file = this.#paths.get(key);
    if (file === undefined) {
      file = transcriptFile(this.#projectRoot, origin.sessionId, origin.agentId);
      this.#paths.set(key, file);
    }
    return file;
  }

  #guarded(write: () => void): Error | undefined {
    try {
      write();
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  #write(origin: Origin, record: object, now: Date): void {
    const file = this.#fileOf(origin);
    const broken = this.#broken.get(file);
    if (broken) throw new Error(`not saved since an earlier failure (${broken.message})`);
    try {
      const fd = this.#open(file, origin, now);
      writeLine(fd, { v: RECORD_VERSION, ...record });
      this.#syncSoon(file, fd, origin);
    } catch (error) {
      this.#broken.set(file, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  #open(file: string, origin: Origin, now: Date): number {
    const open = this.#files.get(file);
    if (open !== undefined) return open;
    const dir = path.dirname(file);
    prepareSessionDirectory(this.#projectRoot, dir, 'transcripts');
    // One process per session: a second would interleave its lines with ours.
    if (!this.#locked.has(origin.sessionId)) {
      lockSession(this.#projectRoot, origin.sessionId);
      this.#locked.add(origin.sessionId);
    }
    const fd = openProjectStateFile(this.#projectRoot, file, O_RDWR | O_APPEND | O_CREAT, { create: true });
    const size = fstatSync(fd).size;
    if (size === 0) {
      this.#syncDirectorySoon(dir, file, origin); // the new file's name is durable too
      // Only a session started here may later be resumed here (see isKnownSession).
      if (origin.agentId === 'main') rememberSession(this.#homeDir, this.#projectRoot, origin.sessionId);
    }
    // A crash mid-line left no newline: the next record must not be glued to the fragment.
    else if (lastByte(fd, size) !== 0x0a) writeFully(fd, '\n');
    this.#files.set(file, fd);
    // A resumed session appends to its old file; each process's part starts with what it belongs to.
    writeLine(fd, { v: RECORD_VERSION, type: 'session', id: origin.sessionId, agent: origin.agentId, ...(origin.parentAgentId ? { parent: origin.parentAgentId } : {}), time: now.toISOString(), cwd: this.#projectRoot });
    this.#syncSoon(file, fd, origin);
    return fd;
  }

  /**
   * meta.json is what listing reads; rewritten atomically, not fsynced (the transcript is the
   * record), and only at a turn boundary or when what listing shows besides the count changes.
   */
  #updateMeta(sessionId: string, now: Date, change: (meta: SessionMeta) => SessionMeta, boundary: boolean): void {
    // After a resume the count and title go on from what is on disk.
    const stored = this.#meta.get(sessionId);
    const previous = stored ?? readMeta(this.#projectRoot, metaFile(this.#projectRoot, sessionId), sessionId) ?? { v: RECORD_VERSION, id: sessionId, title: '', messages: 0, created: now.toISOString(), updated: now.toISOString() };
    const meta: SessionMeta = { ...change(previous), updated: now.toISOString() };
    this.#meta.set(sessionId, meta);
    if (boundary || stored === undefined || meta.title !== previous.title || meta.model !== previous.model || meta.provider !== previous.provider) this.#writeMeta(sessionId);
    else this.#metaBehind.add(sessionId);
  }

  #writeMeta(sessionId: string): void {
    const meta = this.#meta.get(sessionId);
    if (!meta) return;
    this.#metaBehind.delete(sessionId);
    replaceFile(this.#projectRoot, metaFile(this.#projectRoot, sessionId), `${JSON.stringify(meta)}\n`);
  }
}

/** The meta a resumed session continues from (absent or unreadable: a fresh count). */
export function readMeta(projectRoot: string, file: string, id: string): SessionMeta | undefined {
  try {
    const meta = JSON.parse(readProjectStateFile(projectRoot, file)) as Partial<SessionMeta>;
    const valid = meta.id === id && typeof meta.title === 'string' && Number.isInteger(meta.messages) && typeof meta.created === 'string' && typeof meta.updated === 'string' && (meta.model === undefined || typeof meta.model === 'string') && (meta.provider === undefined || typeof meta.provider === 'string');
    return valid ? (meta as SessionMeta) : undefined;
  } catch {
    return undefined;
  }
}

function titleFrom(message: Message): string {
  return message.role === 'user' ? titleOf(message.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ')) : '';
}

/** A turn boundary: the user spoke, or the model answered without asking for tools. */
function endsExchange(message: Message): boolean {
  return message.role === 'user' || (message.role === 'assistant' && message.toolCalls.length === 0);
}

function writeLine(fd: number, record: object): void {
  writeFully(fd, `${JSON.stringify(record)}\n`);
}

function lastByte(fd: number, size: number): number {
  const buffer = Buffer.alloc(1);
  readSync(fd, buffer, 0, 1, size - 1);
  return buffer[0] ?? 0x0a;
}
