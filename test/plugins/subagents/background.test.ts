/**
 * Background tasks (G3): `run_in_background` returns a task id at once; two tasks run side
 * by side; a finished task's report reaches the parent as a reminder on its next turn; tasks can
 * be listed, read, messaged and stopped; a task stopped mid-run, or by the session ending, leaves
 * a valid history (observed on `messageAppended`, as the session store persists it); so does a
 * foreground sub-agent cancelled with its parent.
 */
import { afterEach, expect, test } from '@jest/globals';
import { ContainerModule } from 'inversify';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { Message, ToolResult } from '../../../types/messages.js';
import type { ModelRequest, ProviderEvent } from '../../../types/provider.js';
import { definePlugin } from '../../../types/plugin.js';
import type { SubagentEvent } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { abortableDelay, toolsPlugin } from '../../support/test-tools.js';
import { until } from './scripted.js';
import { deferred, historyProblems, promptOf, routedSteps, turnOf } from '../../kernel/kernel-v2-helpers.js';

afterEach(removeTempDirs);

/** Every agent's history as appended (what a session store would persist), by agent id. */
function historyRecorder(): { histories: Map<string, Message[]>; plugin: ReturnType<typeof definePlugin> } {
  const histories = new Map<string, Message[]>();
  const plugin = definePlugin({
    name: 'history-recorder',
    bindings: new ContainerModule(() => undefined),
    apply(kernel) {
      kernel.hooks.messageAppended.tap('history-recorder', (message, context) => {
        const list = histories.get(context.agentId) ?? [];
        list.push(message);
        histories.set(context.agentId, list);
      });
    },
  });
  return { histories, plugin };
}

/** The results of the tool message this request ends with. */
function lastResults(request: ModelRequest): ToolResult[] {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
}

/** A model turn that says it was asked, then waits until its request is cancelled. */
async function hang(signal: AbortSignal, asked: { resolve(): void }): Promise<ProviderEvent[]> {
  asked.resolve();
  await abortableDelay(60_000, signal).catch(() => undefined);
  return say('too late');
}

const taskIdIn = (text: string): string => /agent-[0-9a-f]{8}/.exec(text)![0];

/**
 * The parent's side of the task_message tests: start `prompt` as a background task, send it one
 * message once `ready` resolves, then answer (resolving `sent`). `taskId` is known after turn 1.
 */
function messagingParent(task: { description: string; prompt: string }, ready: Promise<unknown>, sent: { resolve(): void }): { taskId: () => string; turn(request: ModelRequest): Promise<ProviderEvent[]> } {
  let taskId = '';
  return {
    taskId: () => taskId,
    async turn(request) {
      const turn = turnOf(request);
      if (turn === 0) return useTools([call('agent', { ...task, run_in_background: true })]);
      if (turn === 1) {
        taskId = taskIdIn(lastResults(request)[0]!.content);
        await ready;
        return useTools([call('task_message', { task_id: taskId, message: 'also check the tests' })]);
      }
      sent.resolve();
      return say('messaged');
    },
  };
}


test('two background tasks run in parallel; each report reaches the parent as a reminder on its next turn; task_list and task_output follow them', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const bothAsked = deferred();
  let childRequests = 0;
  const release = deferred();
  const steps = routedSteps(7, async (request) => {
    const prompt = promptOf(request);
    if (prompt.startsWith('task ')) {
      // Each child answers only once both have asked: they must be running at the same time.
      if (++childRequests === 2) bothAsked.resolve();
      await bothAsked.promise;
      await release.promise;
      return say(`report of ${prompt}`);
    }
    if (prompt === 'start both') {
      if (turnOf(request) === 0) {
        return useTools([
          call('agent', { description: 'first', prompt: 'task A', run_in_background: true }),
          call('agent', { description: 'second', prompt: 'task B', run_in_background: true }),
        ]);
      }
      if (turnOf(request) === 1) return useTools([call('task_list', {})]);
      return say('started both');
    }
    return say('got the reports');
  });
  const { kernel, model, reporter } = await bootKernel(steps, [createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  const events: SubagentEvent[] = [];
  kernel.container.get(TOKENS.SubagentRunner).subscribe!((event) => events.push(event));

  const first = await runPrompt(kernel, 'start both', 'default');
  expect(doneEvent(first).finalText).toBe('started both');
  // The parent's run finished while both children were still working.
  await bothAsked.promise;
  const started = model.requests.find((r) => promptOf(r) === 'start both' && turnOf(r) === 1)!;
  const [a, b] = lastResults(started).map((r) => taskIdIn(r.content));
  expect(lastResults(started).map((r) => r.content)).toEqual([expect.stringMatching(/^Started background task agent-\w+ \(general: first\)/), expect.stringMatching(/^Started background task agent-\w+ \(general: second\)/)]);
  const listed = model.requests.find((r) => promptOf(r) === 'start both' && turnOf(r) === 2)!;
  expect(lastResults(listed)[0]!.content.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${a}  running  general  .* first$`)), expect.stringMatching(new RegExp(`^${b}  running  general  .* second$`))]);

  release.resolve();
  await until(() => reporter.notices.filter((n) => n.startsWith('Background task')).length === 2, 'both tasks to finish');
  expect(reporter.notices).toEqual(expect.arrayContaining([`Background task ${a} (first) completed.`, `Background task ${b} (second) completed.`]));

  await runPrompt(kernel, 'what came back?', 'default');
  const next = model.requests.at(-1)!;
  expect(next.reminder).toContain(`Background task ${a} (general: first) completed`);
  expect(next.reminder).toContain('report of task A');
  expect(next.reminder).toContain('report of task B');
  // The UI got each task's events, tagged with task id and parent.
  const texts = events.filter((e) => e.event.type === 'text').map((e) => [e.taskId, e.parentAgentId, e.event.type === 'text' ? e.event.text : '']);
  expect(texts).toEqual(expect.arrayContaining([[a, 'main', 'report of task A'], [b, 'main', 'report of task B']]));
  await kernel.shutdown();
});

test('a background task stopped mid-run leaves a valid history and delivers nothing; a stopped task takes no messages', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const entered = deferred();
  let waits = 0;
  const slow: Tool = {
    name: 'mcp__slow__wait', // background agents get MCP tools, not arbitrary ones
    description: 'Waits a long time.',
    inputSchema: { type: 'object' },
    readOnly: true,
    async execute(_input, context) {
      waits++;
      entered.resolve();
      await abortableDelay(60_000, context.signal);
      return { content: 'never' };
    },
  };
  let taskId = '';
  const steps = routedSteps(6, async (request) => {
    const prompt = promptOf(request);
    if (prompt === 'slow work') return useTools([call('mcp__slow__wait', {})], 'Starting to wait.');
    if (prompt === 'anything?') return say('nothing');
    const turn = turnOf(request);
    if (turn === 0) return useTools([call('agent', { description: 'slow', prompt: 'slow work', run_in_background: true })]);
    if (turn === 1) {
      taskId = taskIdIn(lastResults(request)[0]!.content);
      await entered.promise;
      return useTools([call('task_message', { task_id: taskId, message: 'hurry up' }), call('task_stop', { task_id: taskId })]);
    }
    if (turn === 2) return useTools([call('task_output', { task_id: taskId }), call('task_message', { task_id: taskId, message: 'too late' })]);
    return say('stopped it');
  });
  const recorder = historyRecorder();
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([slow]), recorder.plugin, createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  const events = await runPrompt(kernel, 'start then stop', 'default');
  expect(doneEvent(events).finalText).toBe('stopped it');
  expect(waits).toBe(1);
  const afterStop = model.requests.find((r) => turnOf(r) === 2 && promptOf(r) === 'start then stop')!;
  expect(lastResults(afterStop).map((r) => r.content)).toEqual([`Message queued for ${taskId}; it reads it before its next step.`, `Stopped task ${taskId}.\n\nWhat it had said:\nStarting to wait.`]);
  const afterOutput = model.requests.find((r) => turnOf(r) === 3 && promptOf(r) === 'start then stop')!;
  expect(lastResults(afterOutput)[0]!.content).toMatch(new RegExp(`^${taskId}  stopped  general  [0-9.]+ s  slow\n\nStarting to wait\\.$`));
  expect(lastResults(afterOutput)[1]).toMatchObject({ isError: true, content: `Task ${taskId} is stopped, so it cannot receive messages; read its report with task_output.` });

  const child = recorder.histories.get(taskId)!;
  expect(historyProblems(child)).toEqual([]);
  expect(child.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  const results = child[2]!.role === 'tool' ? child[2]!.results : [];
  expect(results[0]).toMatchObject({ isError: true });
  // A stopped task's report is not delivered to the parent.
  await runPrompt(kernel, 'anything?', 'default');
  expect(model.requests.at(-1)!.reminder ?? '').not.toContain(taskId);
  expect(historyProblems(kernel.session.conversation.messages)).toEqual([]);
  await kernel.shutdown();
});

test('background tasks stop with the session, each leaving a valid history', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const asked = deferred();
  const steps = routedSteps(3, async (request, signal) => {
    if (promptOf(request) === 'forever') return hang(signal, asked);
    return turnOf(request) === 0 ? useTools([call('agent', { description: 'forever', prompt: 'forever', run_in_background: true })]) : say('ok');
  });
  const recorder = historyRecorder();
  const { kernel, reporter } = await bootKernel(steps, [recorder.plugin, createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'go', 'default');
  await asked.promise;
  const started = Date.now();
  await kernel.shutdown();
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(reporter.notices).toContainEqual(expect.stringMatching(/^Background task agent-[0-9a-f]{8} \(forever\) was stopped: the session ended\.$/));
  const child = [...recorder.histories.entries()].find(([id]) => id !== 'main')![1];
  expect(historyProblems(child)).toEqual([]);
  expect(child.at(-1)).toMatchObject({ role: 'assistant' });
});

test('task_message reaches a running task before its next model request; a message it read is not listed as unread in its report', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const entered = deferred();
  const sent = deferred();
  const wait: Tool = {
    name: 'mcp__slow__wait',
    description: 'Waits until told.',
    inputSchema: { type: 'object' },
    readOnly: true,
    async execute() {
      entered.resolve();
      await sent.promise;
      return { content: 'waited' };
    },
  };
  const childRequests: ModelRequest[] = [];
  const parent = messagingParent({ description: 'waiter', prompt: 'wait for word' }, entered.promise, sent);
  const steps = routedSteps(6, async (request) => {
    if (promptOf(request) === 'wait for word') {
      childRequests.push(request);
      return turnOf(request) === 0 ? useTools([call('mcp__slow__wait', {})]) : say('heard you');
    }
    if (promptOf(request) === 'anything?') return say('nothing new');
    return parent.turn(request);
  });
  const { kernel, reporter, model } = await bootKernel(steps, [toolsPlugin([wait]), createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'start', 'default');
  await until(() => reporter.notices.some((n) => n.startsWith(`Background task ${parent.taskId()}`)), 'the task to finish');
  expect(childRequests).toHaveLength(2);
  expect(childRequests[0]!.reminder ?? '').not.toContain('also check the tests');
  expect(childRequests[1]!.reminder).toContain('A message from the agent that started you: also check the tests');
  await runPrompt(kernel, 'anything?', 'default');
  const report = model.requests.find((r) => promptOf(r) === 'anything?')!.reminder ?? '';
  expect(report).toContain('heard you');
  expect(report).not.toContain('It ended before reading');
  await kernel.shutdown();
});

test('a message sent while the task makes its last request is never read: the report says so', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const inLastRequest = deferred();
  const sent = deferred();
  const parent = messagingParent({ description: 'one-stepper', prompt: 'one step' }, inLastRequest.promise, sent);
  const steps = routedSteps(5, async (request) => {
    if (promptOf(request) === 'one step') {
      inLastRequest.resolve();
      await sent.promise;
      return say('finished without tools');
    }
    if (promptOf(request) === 'anything?') return say('nothing new');
    return parent.turn(request);
  });
  const { kernel, reporter, model } = await bootKernel(steps, [createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'start', 'default');
  await until(() => reporter.notices.some((n) => n.startsWith(`Background task ${parent.taskId()}`)), 'the task to finish');
  await runPrompt(kernel, 'anything?', 'default');
  const report = model.requests.find((r) => promptOf(r) === 'anything?')!.reminder ?? '';
  expect(report).toContain(`Background task ${parent.taskId()}`);
  expect(report).toContain('It ended before reading this message from you (sent during its last step):\n- also check the tests');
  await kernel.shutdown();
});

test('a foreground sub-agent is cancelled with its parent, and both histories stay valid', async () => {
  const root = temp('mewcode-bg-root-');
  const home = temp('mewcode-bg-home-');
  const asked = deferred();
  const steps = routedSteps(2, async (request, signal) => {
    if (promptOf(request) === 'think long') return hang(signal, asked);
    return useTools([call('agent', { description: 'long', prompt: 'think long' })]);
  });
  const recorder = historyRecorder();
  const { kernel } = await bootKernel(steps, [recorder.plugin, createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  const controller = new AbortController();
  const running = runPrompt(kernel, 'delegate', 'default', controller.signal);
  await asked.promise;
  controller.abort();
  expect(doneEvent(await running).reason).toBe('cancelled');
  const [childId, child] = [...recorder.histories.entries()].find(([id]) => id !== 'main')!;
  expect(childId).toMatch(/^agent-/);
  expect(historyProblems(child)).toEqual([]);
  expect(historyProblems(kernel.session.conversation.messages)).toEqual([]);
  await kernel.shutdown();
});

/** A background task whose report says `report`; the parent asks what came back once it finished. */
async function backgroundReport(report: string, policy: ReturnType<typeof definePlugin>): Promise<{ reminder: string; taskOutput: string; kernel: Awaited<ReturnType<typeof bootKernel>>['kernel'] }> {
  const steps = routedSteps(5, async (request) => {
    const prompt = promptOf(request);
    if (prompt === 'look around') return say(report);
    if (prompt === 'start it') return turnOf(request) === 0 ? useTools([call('agent', { description: 'scan', prompt: 'look around', run_in_background: true })]) : say('started');
    if (turnOf(request) === 0) return useTools([call('task_output', { task_id: taskIdIn(request.reminder ?? '') })]);
    return say('read it');
  });
  const { kernel, model, reporter } = await bootKernel(steps, [policy, createSubagentsPlugin()], { projectRoot: temp('mewcode-bg-root-'), homeDir: temp('mewcode-bg-home-') });
  await runPrompt(kernel, 'start it', 'default');
  await until(() => reporter.notices.some((n) => n.startsWith('Background task')), 'the task to finish');
  await runPrompt(kernel, 'what came back?', 'default');
  const asked = model.requests.filter((r) => promptOf(r) === 'what came back?');
  return { reminder: asked[0]!.reminder ?? '', taskOutput: lastResults(asked.at(-1)!)[0]!.content, kernel };
}

test("a background task's report passes the agent call's postToolUse, as a foreground agent's result does: a redaction policy sees it, and task_output shows what passed", async () => {
  const seen: { tool: string; background: unknown }[] = [];
  const redact = definePlugin({
    name: 'org-redact',
    apply: (kernel) =>
      void kernel.hooks.postToolUse.tapPromise('org-redact', async (result, context) => {
        if (context.tool?.name === 'agent') seen.push({ tool: context.tool.name, background: context.input?.run_in_background });
        return { ...result, content: result.content.replaceAll('hunter2', '[redacted]') };
      }),
  });
  const { reminder, taskOutput, kernel } = await backgroundReport('the admin password is hunter2', redact);
  expect(reminder).toContain('completed');
  expect(reminder).toContain('the admin password is [redacted]');
  expect(reminder).not.toContain('hunter2');
  expect(taskOutput).toContain('the admin password is [redacted]');
  expect(taskOutput).not.toContain('hunter2');
  // The call's own result ("Started background task …") and then its report, both as the agent call.
  expect(seen).toEqual([
    { tool: 'agent', background: true },
    { tool: 'agent', background: true },
  ]);
  await kernel.shutdown();
});

test("a background task's report is withheld when the postToolUse policy fails on it", async () => {
  let calls = 0;
  const failing = definePlugin({
    name: 'org-redact',
    apply: (kernel) =>
      void kernel.hooks.postToolUse.tapPromise('org-redact', async (result, context) => {
        // The call's own result passes; the report arriving later meets a crashed redactor.
        if (context.tool?.name === 'agent' && ++calls === 2) throw new Error('redactor crashed');
        return result;
      }),
  });
  const { reminder, taskOutput, kernel } = await backgroundReport('the admin password is hunter2', failing);
  expect(reminder).toContain('Output withheld: plugin org-redact failed in hook postToolUse: Error');
  expect(reminder).not.toContain('hunter2');
  expect(taskOutput).not.toContain('hunter2');
  await kernel.shutdown();
});
