/**
 * The model's to-do list (the `todo_write` tool of plugins/tool-todo): one list per session, a
 * sub-agent's apart from its parent's. Other plugins read it through TOKENS.TodoLists (an editor
 * front end shows it as the agent's plan); only the tool writes it.
 */
import type { SessionContext } from './hooks.js';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';
export type TodoPriority = 'high' | 'medium' | 'low';

export interface TodoItem {
  /** What is to be done, in the imperative ("Run the tests"). */
  content: string;
  status: TodoStatus;
  /** The same step while it is under way ("Running the tests"). */
  activeForm?: string;
  priority?: TodoPriority;
}

/** Which session a list belongs to: a sub-agent's `agentId` is its own, so is its list. */
export type TodoListOwner = Pick<SessionContext, 'sessionId' | 'agentId'>;

export interface TodoListChange {
  /** The session whose list changed. */
  session: TodoListOwner;
  /** The whole new list (each write replaces it). */
  todos: readonly TodoItem[];
}

export interface TodoLists {
  /** The session's list as last written; empty when its model never wrote one. */
  current(session: TodoListOwner): readonly TodoItem[];
  /** `listener` is called after every write of any session's list; the returned function stops it. */
  onChange(listener: (change: TodoListChange) => void): () => void;
}
