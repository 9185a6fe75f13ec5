/**
 * A session's history has one writer: the kernel. What it appends passes its hooks on the way
 * (a prompt `userPromptSubmit`, every message `messageAppended`, which the session file and an
 * organisation's audit record), so a plugin that could push to the array, or edit a message a
 * hook already saw, would change what the model reads behind all of them. The kernel keeps the
 * history (`HistoryConversation`) to itself and hands out a view (`session.conversation`,
 * `TOKENS.Conversation`); every message is frozen as it enters, so neither the view's holders nor
 * a `messageAppended` tap can edit one afterwards. (No plugin supplies the history's store: one
 * that did would be a second writer. A plugin keeps its own record from `messageAppended`.)
 */
import { deepFreeze } from '../types/deep-freeze.js';
import type { Message } from '../types/messages.js';
import type { Conversation, ConversationView } from '../types/services.js';

const REFUSAL = "a session's history is read-only outside the kernel: a prompt goes through run() (userPromptSubmit), context through injectReminder() or a hook's additionalContext";

/** Freezes a message and everything in it, in place (strings are immutable already). */
export const freezeMessage = <T extends Message>(message: T): T => deepFreeze(message);

/**
 * What everyone but the kernel holds: the history's current message list (a frozen snapshot), and
 * `append`/`replace` that refuse with the way to do it instead, for a plugin written against the
 * old contract.
 */
export function conversationView(history: Conversation): ConversationView {
  const refuse = (): Promise<never> => Promise.reject(new Error(REFUSAL));
  return Object.freeze({
    get messages(): readonly Message[] {
      return history.messages;
    },
    lastRole: () => history.lastRole(),
    append: refuse,
    replace: refuse,
  });
}
