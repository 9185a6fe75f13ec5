/**
 * The `todo_write` tool: replaces the calling session's to-do list (TodoStore) and answers with the
 * list as a checklist, which is also what the terminal UI and the stream-json output show of it.
 */
import type { TodoItem } from '../../types/todos.js';
import type { Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { TODO_WRITE_DESCRIPTION, TODO_WRITE_INPUT_SCHEMA } from './todo-definition.js';
import type { TodoStore } from './todo-store.js';
import { checkTodos } from './todo-validation.js';

const MARKS: Readonly<Record<TodoItem['status'], string>> = { completed: '[x]', in_progress: '[~]', pending: '[ ]' };

/** One checklist line per item: `[x]` done, `[~]` in progress (as its activeForm), `[ ]` pending. */
export function todoLines(todos: readonly TodoItem[]): string[] {
  return todos.map((todo) => `${MARKS[todo.status]} ${todo.status === 'in_progress' && todo.activeForm ? todo.activeForm : todo.content}`);
}

/** The list as the model and the user read it back. */
export function renderTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The to-do list is now empty.';
  const count = (status: TodoItem['status']): number => todos.filter((todo) => todo.status === status).length;
  const header = `To-do list updated: ${todos.length} ${todos.length === 1 ? 'item' : 'items'} (${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending).`;
  return [header, ...todoLines(todos)].join('\n');
}

export class TodoWriteTool implements Tool {
  readonly name = 'todo_write';
  readonly description = TODO_WRITE_DESCRIPTION;
  readonly inputSchema = TODO_WRITE_INPUT_SCHEMA;
  readonly readOnly = true;

  constructor(private readonly store: TodoStore) {}

  permissionTarget(): { kind: 'none' } {
    return { kind: 'none' };
  }

  async execute(input: ToolInput, ctx: ToolContext): Promise<ToolOutput> {
    const checked = checkTodos(input);
    if (!checked.ok) return { isError: true, content: `todo_write: ${checked.error}. Nothing was changed; send the whole list again.` };
    this.store.write(ctx.session, checked.todos);
    return { content: renderTodos(checked.todos) };
  }
}
