/**
 * The check of a `todo_write` input: every problem named by its place (`todos[2].status`) and what
 * the value must be, so the model can correct the call. Keys the schema does not know (an `id`
 * some models send from older to-do tools) are dropped, not refused.
 */
import type { TodoItem, TodoPriority, TodoStatus } from '../../types/todos.js';
import type { ToolInput } from '../../types/tools.js';
import { MAX_TODO_CHARS, MAX_TODOS } from './todo-definition.js';

const STATUSES: readonly TodoStatus[] = ['pending', 'in_progress', 'completed'];
const PRIORITIES: readonly TodoPriority[] = ['high', 'medium', 'low'];

export type TodoCheck = { ok: true; todos: TodoItem[] } | { ok: false; error: string };

/** Length in characters as a reader counts them (code points, not UTF-16 units). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return typeof value === 'object' ? 'an object' : String(value);
}

function text(value: unknown, place: string, required: boolean): { ok: true; value: string | undefined } | { ok: false; error: string } {
  if (value === undefined && !required) return { ok: true, value: undefined };
  if (typeof value !== 'string') return { ok: false, error: `${place} must be a string${required ? '' : ' when given'} (got ${describe(value)})` };
  const trimmed = value.trim();
  if (trimmed === '') {
    if (!required) return { ok: true, value: undefined };
    return { ok: false, error: `${place} must not be empty` };
  }
  const length = characters(trimmed);
  if (length > MAX_TODO_CHARS) return { ok: false, error: `${place} is ${length} characters long; at most ${MAX_TODO_CHARS} are allowed: shorten it or split the step` };
  return { ok: true, value: trimmed };
}

function item(value: unknown, index: number): { ok: true; item: TodoItem } | { ok: false; error: string } {
  const place = `todos[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `${place} must be an object like {"content": "Run the tests", "status": "pending"} (got ${describe(value)})` };
  }
  const fields = value as Record<string, unknown>;
  const content = text(fields.content, `${place}.content`, true);
  if (!content.ok) return content;
  if (typeof fields.status !== 'string' || !STATUSES.includes(fields.status as TodoStatus)) {
    return { ok: false, error: `${place}.status must be one of ${STATUSES.join(', ')} (got ${describe(fields.status)})` };
  }
  const activeForm = text(fields.activeForm, `${place}.activeForm`, false);
  if (!activeForm.ok) return activeForm;
  if (fields.priority !== undefined && (typeof fields.priority !== 'string' || !PRIORITIES.includes(fields.priority as TodoPriority))) {
    return { ok: false, error: `${place}.priority must be one of ${PRIORITIES.join(', ')} when given (got ${describe(fields.priority)})` };
  }
  const todo: TodoItem = { content: content.value!, status: fields.status as TodoStatus };
  if (activeForm.value !== undefined) todo.activeForm = activeForm.value;
  if (fields.priority !== undefined) todo.priority = fields.priority as TodoPriority;
  return { ok: true, item: todo };
}

export function checkTodos(input: ToolInput): TodoCheck {
  const list = input.todos;
  if (!Array.isArray(list)) {
    return { ok: false, error: `todos must be an array of {"content", "status"} items, the whole list (an empty array clears it) (got ${list === undefined ? 'nothing' : describe(list)})` };
  }
  if (list.length > MAX_TODOS) {
    return { ok: false, error: `todos has ${list.length} items; at most ${MAX_TODOS} are allowed: merge small steps or drop completed ones` };
  }
  const todos: TodoItem[] = [];
  for (const [index, value] of list.entries()) {
    const checked = item(value, index);
    if (!checked.ok) return checked;
    todos.push(checked.item);
  }
  return { ok: true, todos };
}
