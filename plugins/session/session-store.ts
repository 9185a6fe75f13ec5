/**
 * Reading saved sessions (C2–C4). Loading is forgiving, since the file may come from a crash:
 * a line that is not a valid record is skipped and counted, a half-written last line is ignored,
 * history starts after the last `compact` marker, and the kernel's resume then answers tool calls
 * whose results never arrived (kernel `startableHistory`), so the next request is valid.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Message, ToolResult } from '../../types/messages.js';
import { INTERRUPTED_RESULT } from '../../types/session.js';
import type { LoadedSession, SessionStore, SessionSummary } from '../../types/session-store.js';
import { MAX_AGE_MS, RECORD_VERSION, SESSION_ID, metaFile, sessionsDir, titleOf, transcriptFile, type SessionMeta } from './layout.js';
import { readMeta } from './transcript-writer.js';
import { knownSessions, knownSessionsFile, sessionHolder } from '../../sdk/session-files.js';
import { isStatePathRefused, openStateDirectory, readProjectStateFile, removeStateEntry, type StateDirectory } from '../../sdk/project-state-dir.js';
import { compareCodeUnits } from '../../sdk/plain-intl.js';

export class FileSessionStore implements SessionStore {
  readonly #projectRoot: string;
  readonly #homeDir: string;

  constructor(projectRoot: string, homeDir: string) {
    this.#projectRoot = projectRoot;
    this.#homeDir = homeDir;
  }

  async list(): Promise<SessionSummary[]> {
    const summaries: SessionSummary[] = [];
    for (const id of this.ids()) {
      let summary: SessionSummary | undefined;
      try {
        summary = this.summary(id);
      } catch {
        summary = undefined; // unreadable (a planted link, a permission): not offered
      }
      if (summary) summaries.push(summary);
    }
    return summaries.sort((a, b) => compareCodeUnits(b.updated, a.updated) || compareCodeUnits(b.id, a.id));
  }

  /**
   * The newest session started on this machine, held by another process or not: `--continue`
   * means that one, and `load` refuses it while it is open elsewhere (quietly continuing an older
   * session instead once looked like the newest had lost its last turns).
   */
  async latest(): Promise<string | undefined> {
    const known = knownSessions(this.#homeDir, this.#projectRoot);
    return (await this.list()).find((summary) => known.has(summary.id))?.id;
  }

  async load(id: string): Promise<LoadedSession> {
    if (!SESSION_ID.test(id)) throw new Error(`"${id}" is not a session id (expected YYYYMMDD-HHMMSS-xxxx; \`mewcode sessions\` lists them)`);
    const holder = sessionHolder(this.#projectRoot, id);
    if (holder !== undefined) throw new Error(`session ${id} is open in another MewCode process (pid ${holder}); continue it there, or once it has ended`);
    const file = transcriptFile(this.#projectRoot, id, 'main');
    let text: string;
    try {
      text = readProjectStateFile(this.#projectRoot, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new Error(`no session ${id} in this project (${file} does not exist)`);
      if (code === 'ELOOP' || isStatePathRefused(error)) throw new Error(`${(error as Error).message}: not a transcript MewCode wrote; not resumed`);
      throw new Error(`cannot read ${file}: ${(error as Error).message}`);
    }
    // A transcript that came with the project (an archive, a checkout) would put someone else's
    // words in the model's mouth: only sessions started on this machine are resumed.
    if (!knownSessions(this.#homeDir, this.#projectRoot).has(id)) {
      throw new Error(`session ${id} was not started on this machine (${knownSessionsFile(this.#homeDir)} does not list it): it came with the project; not resumed`);
    }
    // Committed to the repository: it came with it, whatever a local list says. (Loaded here, on
    // a resume only: the git index reader stays off the start-up path.)
    const { isTrackedByGit } = await import('../../config/git-tracked.js');
    const tracked = await isTrackedByGit(file);
    if (tracked.tracked && tracked.warning === undefined) throw new Error(`${file} is tracked by git: it came with the repository, not from a session on this machine; not resumed`);
    const parsed = parseTranscript(text);
    // Lines this MewCode cannot read would be dropped, and its own records appended after them:
    // the newer MewCode would then find a transcript it did not write. Left as it is.
    if (parsed.newerVersion !== undefined) throw new Error(`${file} was written by a newer MewCode (record version ${parsed.newerVersion}); upgrade MewCode to continue it`);
    // The last activity: meta.json's, else the file's own time (never a second parse).
    const updated = this.meta(id)?.updated;
    const last = updated === undefined ? statSync(file).mtimeMs : Date.parse(updated);
    return { sessionId: id, agentId: 'main', messages: parsed.messages, skippedLines: parsed.skipped, droppedResults: parsed.droppedResults, cutLastLine: parsed.cutLastLine, idleMs: Math.max(0, Date.now() - last), file };
  }

  meta(id: string): SessionMeta | undefined {
    return readMeta(this.#projectRoot, metaFile(this.#projectRoot, id), id);
  }

  /**
   * Removes sessions whose last activity is older than 30 days; only directories named as session
   * ids, never one in use by this process (`active`: resumed or written since start-up).
   */
  removeExpired(now = Date.now(), active: ReadonlySet<string> = new Set()): string[] {
    const removed: string[] = [];
    // Reached and removed without following links (sdk/project-state-dir.ts): a committed
    // `.mewcode/sessions -> ~` is refused (thrown, the caller warns), never emptied.
    const root = this.sessionsDirectory();
    if (root === undefined) return removed;
    try {
      for (const id of this.ids(root)) {
        if (active.has(id) || sessionHolder(this.#projectRoot, id) !== undefined) continue;
        const touched = lstatSync(root.at(path.join(id, 'conversation.jsonl')), { throwIfNoEntry: false })?.mtimeMs ?? lstatSync(root.at(id)).mtimeMs;
        if (now - touched <= MAX_AGE_MS) continue;
        removeStateEntry(root, id);
        removed.push(id);
      }
    } finally {
      root.close();
    }
    return removed;
  }

  /** The sessions root, checked for links; undefined when there is none yet. */
  private sessionsDirectory(): StateDirectory | undefined {
    return openStateDirectory(this.#projectRoot, path.relative(this.#projectRoot, sessionsDir(this.#projectRoot)), { create: false });
  }

  /** Session directories (real ones: a link named like a session is not one). */
  private ids(root?: StateDirectory): string[] {
    if (root !== undefined) return listIds(root);
    let opened: StateDirectory | undefined;
    try {
      opened = this.sessionsDirectory();
      return opened === undefined ? [] : listIds(opened);
    } catch {
      return []; // a linked sessions root: nothing of ours to list
    } finally {
      opened?.close();
    }
  }

  private summary(id: string): SessionSummary | undefined {
    const meta = this.meta(id);
    if (meta) return { id, title: meta.title, ...(meta.model ? { model: meta.model } : {}), messages: meta.messages, created: meta.created, updated: meta.updated };
    // No meta (an older or interrupted write): the transcript itself, read once.
    const file = transcriptFile(this.#projectRoot, id, 'main');
    if (!existsSync(file)) return undefined;
    const { messages } = parseTranscript(readProjectStateFile(this.#projectRoot, file));
    const firstUser = messages.find((message) => message.role === 'user');
    const time = statSync(file).mtime.toISOString();
    return { id, title: firstUser?.role === 'user' ? titleOf(firstUser.content.map((b) => (b.type === 'text' ? b.text : '')).join(' ')) : '', messages: messages.length, created: time, updated: time };
  }
}

function listIds(root: StateDirectory): string[] {
  try {
    return readdirSync(root.at('.'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && SESSION_ID.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

export interface ParsedTranscript {
  messages: Message[];
  /** Complete lines that are not a record this MewCode reads (damaged, or another version's). */
  skipped: number;
  /** Tool results dropped because the call they answer was on a line lost or damaged. */
  droppedResults: number;
  /** The last line has no newline: cut off mid-write (a crash, a full disk); not a record. */
  cutLastLine: boolean;
  /** The highest record version above this MewCode's, when a newer MewCode wrote some lines. */
  newerVersion?: number;
}

export function parseTranscript(text: string): ParsedTranscript {
  // What follows the last newline is '' or a line cut off mid-write by a crash: never a record.
  const lines = text.split('\n');
  const complete = lines.slice(0, -1);
  let newerVersion: number | undefined;
  let messages: Message[] = [];
  // Results recorded one by one while a batch ran; the tool message that follows supersedes them.
  let pending = new Map<string, ToolResult>();
  let skipped = 0;
  for (const line of complete) {
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    if (record === undefined) {
      // Only a line this MewCode cannot read is parsed again, for the version it claims.
      const version = versionOf(line);
      if (version !== undefined && version > RECORD_VERSION) newerVersion = Math.max(newerVersion ?? version, version);
      skipped++;
      continue;
    }
    if (record.type === 'compact') {
      messages = [...(record.messages ?? [])];
      pending = new Map();
    } else if (record.type === 'tool_result') pending.set(record.result.toolCallId, record.result);
    else if (record.type === 'message') {
      // A batch interrupted by a crash, then resumed: its recorded results are kept wherever the
      // history went on, so every later load tells the same story.
      if (record.message.role !== 'tool') answerPending(messages, pending);
      messages.push(record.message);
      pending = new Map();
    }
  }
  answerPending(messages, pending);
  const valid = withoutOrphanResults(messages);
  const cutLastLine = (lines.at(-1) ?? '').trim() !== '';
  return { messages: valid, skipped, droppedResults: messages.length - valid.length, cutLastLine, ...(newerVersion !== undefined ? { newerVersion } : {}) };
}

/** The record version a line claims (`"v":N`), read only when the line is JSON. */
function versionOf(line: string): number | undefined {
  try {
    const value = JSON.parse(line) as { v?: unknown } | null;
    return typeof value?.v === 'number' && Number.isInteger(value.v) ? value.v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * After an assistant turn whose calls got no tool message: the calls that finished keep their
 * recorded results, the others are answered as interrupted (they may have run).
 */
function answerPending(messages: Message[], pending: ReadonlyMap<string, ToolResult>): void {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || last.toolCalls.length === 0 || pending.size === 0) return;
  messages.push({ role: 'tool', results: last.toolCalls.map((call) => pending.get(call.id) ?? { toolCallId: call.id, isError: true, content: INTERRUPTED_RESULT }) });
}

/** A tool message that does not answer the assistant turn before it (a line lost to a failed write) would make every request invalid. */
function withoutOrphanResults(messages: readonly Message[]): Message[] {
  const kept: Message[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      const before = kept.at(-1);
      const calls = before?.role === 'assistant' ? before.toolCalls : [];
      if (message.results.length === 0 || !message.results.every((result) => calls.some((call) => call.id === result.toolCallId))) continue;
    }
    kept.push(message);
  }
  return kept;
}

/** `provider_switch` marks where the session's requests moved to another provider; it holds no message. */
type TranscriptRecord = { type: 'session' } | { type: 'provider_switch' } | { type: 'compact'; messages?: Message[] } | { type: 'message'; message: Message } | { type: 'tool_result'; result: ToolResult };

function parseRecord(line: string): TranscriptRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { v?: unknown; type?: unknown; message?: unknown; result?: unknown; messages?: unknown };
  if (record.v !== RECORD_VERSION) return undefined;
  if (record.type === 'session') return { type: 'session' };
  if (record.type === 'provider_switch') return { type: 'provider_switch' };
  if (record.type === 'compact') {
    if (record.messages === undefined) return { type: 'compact' };
    return Array.isArray(record.messages) && record.messages.every(isMessage) ? { type: 'compact', messages: record.messages } : undefined;
  }
  if (record.type === 'message' && isMessage(record.message)) return { type: 'message', message: record.message };
  if (record.type === 'tool_result' && isToolResult(record.result)) return { type: 'tool_result', result: record.result };
  return undefined;
}

function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as { toolCallId?: unknown; content?: unknown; isError?: unknown };
  return typeof result.toolCallId === 'string' && typeof result.content === 'string' && typeof result.isError === 'boolean';
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { role?: unknown; content?: unknown; toolCalls?: unknown; results?: unknown };
  if (message.role === 'user') return Array.isArray(message.content);
  if (message.role === 'assistant') return Array.isArray(message.content) && Array.isArray(message.toolCalls);
  if (message.role === 'tool') return Array.isArray(message.results);
  return false;
}
