/** glob and grep in a real kernel: registration, read-only batching, results in call order. */
import outputLimits from '../../../plugins/output-limits/index.js';
import globPlugin from '../../../plugins/tool-glob/index.js';
import grepPlugin from '../../../plugins/tool-grep/index.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { makeTree, removeTree } from './helpers.js';

let root: string;
beforeAll(() => {
  root = makeTree({ 'src/a.ts': 'export const hello = 1;\n', 'src/b.ts': 'hello again\n', '.gitignore': 'dist/\n', 'dist/c.ts': 'hello\n' }, 'mewcode-kernel-search-');
});
afterAll(() => removeTree(root));

test('both tools register; consecutive glob and grep calls run as one read-only batch, results in call order', async () => {
  const calls = [call('glob', { pattern: '**/*.ts' }), call('grep', { pattern: 'hello', output_mode: 'files_with_matches' }), call('grep', { pattern: 'hello' })];
  const { kernel, model, reporter } = await bootKernel([useTools(calls), say('done')], [outputLimits, globPlugin, grepPlugin], { projectRoot: root });

  // Default mode: read-only tools are allowed without asking.
  const events = await runPrompt(kernel, 'find hello', 'default');
  expect(doneEvent(events).reason).toBe('completed');
  expect(reporter.warnings).toEqual([]);

  const offered = model.requests[0]!.tools.map((t) => t.name);
  expect(offered).toEqual(expect.arrayContaining(['glob', 'grep']));

  // One batch: every start is announced before any end.
  const order = events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end').map((e) => e.type);
  expect(order).toEqual(['tool_start', 'tool_start', 'tool_start', 'tool_end', 'tool_end', 'tool_end']);
  expect(events.some((e) => e.type === 'approval_request')).toBe(false);

  const results = (model.requests[1]!.messages.at(-1) as unknown as { results: { toolCallId: string; content: string; isError: boolean }[] }).results;
  expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  expect(results.map((r) => r.isError)).toEqual([false, false, false]);
  expect(results[0]!.content.split('\n').sort()).toEqual(['src/a.ts', 'src/b.ts']);
  expect(results[1]!.content).toBe('src/a.ts\nsrc/b.ts');
  expect(results[2]!.content).toBe('src/a.ts:1: export const hello = 1;\nsrc/b.ts:1: hello again');
});

test('a field grep does not know is an input error naming it, at the kernel’s input check', async () => {
  const calls = [call('grep', { pattern: 'hello', include: '*.ts' })];
  const { kernel, model } = await bootKernel([useTools(calls), say('done')], [outputLimits, globPlugin, grepPlugin], { projectRoot: root });
  await runPrompt(kernel, 'find hello', 'default');
  const results = (model.requests[1]!.messages.at(-1) as unknown as { results: { content: string; isError: boolean }[] }).results;
  expect(results[0]).toMatchObject({ isError: true, content: expect.stringMatching(/^Invalid arguments for grep: grep: unknown field "include"/) });
});
