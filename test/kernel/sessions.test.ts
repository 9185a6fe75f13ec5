/**
 * Kernel v2, sessions (issue 7): a tool runs a child session to completion inside its parent's run
 * without waiting on any lock; child and background sessions run concurrently; a background session
 * stopped midway leaves a valid history and can run again; `fork` starts from none, some or all of
 * the parent's history; every hook payload says which session and agent it is about.
 */
import { ContainerModule } from 'inversify';
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/messages.js';
import type { ModelRequest } from '../../types/provider.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import type { AgentSession } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool, ToolContext } from '../../types/tools.js';
import { CANCELLED_BEFORE_START, CANCELLED_WHILE_RUNNING } from '../../kernel/tool-runner.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { sleepTool, toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';
import { deferred, delay, historyProblems, promptOf, requestProblems, routedSteps, turnOf } from './kernel-v2-helpers.js';

/** Generous, so a child that had to wait for its parent's lock would show as a timeout, not a pass. */
const DELEGATE_TIMEOUT_MS = 3_000;

interface Delegation {
  caller: AgentSession;
  child: AgentSession;
  events: AgentEvent[];
  parentWasRunning: boolean;
  childWasRunning: boolean;
}

/**
 * A plugin whose `delegate` tool creates a child session of the calling session (through the
 * kernel API it received in `apply`), runs it to completion and returns the child's final text.
 */
function delegationPlugin(delegations: Delegation[], how: 'createSession' | 'fork' = 'createSession'): MewcodePlugin {
  let api: KernelApi | undefined;
  const delegate: Tool = {
    name: 'delegate',
    description: 'Hands a task to a sub-agent and returns its answer.',
    inputSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
    readOnly: false,
    timeoutMs: () => DELEGATE_TIMEOUT_MS,
    async execute(input, ctx: ToolContext) {
      const child =
        how === 'fork'
          ? ctx.session.fork({ context: 'none', systemPrompt: ['You are a helper.'] })
          : api!.createSession({ parent: ctx.session, systemPrompt: ['You are a helper.'] });
      let childWasRunning = false;
      const events: AgentEvent[] = [];
      for await (const event of child.run({ prompt: String(input.task), mode: 'bypassPermissions', signal: ctx.signal })) {
        if (event.type === 'iteration') childWasRunning ||= child.running;
        events.push(event);
      }
      delegations.push({ caller: ctx.session, child, events, parentWasRunning: ctx.session.running, childWasRunning });
      return { content: `${child.agentId} said: ${doneEvent(events).finalText}` };
    },
  };
  return definePlugin({
    name: 'delegation',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(delegate)),
    apply(kernel) {
      api = kernel;
    },
  });
}

const roles = (messages: readonly Message[]): string[] => messages.map((m) => m.role);
const toolResults = (messages: readonly Message[]) => messages.filter((m) => m.role === 'tool').flatMap((m) => (m.role === 'tool' ? m.results : []));

test('a tool runs a child session to completion inside its parent run, without waiting on the parent lock', async () => {
  const log: ToolLog = { events: [] };
  const delegations: Delegation[] = [];
  const steps = [
    useTools([call('delegate', { task: 'count the files' })]), // parent, turn 1
    useTools([call('sleep_read', { ms: 20, text: 'in child' })]), // child, turn 1
    say('there are 3 files'), // child, turn 2
    say('the helper says 3'), // parent, turn 2
  ];
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([sleepTool(log)]), delegationPlugin(delegations)]);

  const started = performance.now();
  const events = await runPrompt(kernel, 'how many files?');
  const elapsed = performance.now() - started;

  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'the helper says 3' });
  expect(elapsed).toBeLessThan(DELEGATE_TIMEOUT_MS / 3);
  const [delegation] = delegations;
  expect(delegations).toHaveLength(1);
  const { child } = delegation!;
  // The tool got the calling session, which was still running (its lock held) while the child ran.
  expect(delegation!.caller).toBe(kernel.session);
  expect(delegation!.parentWasRunning).toBe(true);
  expect(delegation!.childWasRunning).toBe(true);
  expect(child.running).toBe(false);

  expect(child.agentId).toMatch(/^agent-/);
  expect(child.parentAgentId).toBe('main');
  expect(child.sessionId).toBe(kernel.session.sessionId);
  expect(toolResults(kernel.conversation.messages)).toEqual([{ toolCallId: expect.any(String), isError: false, content: `${child.agentId} said: there are 3 files` }]);

  // Each session has its own history; the child's never leaks into the parent's.
  expect(roles(child.conversation.messages)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(child.conversation.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'count the files' }], prompt: true });
  expect(roles(kernel.conversation.messages)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(historyProblems(child.conversation.messages)).toEqual([]);
  expect(historyProblems(kernel.conversation.messages)).toEqual([]);

  // The child's requests carry its own prompt, history and system prompt.
  expect(model.requests.map(promptOf)).toEqual(['how many files?', 'count the files', 'count the files', 'how many files?']);
  expect(model.requests[1]!.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'count the files' }], prompt: true }]);
  expect(model.requests[1]!.system.stable).toBe('You are a helper.');
  expect(model.requests[0]!.system.stable).toBe('');

  // Events stay with their session: the parent's stream shows its own tool, the child's its own.
  const toolNames = (list: AgentEvent[]) => list.filter((e) => e.type === 'tool_start').map((e) => (e.type === 'tool_start' ? e.call.name : ''));
  expect(toolNames(events)).toEqual(['delegate']);
  expect(toolNames(delegation!.events)).toEqual(['sleep_read']);
  expect(log.events).toEqual(['start:in child', 'end:in child']);
});

test('a child made with context.session.fork also runs inside the parent run', async () => {
  const delegations: Delegation[] = [];
  const steps = [useTools([call('delegate', { task: 'summarise' })]), say('summary'), say('done')];
  const { kernel, model } = await bootKernel(steps, [delegationPlugin(delegations, 'fork')]);
  const started = performance.now();
  const events = await runPrompt(kernel, 'go');
  expect(performance.now() - started).toBeLessThan(DELEGATE_TIMEOUT_MS / 3);
  expect(doneEvent(events).finalText).toBe('done');
  const child = delegations[0]!.child;
  expect([child.parentAgentId, child.sessionId]).toEqual(['main', kernel.session.sessionId]);
  expect(model.requests[1]!.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'summarise' }], prompt: true }]);
  expect(toolResults(kernel.conversation.messages)[0]).toMatchObject({ isError: false, content: `${child.agentId} said: summary` });
});

test('two child sessions run concurrently: both are in flight at once', async () => {
  const log: ToolLog = { events: [] };
  // Each child's first request waits until the other child's first request has arrived too. Run one
  // after the other, the first would wait in vain until the barrier gives up.
  const arrived = new Set<string>();
  const bothArrived = deferred();
  let barrierGaveUp = false;
  const steps = routedSteps(6, async (request) => {
    const prompt = promptOf(request);
    if (prompt === 'fan out') return turnOf(request) === 0 ? useTools([call('fan_out')]) : say('both finished');
    if (turnOf(request) === 0) {
      arrived.add(prompt);
      if (arrived.size === 2) bothArrived.resolve();
      const timedOut = await Promise.race([bothArrived.promise.then(() => false), delay(1_500).then(() => true)]);
      barrierGaveUp ||= timedOut;
      return useTools([call('sleep_read', { ms: 150, text: prompt })]);
    }
    return say(`${prompt} done`);
  });

  let api: KernelApi | undefined;
  const finals: string[] = [];
  const fanOut: Tool = {
    name: 'fan_out',
    description: 'Runs two sub-agents side by side.',
    inputSchema: { type: 'object' },
    readOnly: false,
    async execute(_input, ctx) {
      const a = ctx.session.fork({ context: 'none' });
      const b = api!.createSession({ parent: ctx.session });
      const [ea, eb] = await Promise.all([collect(a.run({ prompt: 'task A', mode: 'bypassPermissions' })), collect(b.run({ prompt: 'task B', mode: 'bypassPermissions' }))]);
      finals.push(doneEvent(ea).finalText, doneEvent(eb).finalText);
      return { content: 'ok' };
    },
  };
  const plugin = definePlugin({
    name: 'fan-out',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(fanOut)),
    apply(kernel) {
      api = kernel;
    },
  });
  const { kernel } = await bootKernel(steps, [toolsPlugin([sleepTool(log)]), plugin]);

  const started = performance.now();
  const events = await runPrompt(kernel, 'fan out');
  const elapsed = performance.now() - started;

  expect(doneEvent(events).finalText).toBe('both finished');
  expect(barrierGaveUp).toBe(false);
  expect(finals).toEqual(['task A done', 'task B done']);
  // Both children's tools were running at the same time: both started before either ended.
  expect(log.events.slice(0, 2).sort()).toEqual(['start:task A', 'start:task B']);
  expect(log.events.slice(2).sort()).toEqual(['end:task A', 'end:task B']);
  expect(elapsed).toBeLessThan(1_000); // 2 × 150 ms serial would still pass this; the barrier is the proof
});

test('background sessions run beside the main session; one stopped midway leaves a valid history and runs again', async () => {
  const log: ToolLog = { events: [] };
  const stops: { agentId: string; reason: string }[] = [];
  const subagentStops: { agentId: string; reason: string }[] = [];
  const observer = definePlugin({
    name: 'observer',
    apply(kernel) {
      kernel.hooks.stop.tapPromise('observer', async (context) => void stops.push({ agentId: context.agentId, reason: context.reason }));
      kernel.hooks.subagentStop.tapPromise('observer', async (context) => void subagentStops.push({ agentId: context.agentId, reason: context.reason }));
    },
  });
  const steps = routedSteps(3, (request) => {
    switch (promptOf(request)) {
      case 'long job':
        return useTools([call('sleep_read', { ms: 10_000, text: 'bg' }), call('write_note', { text: 'after' })]);
      case 'meanwhile':
        return say('main answered');
      default:
        return say(`back at it: ${promptOf(request)}`);
    }
  });
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([sleepTool(log), writeTool(log)]), observer]);
  const background = kernel.createSession({ parent: kernel.session });

  const controller = new AbortController();
  const toolRunning = deferred();
  const backgroundEvents: AgentEvent[] = [];
  const backgroundRun = (async () => {
    for await (const event of background.run({ prompt: 'long job', mode: 'bypassPermissions', signal: controller.signal })) {
      backgroundEvents.push(event);
      if (event.type === 'tool_start') toolRunning.resolve();
    }
  })();
  await toolRunning.promise;
  expect(background.running).toBe(true);

  // The main session does not wait for the background one.
  const mainEvents = await runPrompt(kernel, 'meanwhile');
  expect(doneEvent(mainEvents).finalText).toBe('main answered');
  expect(background.running).toBe(true);
  expect(log.events).toEqual(['start:bg']);

  const stoppedAt = performance.now();
  controller.abort();
  await backgroundRun;
  expect(performance.now() - stoppedAt).toBeLessThan(1_000);
  expect(doneEvent(backgroundEvents).reason).toBe('cancelled');
  expect(background.running).toBe(false);

  const history = [...background.conversation.messages];
  expect(historyProblems(history)).toEqual([]);
  expect(roles(history)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(toolResults(history).map((r) => r.content)).toEqual([CANCELLED_WHILE_RUNNING, CANCELLED_BEFORE_START]);
  expect(log.events).toEqual(['start:bg']); // the write never started
  expect(roles(kernel.conversation.messages)).toEqual(['user', 'assistant']); // nothing of the background's leaked in
  expect(stops).toEqual([
    { agentId: 'main', reason: 'completed' },
    { agentId: background.agentId, reason: 'cancelled' },
  ]);
  expect(subagentStops).toEqual([{ agentId: background.agentId, reason: 'cancelled' }]);

  // The stopped session runs again from its valid history.
  const again = await collect(background.run({ prompt: 'continue', mode: 'bypassPermissions' }));
  expect(doneEvent(again)).toMatchObject({ reason: 'completed', finalText: 'back at it: continue' });
  const lastRequest = model.requests.at(-1)!;
  expect(requestProblems(lastRequest.messages)).toEqual([]);
  expect(lastRequest.messages.slice(0, history.length)).toEqual(history);
  expect(historyProblems(background.conversation.messages)).toEqual([]);
});

describe('fork', () => {
  /** Main history: [user one, assistant(call), tool, assistant "answer one", user two, assistant "answer two"]. */
  async function withHistory(extraSteps: ReturnType<typeof say>[] = []) {
    const log: ToolLog = { events: [] };
    const booted = await bootKernel(
      [useTools([call('sleep_read', { ms: 0, text: 'x' })]), say('answer one'), say('answer two'), ...extraSteps],
      [toolsPlugin([sleepTool(log), writeTool(log)])],
    );
    await runPrompt(booted.kernel, 'one');
    await runPrompt(booted.kernel, 'two');
    expect(roles(booted.kernel.conversation.messages)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    return booted;
  }

  test("context 'none' | {recent: N} | 'full' start from none, the last N (widened to a prompt) or all of the parent's history", async () => {
    const { kernel } = await withHistory();
    const main = kernel.conversation.messages;

    const none = kernel.session.fork({ context: 'none' });
    expect(none.conversation.messages).toEqual([]);

    const full = kernel.session.fork({ context: 'full' });
    expect(full.conversation.messages).toEqual(main);
    expect(full.conversation.messages).not.toBe(main);

    expect(kernel.session.fork({ context: { recent: 2 } }).conversation.messages).toEqual(main.slice(4));
    // The last message alone would start with an assistant turn: the slice widens back to its prompt.
    expect(kernel.session.fork({ context: { recent: 1 } }).conversation.messages).toEqual(main.slice(4));
    // Three back lands on an assistant turn after tool results: widened back to the prompt "one".
    expect(kernel.session.fork({ context: { recent: 3 } }).conversation.messages).toEqual(main);
    expect(kernel.session.fork({ context: { recent: 0 } }).conversation.messages).toEqual([]);

    for (const fork of [none, full]) {
      expect(fork.parentAgentId).toBe('main');
      expect(fork.sessionId).toBe(kernel.session.sessionId);
      expect(fork.agentId).not.toBe('main');
    }
    expect(none.agentId).not.toBe(full.agentId);
  });

  test('a fork runs on its copy: its first request has the parent history and its prompt; the parent is untouched', async () => {
    const { kernel, model } = await withHistory([say('forked answer')]);
    const before = [...kernel.conversation.messages];
    const fork = kernel.session.fork({ context: 'full', tools: ['sleep_read'], systemPrompt: ['You are a reviewer.'] });
    const events = await collect(fork.run({ prompt: 'three', mode: 'default' }));
    expect(doneEvent(events).finalText).toBe('forked answer');
    const request = model.requests.at(-1)!;
    expect(request.messages).toEqual([...before, { role: 'user', content: [{ type: 'text', text: 'three' }], prompt: true }]);
    expect(request.tools.map((t) => t.name)).toEqual(['sleep_read']); // ForkOptions pass through
    expect(request.system.stable).toBe('You are a reviewer.');
    expect(kernel.conversation.messages).toEqual(before);
    expect(fork.conversation.messages).toHaveLength(before.length + 2);
  });

  test("a full fork taken while the parent's tool call is running answers that call, so its request is valid", async () => {
    let forkRequest: Message[] | undefined;
    const forkInside: Tool = {
      name: 'fork_inside',
      description: 'Forks the calling session while its own call is open.',
      inputSchema: { type: 'object' },
      readOnly: false,
      async execute(_input, ctx) {
        const fork = ctx.session.fork({ context: 'full' });
        const events = await collect(fork.run({ prompt: 'side question', mode: 'bypassPermissions' }));
        return { content: `side: ${doneEvent(events).finalText}` };
      },
    };
    const steps = [
      useTools([call('fork_inside')]),
      async function* (request: ModelRequest) {
        forkRequest = structuredClone([...request.messages]);
        yield* say('side answer');
      },
      say('main done'),
    ];
    const { kernel } = await bootKernel(steps, [toolsPlugin([forkInside])]);
    const events = await runPrompt(kernel, 'start');
    expect(doneEvent(events).finalText).toBe('main done');
    expect(roles(forkRequest!)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(requestProblems(forkRequest!)).toEqual([]);
    expect(historyProblems(kernel.conversation.messages)).toEqual([]);
    expect(toolResults(kernel.conversation.messages)[0]).toMatchObject({ isError: false, content: 'side: side answer' });
  });
});

test('hook payloads carry sessionId, agentId and parentAgentId; subagentStart/subagentStop fire for each child only', async () => {
  type Seen = { hook: string; sessionId?: string; agentId?: string; parentAgentId?: string };
  const seen: Seen[] = [];
  const subagents: string[] = [];
  const who = (hook: string, context: { sessionId?: string; agentId?: string; parentAgentId?: string }): void =>
    void seen.push({ hook, sessionId: context.sessionId, agentId: context.agentId, ...(context.parentAgentId ? { parentAgentId: context.parentAgentId } : {}) });
  const recorder = definePlugin({
    name: 'identity-recorder',
    apply(kernel) {
      const { hooks } = kernel;
      hooks.userPromptSubmit.tapPromise('identity-recorder', async (submission, context) => (who('userPromptSubmit', context), submission));
      hooks.buildEnvironment.tapPromise('identity-recorder', async (parts, context) => (who('buildEnvironment', context), parts));
      hooks.preModelRequest.tapPromise('identity-recorder', async (request, context) => (who('preModelRequest', context), request));
      hooks.preToolUse.tapPromise('identity-recorder', async (decision, context) => (who('preToolUse', context), decision));
      hooks.postToolUse.tapPromise('identity-recorder', async (result, context) => (who('postToolUse', context), result));
      hooks.permissionDecided.tapPromise('identity-recorder', async (decision) => who('permissionDecided', { ...decision, sessionId: decision.request.sessionId }));
      hooks.checkPermission.tapPromise('identity-recorder', async (request) => void who('checkPermission', request));
      hooks.messageAppended.tapPromise('identity-recorder', async (_message, context) => who('messageAppended', context));
      hooks.stop.tapPromise('identity-recorder', async (context) => void who('stop', context));
      hooks.buildSystemPrompt.tap('identity-recorder', (parts, context) => (who('buildSystemPrompt', context), parts));
      hooks.subagentStart.tapPromise('identity-recorder', async (context) => {
        who('subagentStart', context);
        subagents.push(`start ${context.agentId} < ${context.parentAgentId}: ${context.prompt}`);
      });
      hooks.subagentStop.tapPromise('identity-recorder', async (context) => {
        who('subagentStop', context);
        subagents.push(`stop ${context.agentId}: ${context.reason} "${context.finalText}"`);
      });
    },
  });
  const delegations: Delegation[] = [];
  const steps = [
    useTools([call('delegate', { task: 'child task' })]), // main
    useTools([call('delegate', { task: 'grandchild task' })]), // child delegates again
    say('grandchild answer'), // grandchild
    say('child answer'), // child
    say('main answer'), // main
  ];
  const { kernel } = await bootKernel(steps, [recorder, delegationPlugin(delegations)]);
  await runPrompt(kernel, 'main task');

  const [grandchild, child] = delegations.map((d) => d.child);
  expect(grandchild!.parentAgentId).toBe(child!.agentId);
  expect(child!.parentAgentId).toBe('main');
  expect(delegations.map((d) => d.caller.agentId)).toEqual([child!.agentId, 'main']);

  const sessionId = kernel.session.sessionId;
  const byAgent = (agentId: string) => seen.filter((s) => s.agentId === agentId);
  const expected = (agentId: string, parentAgentId?: string) => ({ sessionId, agentId, ...(parentAgentId ? { parentAgentId } : {}) });
  expect(seen.every((s) => ['main', child!.agentId, grandchild!.agentId].includes(s.agentId!))).toBe(true);
  for (const [agentId, parentAgentId] of [['main', undefined], [child!.agentId, 'main'], [grandchild!.agentId, child!.agentId]] as const) {
    const mine = byAgent(agentId);
    for (const s of mine) expect({ hook: s.hook, ...expected(agentId, parentAgentId) }).toEqual(s);
    const hooks = new Set(mine.map((s) => s.hook));
    for (const hook of ['userPromptSubmit', 'buildSystemPrompt', 'buildEnvironment', 'preModelRequest', 'messageAppended', 'stop']) expect(hooks).toContain(hook);
    if (agentId !== grandchild!.agentId) for (const hook of ['preToolUse', 'checkPermission', 'permissionDecided', 'postToolUse']) expect(hooks).toContain(hook);
    if (agentId === 'main') expect(hooks.has('subagentStart') || hooks.has('subagentStop')).toBe(false);
    else expect([...hooks].filter((h) => h.startsWith('subagent')).sort()).toEqual(['subagentStart', 'subagentStop']);
  }
  expect(subagents).toEqual([
    `start ${child!.agentId} < main: child task`,
    `start ${grandchild!.agentId} < ${child!.agentId}: grandchild task`,
    `stop ${grandchild!.agentId}: completed "grandchild answer"`,
    `stop ${child!.agentId}: completed "child answer"`,
  ]);
});
