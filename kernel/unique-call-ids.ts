/**
 * Every tool call of a history has its own id. Everything after an answer pairs by that id: the
 * tool events a front end shows, hooks and approvals, the results appended to history, the saved
 * session, and the requests both vendors check (each tool_use needs exactly one tool_result). A
 * model may still repeat one within an answer (two calls `dup1`), reuse one every turn (a server
 * that numbers calls per turn sends `call_0` each time) or send none at all, so the kernel gives
 * such a call a fresh id as the answer arrives; it keeps that id from then on (the model reads its
 * history with it, and a resumed session has it too).
 */
import type { Message, ToolCall } from '../types/messages.js';

/**
 * Every id a session's loop has handed out: compaction drops old calls from the history, but the
 * saved session and a transcript a hook reads still hold them, so an id stays taken.
 */
const handedOut = new WeakMap<object, Set<string>>();

/**
 * A sub-agent's calls take ids from its parent's set: its events, approvals and results reach the
 * same front end, hooks and audit log as the parent's (an editor that saw the parent's `call_0`
 * must not be told about a different `call_0`), so ids are unique across the whole session tree.
 */
export function shareCallIds(child: object, parent: object): void {
  let used = handedOut.get(parent);
  if (!used) handedOut.set(parent, (used = new Set()));
  handedOut.set(child, used);
}

/**
 * The ids `session` (and the rest of its session tree) already uses: those of its history's calls and results (a result may outlive
 * its call; a resumed session's come from its file), and every one given before in this process.
 * New ids added to the set stay taken for the session.
 */
export function usedCallIds(session: object, messages: readonly Message[]): Set<string> {
  let used = handedOut.get(session);
  if (!used) handedOut.set(session, (used = new Set()));
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.toolCalls) used.add(call.id);
    else if (message.role === 'tool') for (const result of message.results) used.add(result.toolCallId);
  }
  return used;
}

/**
 * `calls` with each id that is missing, or already in `used` or earlier in `calls`, replaced by
 * `<id>_<n>` (`call_<n>` for a missing one), the smallest n free; the others are unchanged (the
 * same objects). The new ids are added to `used`.
 */
export function withUniqueIds(calls: readonly ToolCall[], used: Set<string>): ToolCall[] {
  // A provider plugin's malformed event (no list) is left for the loop to report as a fault.
  if (!Array.isArray(calls)) return calls as ToolCall[];
  return calls.map((call) => {
    const original = typeof call.id === 'string' ? call.id : '';
    if (original !== '' && !used.has(original)) {
      used.add(original);
      return call;
    }
    const base = original === '' ? 'call' : original;
    let n = original === '' ? 1 : 2;
    while (used.has(`${base}_${n}`)) n++;
    const id = `${base}_${n}`;
    used.add(id);
    return { ...call, id };
  });
}
