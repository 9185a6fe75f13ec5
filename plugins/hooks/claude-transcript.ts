/**
 * The transcript a Claude Code hook is pointed at (`transcript_path`), in Claude Code's shape: one
 * JSON object per line, `{"type": "user" | "assistant", "message": {"role", "content"}, …}`, the
 * assistant's tool calls as `tool_use` blocks (Claude's tool names), each result as a user line
 * with a `tool_result` block. MewCode's own session file (`conversation.jsonl`) has another shape
 * (`{"type": "message", "message": {…, "toolCalls"}}`), so a script that reads the transcript
 * with `jq 'select(.type == "assistant") | .message.content'` would find nothing in it.
 *
 * Written when a hook is about to run (the payload is built then) and when a compaction ends:
 * everything the session's history holds by that moment is in the file, which therefore exists
 * when the hook reads it. The file is only ever appended to, across processes too, as Claude
 * Code's is: a continued session's first write reads the file's end (transcript-tail.ts), finds
 * which of the history's messages are there already and appends the rest, so a hook that reads
 * it by uuid or keeps an offset sees earlier lines unchanged. A compaction or /clear that replaced
 * the history adds a `compact_boundary` line and the new history. Each line's uuid is derived from
 * the one before it and its content (transcript-ids.ts), so a file rebuilt after it went missing
 * gets the same ids; its timestamp is when the message joined the history (`messageAppended`), or
 * when it was written for a message no hook saw join. A sub-agent's lines come from
 * `messageAppended`, kept until its next hook. Files live beside the session's own, written one
 * name at a time without following a link (sdk/project-state-dir.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants } from 'node:fs';
import path from 'node:path';
import { claudeToolName } from '../../sdk/claude-tool-names.js';
import { claudeToolInput } from './claude-tool-inputs.js';
import { prepareSessionDirectory, replaceFile, sessionDirectory, writeFully } from '../../sdk/session-files.js';
import { openProjectStateFile } from '../../sdk/project-state-dir.js';
import type { MessageAppendedContext, SessionContext } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import type { KernelApi } from '../../types/plugin.js';
import { lineUuid } from './transcript-ids.js';
import { readTranscriptTail, type TranscriptTail } from './transcript-tail.js';

/** Where a session's (or a sub-agent's) Claude-shaped transcript is. */
export function claudeTranscriptPath(projectRoot: string, sessionId: string, agentId = 'main'): string {
  const dir = sessionDirectory(projectRoot, sessionId);
  return agentId === 'main' ? path.join(dir, 'claude-transcript.jsonl') : path.join(dir, 'agents', `${agentId}.claude.jsonl`);
}

/** What one transcript has been given so far. */
interface Written {
  /** Main session: how many of its history's messages are in the file, and the last of them (a replaced history no longer holds it). */
  count: number;
  last?: Message;
  parent: string | null;
  /**
   * When each line since the last boundary happened, by a digest of its content: the messages a
   * compaction kept are written again after the boundary, with the time they had.
   */
  times: Map<string, string>;
  /** A compaction was reported (postCompact): the next write starts with a boundary carrying this. */
  compaction?: CompactionMetadata;
}

/** Claude Code's `compactMetadata` on a boundary line. */
export interface CompactionMetadata {
  trigger: 'manual' | 'auto';
  preTokens: number;
}

/** One line to write: its Claude entry and when its message happened (undefined: not known, the time of writing). */
interface Pending {
  entry: Record<string, unknown>;
  time?: string;
}

export class ClaudeTranscripts {
  private readonly written = new Map<string, Written>();
  /** A sub-agent's messages since its transcript was last written, with when each was appended. */
  private readonly pending = new Map<string, Pending[]>();
  /** The main session's messages: when each joined the history, by its index there. */
  private readonly stamps = new Map<string, Map<number, string>>();
  /** Compactions reported before this process first wrote the transcript. */
  private readonly announced = new Map<string, CompactionMetadata>();
  private readonly failed = new Set<string>();

  constructor(private readonly kernel: KernelApi, private readonly warn: (message: string) => void) {}

  /** A message joined a history: a sub-agent's is kept for its transcript, the main session's time is noted. */
  appended(message: Message, context: SessionContext & Partial<Pick<MessageAppendedContext, 'index'>>): void {
    const key = `${context.sessionId}/${context.agentId}`;
    const time = new Date().toISOString();
    if (context.agentId === 'main') {
      if (context.index === undefined) return;
      let stamps = this.stamps.get(key);
      if (!stamps) this.stamps.set(key, (stamps = new Map()));
      stamps.set(context.index, time);
      return;
    }
    const entries = claudeEntries(message, { projectRoot: context.projectRoot, homeDir: context.homeDir }).map((entry) => ({ entry, time }));
    const queued = this.pending.get(key);
    if (queued) queued.push(...entries);
    else this.pending.set(key, entries);
  }

  /** A compaction replaced the main history: its boundary (with Claude Code's metadata) and the new history are written now. */
  compacted(metadata: CompactionMetadata, context: SessionContext): void {
    if (context.agentId !== 'main') return;
    const key = `${context.sessionId}/${context.agentId}`;
    // The old indices no longer name these messages.
    this.stamps.delete(key);
    const state = this.written.get(key);
    if (state) state.compaction = metadata;
    else this.announced.set(key, metadata);
    this.path(context);
  }

  /** Brings the transcript of `context` up to date and returns its path. */
  path(context: SessionContext): string {
    const file = claudeTranscriptPath(context.projectRoot, context.sessionId, context.agentId);
    try {
      this.update(file, context);
    } catch (error) {
      // Read again from the file next time (what this write held is not in it).
      this.written.delete(`${context.sessionId}/${context.agentId}`);
      // Once per file: every later hook would fail the same way (a link planted on the way, a read-only project).
      if (!this.failed.has(file)) this.warn(`hooks: the transcript for hooks (${file}) could not be written: ${(error as Error).message}; hooks get its path all the same`);
      this.failed.add(file);
    }
    return file;
  }

  private update(file: string, context: SessionContext): void {
    const key = `${context.sessionId}/${context.agentId}`;
    let state = this.written.get(key);
    // First write in this process: what is the file's end (undefined: no file, written whole)?
    const tail = state === undefined ? readTranscriptTail(context.projectRoot, file) : undefined;
    const missing = state === undefined && tail === undefined;
    if (state === undefined) {
      const compaction = this.announced.get(key);
      this.announced.delete(key);
      state = { count: 0, parent: null, times: new Map(), ...(compaction ? { compaction } : {}) };
    }
    this.written.set(key, state);
    const lines: string[] = [];
    let entries: Pending[];
    let startsEpoch = false;
    if (context.agentId === 'main') {
      const session = this.kernel.session;
      const history = session.sessionId === context.sessionId ? session.conversation.messages : [];
      const stamps = this.stamps.get(key);
      const pendingOf = (from: number): Pending[] => history.slice(from).flatMap((message, offset) => claudeEntries(message, { projectRoot: context.projectRoot, homeDir: context.homeDir }).map((entry) => ({ entry, time: stamps?.get(from + offset) })));
      if (tail !== undefined && !tail.empty) {
        // A continued session: append after what an earlier process wrote.
        const all = pendingOf(0);
        const known = alreadyWritten(tail, all);
        state.parent = lastUuid(tail);
        for (const record of sinceBoundary(tail)) if (typeof record.timestamp === 'string') state.times.set(contentDigest(record), record.timestamp);
        startsEpoch = known === undefined || state.compaction !== undefined;
        if (startsEpoch) lines.push(this.boundary(state, context));
        entries = all.slice(startsEpoch ? 0 : known);
        if (!tail.endsWithNewline) lines.unshift('\n');
      } else {
        if (state.compaction || (state.count > 0 && history[state.count - 1] !== state.last)) {
          // Compaction or /clear replaced the history: Claude Code marks the boundary and goes on.
          lines.push(this.boundary(state, context));
          startsEpoch = true;
          state.count = 0;
        }
        entries = pendingOf(state.count);
      }
      state.count = history.length;
      state.last = history.at(-1);
      // Every message noted so far is being written now.
      stamps?.clear();
    } else {
      entries = this.pending.get(key) ?? [];
      this.pending.delete(key);
      if (tail !== undefined && !tail.empty) {
        state.parent = lastUuid(tail);
        if (!tail.endsWithNewline) lines.push('\n');
      }
    }
    delete state.compaction;
    const now = new Date().toISOString();
    const before = state.times;
    if (startsEpoch) state.times = new Map();
    for (const { entry, time } of entries) {
      const digest = contentDigest(entry);
      const timestamp = time ?? before.get(digest) ?? now;
      state.times.set(digest, timestamp);
      lines.push(this.line(state, context, entry, timestamp));
    }
    const text = lines.join('');
    if (missing) {
      // No file yet (or it went missing): written whole, the same ids as before.
      prepareSessionDirectory(context.projectRoot, path.dirname(file), 'hook transcripts');
      replaceFile(context.projectRoot, file, text);
      return;
    }
    if (text === '') return;
    const fd = openProjectStateFile(context.projectRoot, file, constants.O_WRONLY | constants.O_APPEND);
    try {
      writeFully(fd, text);
    } finally {
      closeSync(fd);
    }
  }

  /** Claude Code's boundary: a system line whose parent is none, the line before it its logical parent. */
  private boundary(state: Written, context: SessionContext): string {
    const logical = state.parent;
    const entry = { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', isMeta: false, logicalParentUuid: logical, ...(state.compaction ? { compactMetadata: state.compaction } : { compactMetadata: {} }) };
    const uuid = lineUuid(context.sessionId, context.agentId, logical, entry);
    const record = { parentUuid: null, isSidechain: false, sessionId: context.sessionId, cwd: context.projectRoot, ...entry, uuid, timestamp: new Date().toISOString() };
    state.parent = uuid;
    return `${JSON.stringify(record)}\n`;
  }

  private line(state: Written, context: SessionContext, entry: Record<string, unknown>, timestamp: string): string {
    const uuid = lineUuid(context.sessionId, context.agentId, state.parent, entry);
    const record = { parentUuid: state.parent, isSidechain: context.agentId !== 'main', sessionId: context.sessionId, cwd: context.projectRoot, ...(context.agentId !== 'main' ? { agentId: context.agentId } : {}), ...entry, uuid, timestamp };
    state.parent = uuid;
    return `${JSON.stringify(record)}\n`;
  }
}

/** A line's content (its type and message) as a short digest: what identifies a message across a compaction. */
function contentDigest(entry: Record<string, unknown>): string {
  return createHash('sha1').update(JSON.stringify({ type: entry.type, message: entry.message })).digest('base64');
}

/** The file's message lines since its last boundary (those in the window). */
function sinceBoundary(tail: TranscriptTail): Record<string, unknown>[] {
  let boundary = -1;
  for (let index = tail.records.length - 1; index >= 0; index--) {
    if (tail.records[index]!.subtype === 'compact_boundary') {
      boundary = index;
      break;
    }
  }
  return tail.records.slice(boundary + 1).filter((record) => record.type === 'user' || record.type === 'assistant');
}

/** The uuid of the file's last line we understand (null: none). */
function lastUuid(tail: TranscriptTail): string | null {
  for (let index = tail.records.length - 1; index >= 0; index--) {
    const uuid = tail.records[index]!.uuid;
    if (typeof uuid === 'string') return uuid;
  }
  return null;
}

/**
 * How many of `all` (the history's lines, oldest first) the file already ends with, since its last
 * boundary: undefined when the file's lines are not a start of this history (a compaction or
 * /clear replaced it since, and nothing marked it).
 */
function alreadyWritten(tail: TranscriptTail, all: readonly Pending[]): number | undefined {
  const since = sinceBoundary(tail).map((record) => JSON.stringify({ type: record.type, message: record.message }));
  const whole = tail.fromStart || tail.records.some((record) => record.subtype === 'compact_boundary');
  const keys = all.map((pending) => JSON.stringify({ type: pending.entry.type, message: pending.entry.message }));
  const matchesAt = (start: number) => start + since.length <= keys.length && since.every((key, offset) => keys[start + offset] === key);
  // The whole run since the boundary is in the window: it must be where the history starts.
  if (whole) return matchesAt(0) ? since.length : undefined;
  if (since.length === 0) return undefined;
  // Only its end is: the latest place in the history that it matches.
  for (let start = keys.length - since.length; start >= 0; start--) if (matchesAt(start)) return start + since.length;
  return undefined;
}

/**
 * One MewCode message as Claude Code's transcript entries (a tool message: one per result); a
 * call's input in Claude's fields, as the hook payloads give it (paths resolved from `where`).
 */
export function claudeEntries(message: Message, where: { projectRoot: string; homeDir?: string }): Record<string, unknown>[] {
  if (message.role === 'user') {
    const only = message.content.length === 1 && message.content[0]!.type === 'text' ? message.content[0]!.text : undefined;
    const content = only ?? message.content.map((block) => (block.type === 'text' ? block : { type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } }));
    return [{ type: 'user', message: { role: 'user', content } }];
  }
  if (message.role === 'assistant') {
    const blocks: Record<string, unknown>[] = message.content.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : { type: 'redacted_thinking', data: block.data }));
    for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: claudeToolName(call.name), input: claudeInput(call.name, parsedInput(call.input), where) });
    return [{ type: 'assistant', message: { role: 'assistant', content: blocks } }];
  }
  return message.results.map((result) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: result.toolCallId, content: result.content, is_error: result.isError }] } }));
}

function claudeInput(tool: string, input: unknown, where: { projectRoot: string; homeDir?: string }): unknown {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? claudeToolInput(tool, input as Record<string, unknown>, where.projectRoot, where.homeDir) : input;
}

/** The call's arguments as an object (the model's raw text when it is not JSON). */
function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input === '' ? '{}' : input);
  } catch {
    return { raw: input };
  }
}
