/**
 * Layer 1 of compaction (C5) applied to each request: a tool result over 50,000 bytes, or
 * the largest results of a tool message over 200,000 bytes, are saved to a file and the request
 * carries a preview instead. The history keeps every result in full (so does the transcript); only
 * what is sent shrinks.
 *
 * Decisions belong to the message object (a WeakMap), so they hold however the history array is
 * replaced, and each result is decided once: a saved result keeps its preview for good (the prompt
 * cache depends on the bytes staying the same); one whose file could not be written is sent in
 * full and tried again on the next request, alone. Per request the work is for the messages new
 * since the last one (the history array only grows between compactions), and a result that reads a
 * saved file back is never moved out again.
 */
import path from 'node:path';
import type { Message, ToolMessage, ToolResult } from '../../types/messages.js';
import { previewOf, resultsToOffload } from './offload.js';
import { readFileTarget } from './read-calls.js';
import { resultFileName, saveResult } from './tool-result-files.js';
import { messageChars } from '../../types/token-estimate.js';

/** Where a result not saved yet will be (any session id has this length): its preview's size is all an estimate needs. */
const estimatePath = (toolCallId: string): string => `.mewcode/sessions/00000000-000000-0000/tool-results/${resultFileName(toolCallId)}`;

/** What was decided for one tool message: the preview of each saved result, and those still to save. */
interface Decision {
  previews: Map<number, string>;
  pending: Set<number>;
  sent: ToolMessage;
}

interface SessionState {
  source: readonly Message[];
  sent: Message[];
  /** Indexes of messages with a result still waiting for its file. */
  retry: Set<number>;
}

export interface LayerOneDeps {
  projectRoot: string;
  /** Told of each failed save (the result is then sent in full until a later save works). */
  onSaveFailed(toolCallId: string, error: Error): void;
}

export class LayerOne {
  readonly #sessions = new Map<string, SessionState>();
  readonly #decisions = new WeakMap<ToolMessage, Decision>();
  /** Characters of a tool message as sent (keyed by what is sent, so a later save is counted anew). */
  readonly #chars = new WeakMap<Message, number>();
  /** The same for tool messages not decided yet. */
  readonly #expected = new WeakMap<Message, number>();

  constructor(private readonly deps: LayerOneDeps) {}

  /** The messages to send for this session's request. */
  apply(sessionKey: string, sessionId: string, messages: readonly Message[]): Message[] {
    let state = this.#sessions.get(sessionKey);
    if (!state || state.source !== messages || state.sent.length > messages.length) {
      state = { source: messages, sent: [], retry: new Set() };
      this.#sessions.set(sessionKey, state);
    }
    for (const index of [...state.retry]) {
      state.retry.delete(index);
      state.sent[index] = this.#sendable(messages, index, sessionId, state);
    }
    for (let index = state.sent.length; index < messages.length; index++) state.sent.push(this.#sendable(messages, index, sessionId, state));
    // A copy: no plugin holds an array that later requests change.
    return state.sent.slice();
  }

  forget(sessionKey: string): void {
    this.#sessions.delete(sessionKey);
  }

  /**
   * A message's characters as layer 1 sends it (C8): a result it moved out counts as its
   * preview; one not decided yet (the results of the turn just taken) as the preview it will get.
   */
  sentChars(message: Message): number {
    if (message.role !== 'tool') return messageChars(message);
    const decision = this.#decisions.get(message);
    const cache = decision ? this.#chars : this.#expected;
    const sent = decision?.sent ?? message;
    let chars = cache.get(sent);
    if (chars === undefined) {
      const chosen = decision ? new Set<number>() : resultsToOffload(message.results);
      chars = 0;
      for (const [position, result] of sent.results.entries()) chars += chosen.has(position) ? previewOf(result.content, estimatePath(result.toolCallId)).length : result.content.length;
      cache.set(sent, chars);
    }
    return chars;
  }

  /** The message as layer 1 sent it (a decided tool message with its previews), else as it is. */
  sentVersion(message: Message): Message {
    return message.role === 'tool' ? (this.#decisions.get(message)?.sent ?? message) : message;
  }

  #sendable(messages: readonly Message[], index: number, sessionId: string, state: SessionState): Message {
    const message = messages[index] as Message;
    if (message.role !== 'tool') return message;
    let decision = this.#decisions.get(message);
    if (!decision) {
      const rereads = savedFileReads(messages[index - 1], this.deps.projectRoot);
      const chosen = [...resultsToOffload(message.results)].filter((position) => !rereads.has(message.results[position]?.toolCallId ?? ''));
      decision = { previews: new Map(), pending: new Set(chosen), sent: message };
      this.#decisions.set(message, decision);
    }
    if (decision.pending.size === 0) return decision.sent;
    for (const position of [...decision.pending]) {
      const result = message.results[position] as ToolResult;
      try {
        const file = saveResult(this.deps.projectRoot, sessionId, result.toolCallId, result.content);
        decision.previews.set(position, previewOf(result.content, path.relative(this.deps.projectRoot, file)));
        decision.pending.delete(position);
      } catch (error) {
        this.deps.onSaveFailed(result.toolCallId, error instanceof Error ? error : new Error(String(error)));
      }
    }
    if (decision.pending.size > 0) state.retry.add(index);
    if (decision.previews.size > 0) {
      decision.sent = { role: 'tool', results: message.results.map((result, position) => ({ ...result, content: decision.previews.get(position) ?? result.content })) };
    }
    return decision.sent;
  }
}

/** Calls of the turn before that read a file layer 1 saved: their results stay (no preview of a preview). */
function savedFileReads(previous: Message | undefined, projectRoot: string): Set<string> {
  const ids = new Set<string>();
  if (previous?.role !== 'assistant') return ids;
  for (const call of previous.toolCalls) {
    const target = readFileTarget(call);
    if (target === undefined) continue;
    const relative = path.relative(projectRoot, path.resolve(projectRoot, target)).split(path.sep).join('/');
    if (/^\.mewcode\/sessions\/[^/]+\/tool-results\//.test(relative)) ids.add(call.id);
  }
  return ids;
}
