/**
 * Every session's to-do list, for one kernel (bound in singleton scope: each kernel of a process
 * has its own). Keyed by the session object, so a sub-agent's list is its own and a finished
 * session's list goes with it.
 */
import type { SessionContext } from '../../types/hooks.js';
import type { TodoItem, TodoListChange, TodoLists } from '../../types/todos.js';

export class TodoStore implements TodoLists {
  private readonly lists = new WeakMap<SessionContext, readonly TodoItem[]>();
  private readonly listeners = new Set<(change: TodoListChange) => void>();

  current(session: SessionContext): readonly TodoItem[] {
    return this.lists.get(session) ?? [];
  }

  onChange(listener: (change: TodoListChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Replaces the session's list and tells every listener; a throwing listener does not fail the write. */
  write(session: SessionContext, todos: readonly TodoItem[]): void {
    const frozen = Object.freeze(todos.map((todo) => Object.freeze({ ...todo })));
    this.lists.set(session, frozen);
    for (const listener of [...this.listeners]) {
      try {
        listener({ session, todos: frozen });
      } catch {
        // a listener is a view (an editor's plan); the list itself is written
      }
    }
  }
}
