/**
 * Layer 1 of compaction (SPEC C5) applied to each request: a tool result over 50,000 bytes, or
 * the largest results of a tool message over 200,000 bytes, are saved to a file and the request
 * carries a preview instead. The history keeps every result in full (so does the transcript); only
 * what is sent shrinks.
 *
 * Each tool message is decided once, the first time a request holds it, and the decision is kept
 * (the prompt cache depends on the bytes staying the same). A result whose file could not be
 * written is sent in full and tried again on the next request. The work per request is for the
 * messages new since the last one: the history only grows between compactions, and a history
 * that was replaced (compaction, another plugin) is processed once from the start.
 */
import path from 'node:path';
import type { Message, ToolMessage } from '../../types/messages.js';
import { previewOf, resultsToOffload } from './offload.js';
import { saveResult } from './tool-result-files.js';

interface SessionState {
  /** The history array the transformed copy was made from. */
  source: readonly Message[];
  /** Transformed messages, index for index. */
  sent: Message[];
  /** Indexes of tool messages with a result still waiting for its file. */
  retry: Set<number>;
}

export interface LayerOneDeps {
  projectRoot: string;
  /** Told once per failed save (the result is then sent in full until a later save works). */
  onSaveFailed(toolCallId: string, error: Error): void;
}

export class LayerOne {
  readonly #sessions = new Map<string, SessionState>();

  constructor(private readonly deps: LayerOneDeps) {}

  /** The messages to send for this session's request. */
  apply(sessionKey: string, sessionId: string, messages: readonly Message[]): Message[] {
    let state = this.#sessions.get(sessionKey);
    if (!state || state.source !== messages || state.sent.length > messages.length) {
      state = { source: messages, sent: [], retry: new Set() };
      this.#sessions.set(sessionKey, state);
    }
    for (const index of [...state.retry]) {
      const message = messages[index];
      if (message?.role !== 'tool') continue;
      state.retry.delete(index);
      state.sent[index] = this.#decide(message, sessionId, state, index);
    }
    for (let index = state.sent.length; index < messages.length; index++) {
      const message = messages[index] as Message;
      state.sent.push(message.role === 'tool' ? this.#decide(message, sessionId, state, index) : message);
    }
    return state.sent.slice();
  }

  forget(sessionKey: string): void {
    this.#sessions.delete(sessionKey);
  }

  #decide(message: ToolMessage, sessionId: string, state: SessionState, index: number): Message {
    const chosen = resultsToOffload(message.results);
    if (chosen.size === 0) return message;
    let pending = false;
    const results = message.results.map((result) => {
      if (!chosen.has(result.toolCallId)) return result;
      try {
        const file = saveResult(this.deps.projectRoot, sessionId, result.toolCallId, result.content);
        return { ...result, content: previewOf(result.content, path.relative(this.deps.projectRoot, file)) };
      } catch (error) {
        pending = true;
        this.deps.onSaveFailed(result.toolCallId, error instanceof Error ? error : new Error(String(error)));
        return result;
      }
    });
    if (pending) state.retry.add(index);
    return { role: 'tool', results };
  }
}
