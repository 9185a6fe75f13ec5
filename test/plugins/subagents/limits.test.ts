/**
 * The limits of background tasks, each at its boundary: what a task has said is kept only up to
 * TASK_OUTPUT_TAIL characters (its end) and task_output / task_stop show no more; a finished
 * task's report reaches the parent's reminder cut at TASK_REPORT_MAX characters; at most
 * MAX_RUNNING_TASKS run at once; no task starts once the session has ended.
 */
import { afterEach, expect, test } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryReporter } from '../../../kernel/reporter.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import { MAX_RUNNING_TASKS, TASK_OUTPUT_TAIL, TASK_REPORT_MAX } from '../../../plugins/subagents/tasks.js';
import type { ToolResult } from '../../../types/messages.js';
import type { ModelRequest } from '../../../types/provider.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { until, waitingTool } from './scripted.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { abortableDelay, toolsPlugin } from '../../support/test-tools.js';
import { deferred, promptOf, routedSteps, turnOf } from '../../kernel/kernel-v2-helpers.js';

afterEach(removeTempDirs);

function lastResults(request: ModelRequest): ToolResult[] {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
}

const taskIdIn = (text: string): string => /agent-[0-9a-f]{8}/.exec(text)![0];

/** A background task says `said`, then waits in a tool; the parent reads its output, then stops it. */
async function outputAndStop(said: string): Promise<{ output: string; stopped: string }> {
  const root = temp('mewcode-limits-root-');
  const home = temp('mewcode-limits-home-');
  const entered = deferred();
  const wait = waitingTool(entered);
  let taskId = '';
  const steps = routedSteps(5, async (request) => {
    if (promptOf(request) === 'talk a lot') return useTools([call('mcp__slow__wait', {})], said);
    const turn = turnOf(request);
    if (turn === 0) return useTools([call('agent', { description: 'talker', prompt: 'talk a lot', run_in_background: true })]);
    if (turn === 1) {
      taskId = taskIdIn(lastResults(request)[0]!.content);
      await entered.promise;
      return useTools([call('task_output', { task_id: taskId })]);
    }
    if (turn === 2) return useTools([call('task_stop', { task_id: taskId })]);
    return say('done');
  });
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([wait]), createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'start', 'default');
  const mine = model.requests.filter((r) => promptOf(r) === 'start');
  const output = lastResults(mine.find((r) => turnOf(r) === 2)!)[0]!.content;
  const stopped = lastResults(mine.find((r) => turnOf(r) === 3)!)[0]!.content;
  await kernel.shutdown();
  return { output: output.slice(output.indexOf('\n\n') + 2), stopped };
}

test(`task_output and task_stop show a task's whole text at ${TASK_OUTPUT_TAIL} characters and only its end beyond`, async () => {
  const exact = 'a'.repeat(TASK_OUTPUT_TAIL - 1) + 'Z';
  const atLimit = await outputAndStop(exact);
  expect(atLimit.output).toBe(exact);
  expect(atLimit.stopped).toMatch(/^Stopped task agent-[0-9a-f]{8}\.\n\nWhat it had said:\n/);
  expect(atLimit.stopped.endsWith(`\n${exact}`)).toBe(true);

  const over = 'b' + exact;
  const beyond = await outputAndStop(over);
  expect(beyond.output).toBe(`…${exact}`);
  expect(beyond.stopped.endsWith(`\n…${exact}`)).toBe(true);
});

test('a task that says far more than the limit is kept and shown only by its end (task_stop too)', async () => {
  const huge = `${'x'.repeat(200_000)}THE END`;
  const { output, stopped } = await outputAndStop(huge);
  expect(output).toBe(`…${huge.slice(-TASK_OUTPUT_TAIL)}`);
  expect(stopped.length).toBeLessThan(TASK_OUTPUT_TAIL + 100);
  expect(stopped.endsWith('THE END')).toBe(true);
});

/** The reminder the parent's next request carries once a task that answers `report` has finished. */
async function reminderAfter(report: string): Promise<string> {
  const root = temp('mewcode-limits-root-');
  const home = temp('mewcode-limits-home-');
  const steps = routedSteps(4, async (request) => {
    if (promptOf(request) === 'report back') return say(report);
    if (promptOf(request) === 'next') return say('ok');
    return turnOf(request) === 0 ? useTools([call('agent', { description: 'reporter', prompt: 'report back', run_in_background: true })]) : say('started');
  });
  const { kernel, model, reporter } = await bootKernel(steps, [createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'start', 'default');
  await until(() => reporter.notices.some((n) => n.startsWith('Background task')), 'the task to finish');
  await runPrompt(kernel, 'next', 'default');
  const reminder = model.requests.at(-1)!.reminder ?? '';
  await kernel.shutdown();
  return reminder;
}

test(`a finished task's report reaches the parent whole at ${TASK_REPORT_MAX} characters and cut beyond, saying so`, async () => {
  const exact = `${'r'.repeat(TASK_REPORT_MAX - 4)}DONE`;
  const whole = await reminderAfter(exact);
  expect(whole).toContain(`Its report:\n\n${exact}\n\n[sub-agent general`);
  expect(whole).not.toContain('cut at');

  const cut = await reminderAfter(`${exact}!`);
  expect(cut).toContain(`Its report:\n\n${exact}\n[report cut at ${TASK_REPORT_MAX} characters; task_output shows its end]\n\n[sub-agent general`);
  expect(cut).not.toContain('DONE!');
});

test(`${MAX_RUNNING_TASKS} background tasks run at once; one more is refused with a result that says what to do`, async () => {
  const root = temp('mewcode-limits-root-');
  const home = temp('mewcode-limits-home-');
  let childRequests = 0;
  const all = deferred();
  const steps = routedSteps(MAX_RUNNING_TASKS + 3, async (request, signal) => {
    if (promptOf(request).startsWith('work ')) {
      if (++childRequests === MAX_RUNNING_TASKS) all.resolve();
      await abortableDelay(60_000, signal).catch(() => undefined);
      return say('stopped');
    }
    if (turnOf(request) > 0) return say('started');
    return useTools(Array.from({ length: MAX_RUNNING_TASKS + 1 }, (_, i) => call('agent', { description: `task ${i}`, prompt: `work ${i}`, run_in_background: true })));
  });
  const { kernel, model } = await bootKernel(steps, [createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'fan out', 'default');
  await all.promise;
  const results = lastResults(model.requests.find((r) => promptOf(r) === 'fan out' && turnOf(r) === 1)!);
  expect(results.filter((r) => !r.isError && r.content.startsWith('Started background task'))).toHaveLength(MAX_RUNNING_TASKS);
  const refused = results.filter((r) => r.isError);
  expect(refused).toHaveLength(1);
  expect(refused[0]!.content).toBe(`${MAX_RUNNING_TASKS} background tasks are already running (the limit). Wait for one to finish (its report arrives as a reminder), stop one with task_stop, or run this task in the foreground.`);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(childRequests).toBe(MAX_RUNNING_TASKS);
  await kernel.shutdown();
});

test('a finished task lets go of its conversation (a long session of tasks must not keep every child history in memory)', async () => {
  const root = temp('mewcode-limits-root-');
  const home = temp('mewcode-limits-home-');
  let child: WeakRef<object> | undefined;
  const probe: Tool = {
    name: 'mcp__probe__look',
    description: 'Looks.',
    inputSchema: { type: 'object' },
    readOnly: true,
    async execute(_input, context) {
      child = new WeakRef(context.session);
      return { content: 'looked' };
    },
  };
  const steps = routedSteps(4, async (request) => {
    if (promptOf(request) === 'look once') return turnOf(request) === 0 ? useTools([call('mcp__probe__look', {})]) : say('seen');
    return turnOf(request) === 0 ? useTools([call('agent', { description: 'looker', prompt: 'look once', run_in_background: true })]) : say('started');
  });
  const { kernel, reporter } = await bootKernel(steps, [toolsPlugin([probe]), createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'start', 'default');
  await until(() => reporter.notices.some((n) => n.startsWith('Background task')), 'the task to finish');
  await new Promise((resolve) => setTimeout(resolve, 10));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  expect(child).toBeDefined();
  expect(child!.deref()).toBeUndefined();
  await kernel.shutdown();
});

test('a task whose end cannot be told (the interface throws) leaves no unhandled rejection behind, and its report still arrives', async () => {
  const root = temp('mewcode-limits-root-');
  const home = temp('mewcode-limits-home-');
  class ThrowingReporter extends MemoryReporter {
    override notice(message: string): void {
      if (message.startsWith('Background task')) throw new Error('the interface is gone');
      super.notice(message);
    }
  }
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const finished = deferred();
  const steps = routedSteps(4, async (request) => {
    if (promptOf(request) === 'quick') {
      setTimeout(() => finished.resolve(), 20);
      return say('quick report');
    }
    if (promptOf(request) === 'next') return say('ok');
    return turnOf(request) === 0 ? useTools([call('agent', { description: 'quick', prompt: 'quick', run_in_background: true })]) : say('started');
  });
  const { kernel, model } = await bootKernel(steps, [createSubagentsPlugin()], { projectRoot: root, homeDir: home, reporter: new ThrowingReporter() });
  try {
    await runPrompt(kernel, 'start', 'default');
    await finished.promise;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    await runPrompt(kernel, 'next', 'default');
    expect(model.requests.at(-1)!.reminder).toContain('quick report');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await kernel.shutdown();
  }
});
