/**
 * The `todo_write` tool plugin: the model keeps a to-do list per session, which other plugins read
 * through TOKENS.TodoLists (the editor front end sends it as the agent's plan). The model sees the
 * definition from boot; the check and the implementation are imported on the first call.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { ToolInput, ToolInputCheck } from '../../types/tools.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import { TODO_WRITE_DESCRIPTION, TODO_WRITE_INPUT_SCHEMA } from './todo-definition.js';
import { TodoStore } from './todo-store.js';

/** The writable store, for this plugin's tool only; others get its read side under TOKENS.TodoLists. */
const STORE = Symbol('mewcode/tool-todo/TodoStore');

async function validateInput(input: ToolInput): Promise<ToolInputCheck> {
  const { checkTodos } = await import('./todo-validation.js');
  const checked = checkTodos(input);
  return checked.ok ? { ok: true, input: { ...input, todos: checked.todos } } : checked;
}

export default definePlugin({
  name: 'tool-todo',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind<TodoStore>(STORE).toDynamicValue(() => new TodoStore()).inSingletonScope();
    bind(TOKENS.TodoLists).toDynamicValue((context) => context.get<TodoStore>(STORE)).inSingletonScope();
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const store = context.get<TodoStore>(STORE);
        // Read-only: it touches no file and runs no command, so no mode ever asks about it.
        return lazyTool({ name: 'todo_write', description: TODO_WRITE_DESCRIPTION, inputSchema: TODO_WRITE_INPUT_SCHEMA, readOnly: true, category: 'read', validateInput }, async () => {
          const { TodoWriteTool } = await import('./todo-tool.js');
          return new TodoWriteTool(store);
        });
      })
      .inSingletonScope();
  }),
});
