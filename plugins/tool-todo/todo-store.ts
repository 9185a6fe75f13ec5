/**
 * Every session's to-do list, for one kernel (bound in singleton scope: each kernel of a process
 * has its own). Keyed by session id and agent id, so a sub-agent's list is its own and a hook's
 * context (which carries the ids, not the session object) finds the list of its session.
 */
import type { TodoItem, TodoListChange, TodoListOwner, TodoLists } from '../../types/todos.js';

const keyOf = (owner: TodoListOwner): string => `${owner.sessionId}\u0000${owner.agentId}`;

export class TodoStore implements TodoLists {
  readonly #lists = new Map<string, readonly TodoItem[]>();
  readonly #listeners = new Set<(change: TodoListChange) => void>();

  current(session: TodoListOwner): readonly TodoItem[] {
    return this.#lists.get(keyOf(session)) ?? [];
  }

  onChange(listener: (change: TodoListChange) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Replaces the session's list and tells every listener; a throwing listener does not fail the write. */
  write(session: TodoListOwner, todos: readonly TodoItem[]): void {
    const frozen = Object.freeze(todos.map((todo) => Object.freeze({ ...todo })));
    const owner = Object.freeze({ sessionId: session.sessionId, agentId: session.agentId });
    // An empty list is no list: nothing is kept for a session that cleared its list.
    if (frozen.length === 0) this.#lists.delete(keyOf(owner));
    else this.#lists.set(keyOf(owner), frozen);
    for (const listener of [...this.#listeners]) {
      try {
        listener({ session: owner, todos: frozen });
      } catch {
        // a listener is a view (an editor's plan); the list itself is written
      }
    }
  }
}
