/**
 * The list a saved session ended with: its last `todo_write` call that succeeded, read back from
 * the history when the session is resumed (the list itself lives only in memory).
 */
import type { Message } from '../../types/messages.js';
import type { TodoItem } from '../../types/todos.js';
import { checkTodos } from './todo-validation.js';

/** Undefined when the history holds no successful todo_write call. */
export function lastWrittenTodos(messages: readonly Message[]): TodoItem[] | undefined {
  const failed = new Set<string>();
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const result of message.results) {
      answered.add(result.toolCallId);
      if (result.isError) failed.add(result.toolCallId);
    }
  }
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    for (let j = message.toolCalls.length - 1; j >= 0; j -= 1) {
      const call = message.toolCalls[j]!;
      if (call.name !== 'todo_write' || !answered.has(call.id) || failed.has(call.id)) continue;
      let input: unknown;
      try {
        input = JSON.parse(call.input);
      } catch {
        continue;
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) continue;
      const checked = checkTodos(input as Record<string, unknown>);
      if (checked.ok) return checked.todos;
    }
  }
  return undefined;
}
