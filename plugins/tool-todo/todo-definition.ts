/** What the model sees of `todo_write`, and its limits: loaded at boot, without the implementation (see index.ts). */
import type { JsonSchema } from '../../types/tools.js';

/** At most this many items in one list: a plan, not a backlog. */
export const MAX_TODOS = 100;
/** At most this many characters (code points) in an item's `content` or `activeForm`. */
export const MAX_TODO_CHARS = 500;

export const TODO_WRITE_DESCRIPTION = [
  'Keep a to-do list for the current task, so you and the user can see the plan and how far it got.',
  'Use it for work of three or more steps, or when the user gives several things to do; skip it for a single quick change or a question.',
  'Each call replaces the whole list: send every item each time, with its current status. Mark an item in_progress before you start it (one at a time) and completed as soon as it is done; add items you discover, drop ones that no longer apply.',
  `At most ${MAX_TODOS} items of at most ${MAX_TODO_CHARS} characters each. An empty list clears it.`,
].join(' ');

export const TODO_WRITE_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    todos: {
      type: 'array',
      description: 'The whole updated list, in order.',
      items: {
        type: 'object',
        properties: {
          content: { type: 'string', description: 'The step, in the imperative: "Run the tests".' },
          status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          activeForm: { type: 'string', description: 'The step while under way: "Running the tests".' },
          priority: { type: 'string', enum: ['high', 'medium', 'low'] },
        },
        required: ['content', 'status'],
      },
    },
  },
  required: ['todos'],
};
