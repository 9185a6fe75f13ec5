/**
 * The `todo_write` tool plugin: the model keeps a to-do list per session, which other plugins read
 * through TOKENS.TodoLists (the editor front end sends it as the agent's plan). The model sees the
 * definition from boot; the check and the implementation are imported on the first call.
 * The list outlives what rewrites the history: a resumed session gets back the list its last
 * todo_write left, and after a compaction the model is given the list again (the summary may
 * have dropped the calls that wrote it).
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { TodoListChange, TodoListOwner, TodoLists } from '../../types/todos.js';
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

const NAME = 'tool-todo';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind<TodoStore>(STORE).toDynamicValue(() => new TodoStore()).inSingletonScope();
    // The read side only: the store itself (whose write the model's list comes back from) stays this plugin's.
    bind(TOKENS.TodoLists)
      .toDynamicValue((context): TodoLists => {
        const store = context.get<TodoStore>(STORE);
        return Object.freeze({ current: (session: TodoListOwner) => store.current(session), onChange: (listener: (change: TodoListChange) => void) => store.onChange(listener) });
      })
      .inSingletonScope();
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
  apply(kernel) {
    const store = kernel.container.get<TodoStore>(STORE);
    kernel.hooks.sessionResume.tapPromise(NAME, async (resumed) => {
      // The hook names the session; its history is reachable for the main session (kernel.session).
      const main = kernel.session;
      if (resumed.agentId !== main.agentId || resumed.sessionId !== main.sessionId) return;
      const { lastWrittenTodos } = await import('./todo-history.js');
      const todos = lastWrittenTodos(main.conversation.messages);
      if (todos) store.write(main, todos);
    });
    kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
      const todos = store.current(context);
      if (!state.compacted || todos.length === 0) return;
      const { todoLines } = await import('./todo-tool.js');
      (state.reinject ??= []).push(`Your to-do list (kept with todo_write) is still:\n${todoLines(todos).join('\n')}`);
    });
  },
});
