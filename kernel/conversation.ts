/**
 * A session's history, which only the kernel writes (guarded-history.ts), and the helpers that keep
 * it valid for the next request (K4, L5).
 */
import type { AssistantMessage, Message } from '../types/messages.js';
import type { Conversation } from '../types/services.js';
import { INTERRUPTED_RESULT } from '../types/session.js';
import { freezeMessage } from './guarded-history.js';

/**
 * Every message is frozen as it enters, and the list is a frozen array replaced on each change:
 * what the kernel hands on (a request to preModelRequest, the history to the compaction service
 * and postCompact) is a snapshot no holder can push to or edit. Copying on append costs a few
 * microseconds per thousand messages.
 */
export class HistoryConversation implements Conversation {
  private history: readonly Message[];
  /** A true private field: whoever holds the conversation (a tool, via its session) cannot fire `messageAppended` without appending. */
  readonly #announce: (message: Message, index: number) => Promise<void>;

  constructor(initial: readonly Message[], announce: (message: Message, index: number) => Promise<void>) {
    this.history = Object.freeze(initial.map(freezeMessage));
    this.#announce = announce;
  }

  get messages(): readonly Message[] {
    return this.history;
  }

  /** Every append is announced on `messageAppended` before it resolves (K4). */
  async append(message: Message): Promise<void> {
    this.history = Object.freeze([...this.history, freezeMessage(message)]);
    await this.#announce(message, this.history.length - 1);
  }

  async replace(messages: Message[]): Promise<void> {
    this.history = Object.freeze(messages.map(freezeMessage));
  }

  lastRole(): Message['role'] | undefined {
    return this.history.at(-1)?.role;
  }
}

/**
 * L5: every exit path leaves an assistant message last, so the next request is valid. Tool
 * calls left without results (a fault between the calls and their results) are answered first:
 * both vendors reject a tool call that has no result.
 */
export async function ensureAssistantTail(conversation: Conversation, fallbackText: string): Promise<void> {
  const last = conversation.messages.at(-1);
  if (last?.role === 'assistant' && last.toolCalls.length === 0) return;
  if (last?.role === 'assistant') {
    const results = last.toolCalls.map((call) => ({ toolCallId: call.id, isError: true, content: `The run stopped before this call ran: ${fallbackText}` }));
    await conversation.append({ role: 'tool', results });
  }
  if (last === undefined) return; // an empty history is valid as it is
  const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: fallbackText }], toolCalls: [], note: true };
  await conversation.append(message);
}

/**
 * A history to start a session from (fork, resume): it must begin with a user prompt (not a tool
 * result that would answer nothing), and calls without results are answered.
 */
export function startableHistory(messages: readonly Message[]): Message[] {
  let start = 0;
  while (start < messages.length && !isUserPrompt(messages[start] as Message)) start++;
  const kept = messages.slice(start);
  const repaired: Message[] = [];
  for (let i = 0; i < kept.length; i++) {
    const message = kept[i] as Message;
    repaired.push(message);
    const next = kept[i + 1];
    if (message.role === 'assistant' && message.toolCalls.length > 0 && next?.role !== 'tool') {
      repaired.push({ role: 'tool', results: message.toolCalls.map((call) => ({ toolCallId: call.id, isError: true, content: INTERRUPTED_RESULT })) });
    }
  }
  return repaired;
}

function isUserPrompt(message: Message): boolean {
  return message.role === 'user';
}

/** The last `count` messages, widened back to a user prompt so the slice is a valid history. */
export function recentHistory(messages: readonly Message[], count: number): Message[] {
  if (count <= 0) return [];
  let start = Math.max(0, messages.length - count);
  while (start > 0 && !isUserPrompt(messages[start] as Message)) start--;
  return startableHistory(messages.slice(start));
}
