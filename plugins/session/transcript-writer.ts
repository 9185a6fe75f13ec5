/**
 * Appends a session's records, one JSON line each, and fsyncs every append before the history
 * append resolves (SPEC C1, K4), so a crash loses at most the line being written. A file is opened
 * on its first record (sessions that never speak leave nothing behind). A failure is returned to
 * the caller, which reports it once; the session goes on in memory.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { resolveRealSync } from '../../sdk/path-containment.js';
import type { Message } from '../../types/messages.js';
import { RECORD_VERSION, metaFile, sessionsDir, titleOf, transcriptFile, type SessionMeta } from './layout.js';

export interface AppendInput {
  sessionId: string;
  agentId: string;
  parentAgentId?: string;
  message: Message;
  model?: string;
}

export class TranscriptWriter {
  readonly #projectRoot: string;
  readonly #files = new Map<string, number>();
  readonly #meta = new Map<string, SessionMeta>();

  constructor(projectRoot: string) {
    this.#projectRoot = projectRoot;
  }

  /** Appends one message record; returns the error that kept it from disk, if any. */
  append(input: AppendInput, now = new Date()): Error | undefined {
    try {
      const file = transcriptFile(this.#projectRoot, input.sessionId, input.agentId);
      const fd = this.#open(file, input, now);
      writeLine(fd, { v: RECORD_VERSION, type: 'message', time: now.toISOString(), message: input.message });
      if (input.agentId === 'main') this.#updateMeta(input, now);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  close(): void {
    for (const fd of this.#files.values()) {
      try {
        closeSync(fd);
      } catch {
        // already closed or never valid: nothing is lost, every line was fsynced
      }
    }
    this.#files.clear();
  }

  #open(file: string, input: AppendInput, now: Date): number {
    const open = this.#files.get(file);
    if (open !== undefined) return open;
    this.#checkNoLinks(path.dirname(file));
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.#ignoreInGit();
    const fd = openSync(file, 'a', 0o600);
    this.#files.set(file, fd);
    // A resumed session appends to its old file; a new file starts with what it belongs to.
    writeLine(fd, { v: RECORD_VERSION, type: 'session', id: input.sessionId, agent: input.agentId, ...(input.parentAgentId ? { parent: input.parentAgentId } : {}), time: now.toISOString(), cwd: this.#projectRoot });
    return fd;
  }

  /**
   * A repository may ship `.mewcode/sessions` (or a level of it) as a symlink: transcripts are
   * written only where their path says, checked before any directory is created.
   */
  #checkNoLinks(dir: string): void {
    const expected = path.join(resolveRealSync(this.#projectRoot), path.relative(this.#projectRoot, dir));
    const real = resolveRealSync(dir);
    if (real !== expected) {
      throw new Error(`${path.relative(this.#projectRoot, dir)} leads to ${real} through a symbolic link; transcripts are written only inside the project`);
    }
  }

  /** Transcripts hold what was said and read, secrets included: never offered to `git add`. */
  #ignoreInGit(): void {
    const ignore = path.join(sessionsDir(this.#projectRoot), '.gitignore');
    if (!existsSync(ignore)) writeFileSync(ignore, '# MewCode session transcripts: local only\n*\n', { mode: 0o600 });
  }

  /** meta.json is what listing reads; rewritten atomically, not fsynced (the transcript is the record). */
  #updateMeta(input: AppendInput, now: Date): void {
    const previous = this.#meta.get(input.sessionId) ?? { v: RECORD_VERSION, id: input.sessionId, title: '', messages: 0, created: now.toISOString(), updated: now.toISOString() };
    const title = previous.title !== '' ? previous.title : input.message.role === 'user' ? titleOf(input.message.content.map((block) => (block.type === 'text' ? block.text : '')).join(' ')) : '';
    const meta: SessionMeta = { ...previous, title, messages: previous.messages + 1, updated: now.toISOString(), ...(input.model ? { model: input.model } : {}) };
    this.#meta.set(input.sessionId, meta);
    const target = metaFile(this.#projectRoot, input.sessionId);
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
    renameSync(temporary, target);
  }

  /** Carries on counting after a resume. */
  resumeMeta(meta: SessionMeta): void {
    this.#meta.set(meta.id, meta);
  }
}

function writeLine(fd: number, record: object): void {
  writeSync(fd, `${JSON.stringify(record)}\n`);
  fsyncSync(fd);
}
