/**
 * The todo_write tool through a real kernel: the whole list replaced at each call, kept per session
 * (a sub-agent's apart), read by other plugins through TOKENS.TodoLists, never asked about in any
 * permission mode; bad input comes back as a result naming the field and index, and leaves the
 * list as it was; the item and length limits hold exactly at their boundary. A resumed session gets
 * back the list its last successful call left; after a compaction the model is given the list again.
 */
import { afterEach, expect, test } from '@jest/globals';
import { ContainerModule } from 'inversify';
import type { Message } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import type { CompactionService } from '../../../types/session.js';
import type { AgentEvent } from '../../../types/events.js';
import type { PermissionMode } from '../../../types/permissions.js';
import type { TodoListChange, TodoLists } from '../../../types/todos.js';
import { TOKENS } from '../../../types/tokens.js';
import toolTodo from '../../../plugins/tool-todo/index.js';
import { MAX_TODO_CHARS, MAX_TODOS } from '../../../plugins/tool-todo/todo-definition.js';
import { checkTodos } from '../../../plugins/tool-todo/todo-validation.js';
import { bootKernel, collect, runPrompt, type Booted } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';

let booted: Booted | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

const results = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end').map((e) => e.result);
const lists = (b: Booted) => b.kernel.container.get<TodoLists>(TOKENS.TodoLists);

test('each call replaces the whole list of the calling session; listeners see every change; the result reads as a checklist', async () => {
  const first = [
    { content: 'Write the failing test', status: 'completed' },
    { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser', priority: 'high' },
    { content: 'Update the docs', status: 'pending', id: '3' },
  ];
  const second = [{ content: 'Update the docs', status: 'in_progress' }];
  booted = await bootKernel([useTools([call('todo_write', { todos: first })]), useTools([call('todo_write', { todos: second })]), say('done')], [toolTodo]);
  const changes: TodoListChange[] = [];
  lists(booted).onChange((change) => changes.push(change));

  const events = await runPrompt(booted.kernel, 'plan it', 'default');
  const [r1, r2] = results(events);
  expect(r1?.isError).toBeFalsy();
  expect(r1?.content).toBe(
    ['To-do list updated: 3 items (1 completed, 1 in progress, 1 pending).', '[x] Write the failing test', '[~] Fixing the parser', '[ ] Update the docs'].join('\n'),
  );
  expect(r2?.content).toContain('1 item (0 completed, 1 in progress, 0 pending)');
  // Replaced, not merged: only the second list is left; the unknown `id` key was dropped.
  expect(lists(booted).current(booted.kernel.session)).toEqual([{ content: 'Update the docs', status: 'in_progress' }]);
  expect(changes.map((c) => c.todos.length)).toEqual([3, 1]);
  expect(changes[0]!.session).toEqual({ sessionId: booted.kernel.session.sessionId, agentId: 'main' });
  expect(changes[0]!.todos[1]).toEqual({ content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser', priority: 'high' });
});

test('an empty list clears it', async () => {
  booted = await bootKernel([useTools([call('todo_write', { todos: [{ content: 'a', status: 'pending' }] })]), useTools([call('todo_write', { todos: [] })]), say('ok')], [toolTodo]);
  const events = await runPrompt(booted.kernel, 'go', 'default');
  expect(results(events)[1]?.content).toBe('The to-do list is now empty.');
  expect(lists(booted).current(booted.kernel.session)).toEqual([]);
});

test.each<PermissionMode>(['default', 'acceptEdits', 'plan', 'bypassPermissions'])('no approval is asked in %s mode', async (mode) => {
  booted = await bootKernel([useTools([call('todo_write', { todos: [{ content: 'Step one', status: 'pending' }] })]), say('ok')], [toolTodo]);
  const events = await runPrompt(booted.kernel, 'go', mode);
  expect(events.some((e) => e.type === 'approval_request')).toBe(false);
  expect(results(events)[0]?.isError).toBeFalsy();
  expect(lists(booted).current(booted.kernel.session)).toEqual([{ content: 'Step one', status: 'pending' }]);
});

test('a sub-agent keeps its own list; the main session\'s is untouched', async () => {
  booted = await bootKernel(
    [useTools([call('todo_write', { todos: [{ content: 'main step', status: 'pending' }] })]), say('main ok'), useTools([call('todo_write', { todos: [{ content: 'child step', status: 'completed' }] })]), say('child ok')],
    [toolTodo],
  );
  await runPrompt(booted.kernel, 'main', 'default');
  const child = booted.kernel.createSession({ parent: booted.kernel.session });
  await collect(child.run({ prompt: 'child', mode: 'default' }));
  expect(lists(booted).current(booted.kernel.session)).toEqual([{ content: 'main step', status: 'pending' }]);
  expect(lists(booted).current(child)).toEqual([{ content: 'child step', status: 'completed' }]);
});

test('bad input is a result naming the field and index, and leaves the list as it was', async () => {
  const good = [{ content: 'Keep me', status: 'pending' }];
  booted = await bootKernel(
    [
      useTools([call('todo_write', { todos: good })]),
      useTools([call('todo_write', { todos: [{ content: 'ok', status: 'pending' }, { content: 'bad', status: 'done' }] })]),
      useTools([call('todo_write', { todos: [{ status: 'pending' }] })]),
      useTools([call('todo_write', { todos: 'not a list' })]),
      useTools([call('todo_write', { todos: [{ content: 'x', status: 'pending', priority: 'urgent' }] })]),
      say('ok'),
    ],
    [toolTodo],
  );
  const events = await runPrompt(booted.kernel, 'go', 'default');
  const [, badStatus, noContent, notList, badPriority] = results(events);
  expect(badStatus).toMatchObject({ isError: true, content: expect.stringContaining('todos[1].status must be one of pending, in_progress, completed (got "done")') });
  expect(noContent).toMatchObject({ isError: true, content: expect.stringContaining('todos[0].content must be a string') });
  expect(notList).toMatchObject({ isError: true, content: expect.stringContaining('todos must be an array') });
  expect(badPriority).toMatchObject({ isError: true, content: expect.stringContaining('todos[0].priority must be one of high, medium, low') });
  expect(lists(booted).current(booted.kernel.session)).toEqual(good);
});

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `step ${i}`, status: 'pending' }));

test(`at most ${MAX_TODOS} items: ${MAX_TODOS} pass, ${MAX_TODOS + 1} are refused with the count`, () => {
  expect(checkTodos({ todos: items(MAX_TODOS) })).toMatchObject({ ok: true });
  expect(checkTodos({ todos: items(MAX_TODOS + 1) })).toEqual({ ok: false, error: expect.stringContaining(`todos has ${MAX_TODOS + 1} items; at most ${MAX_TODOS}`) });
});

test(`content and activeForm hold at most ${MAX_TODO_CHARS} characters, counted as characters, not UTF-16 units`, () => {
  const at = 'a'.repeat(MAX_TODO_CHARS);
  const over = 'a'.repeat(MAX_TODO_CHARS + 1);
  expect(checkTodos({ todos: [{ content: at, status: 'pending', activeForm: at }] })).toMatchObject({ ok: true });
  expect(checkTodos({ todos: [{ content: 'ok', status: 'pending' }, { content: over, status: 'pending' }] })).toEqual({ ok: false, error: expect.stringContaining(`todos[1].content is ${MAX_TODO_CHARS + 1} characters long; at most ${MAX_TODO_CHARS}`) });
  expect(checkTodos({ todos: [{ content: 'ok', status: 'pending', activeForm: over }] })).toEqual({ ok: false, error: expect.stringContaining('todos[0].activeForm is') });
  // 500 emoji are 1000 UTF-16 units but 500 characters.
  expect(checkTodos({ todos: [{ content: '✅'.repeat(MAX_TODO_CHARS), status: 'pending' }] })).toMatchObject({ ok: true });
  expect(checkTodos({ todos: [{ content: '🙂'.repeat(MAX_TODO_CHARS), status: 'pending' }] })).toMatchObject({ ok: true });
  expect(checkTodos({ todos: [{ content: '🙂'.repeat(MAX_TODO_CHARS + 1), status: 'pending' }] })).toMatchObject({ ok: false });
});

test('a blank content is refused; a blank activeForm is dropped; text is trimmed', () => {
  expect(checkTodos({ todos: [{ content: '   ', status: 'pending' }] })).toEqual({ ok: false, error: 'todos[0].content must not be empty' });
  expect(checkTodos({ todos: [{ content: '  Run it  ', status: 'pending', activeForm: ' ' }] })).toEqual({ ok: true, todos: [{ content: 'Run it', status: 'pending' }] });
});

test('a resumed session gets back the list of its last successful todo_write (a failed later call does not count)', async () => {
  const saved: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'plan' }] },
    { role: 'assistant', content: [], toolCalls: [{ id: 't1', name: 'todo_write', input: JSON.stringify({ todos: [{ content: 'Old', status: 'pending' }] }) }] },
    { role: 'tool', results: [{ toolCallId: 't1', content: 'ok', isError: false }] },
    { role: 'assistant', content: [], toolCalls: [{ id: 't2', name: 'todo_write', input: JSON.stringify({ todos: [{ content: 'Kept', status: 'in_progress' }, { content: 'Next', status: 'pending' }] }) }] },
    { role: 'tool', results: [{ toolCallId: 't2', content: 'ok', isError: false }] },
    { role: 'assistant', content: [], toolCalls: [{ id: 't3', name: 'todo_write', input: JSON.stringify({ todos: [{ content: 'Refused', status: 'done' }] }) }] },
    { role: 'tool', results: [{ toolCallId: 't3', content: 'Invalid arguments', isError: true }] },
    { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] },
  ];
  booted = await bootKernel([], [toolTodo]);
  const resumed = await booted.kernel.resumeSession({ sessionId: '20261201-000000-beef', messages: saved });
  expect(lists(booted).current(resumed)).toEqual([
    { content: 'Kept', status: 'in_progress' },
    { content: 'Next', status: 'pending' },
  ]);
});

test('after a compaction the model is given its list again, after the summary', async () => {
  const summary: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] }, { role: 'assistant', content: [{ type: 'text', text: 'noted' }], toolCalls: [] }];
  const service: CompactionService = { shouldCompact: () => false, compact: async () => summary };
  const compaction = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  booted = await bootKernel([useTools([call('todo_write', { todos: [{ content: 'Fix it', status: 'in_progress', activeForm: 'Fixing it' }, { content: 'Test it', status: 'pending' }] })]), say('a'), say('b')], [toolTodo, compaction]);
  await runPrompt(booted.kernel, 'go', 'default');
  expect(await booted.kernel.compactNow('default')).toBe(true);
  await runPrompt(booted.kernel, 'next', 'default');
  const sent = JSON.stringify(booted.model.requests[2]!.messages);
  expect(sent).toContain('SUMMARY');
  expect(sent).toContain('Your to-do list (kept with todo_write) is still:\\n[~] Fixing it\\n[ ] Test it');
});
