/**
 * The model's to-do list (TOKENS.TodoLists, the todo_write tool) as the editor's view of the
 * agent's plan: a `plan` update with every entry, sent each time the main session's list changes.
 * A sub-agent's list is its own and is not the session's plan. No TodoLists bound (a build
 * without the tool): no plan updates.
 */
import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk';
import type { KernelApi } from '../../types/plugin.js';
import type { TodoItem, TodoLists } from '../../types/todos.js';
import { TOKENS } from '../../types/tokens.js';

export function planUpdate(todos: readonly TodoItem[]): SessionUpdate {
  const entries: PlanEntry[] = todos.map((todo) => ({ content: todo.content, priority: todo.priority ?? 'medium', status: todo.status }));
  return { sessionUpdate: 'plan', entries };
}

/** The main session's list as a plan update, when it has one (a loaded session's, restored by tool-todo). */
export function currentPlan(kernel: KernelApi): SessionUpdate | undefined {
  if (!kernel.container.isBound(TOKENS.TodoLists)) return undefined;
  const todos = kernel.container.get<TodoLists>(TOKENS.TodoLists).current(kernel.session);
  return todos.length > 0 ? planUpdate(todos) : undefined;
}

/** Calls `send` with a plan update after each change of the kernel's main session's list; returns the stop. */
export function followPlan(kernel: KernelApi, send: (update: SessionUpdate) => void): () => void {
  if (!kernel.container.isBound(TOKENS.TodoLists)) return () => {};
  const lists = kernel.container.get<TodoLists>(TOKENS.TodoLists);
  return lists.onChange((change) => {
    if (change.session.sessionId === kernel.session.sessionId && change.session.agentId === kernel.session.agentId) send(planUpdate(change.todos));
  });
}
