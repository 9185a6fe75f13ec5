/**
 * Kernel v2, every hook at its moment (issue 7): a recorder plugin taps EVERY hook of the catalogue
 * (it iterates HOOK_CATALOGUE, so a new hook cannot be forgotten) and scripted sessions check that
 * each fires when the catalogue says: a tool call with approval, compaction (manual and emergency),
 * a resumed session, a kernel fault, session start/end, sub-agents, notifications, trust, the
 * system prompt and environment, prompt blocking and extra context, and stop continuations. The
 * last test runs every scenario and requires that every catalogue hook was seen.
 */
import { ContainerModule } from 'inversify';
import { MAX_STOP_CONTINUATIONS } from '../../kernel/agent-loop.js';
import type { Kernel, KernelOptions } from '../../kernel/kernel.js';
import { HOOK_CATALOGUE, type HookSpec } from '../../types/hook-catalogue.js';
import type { HookName } from '../../types/hooks.js';
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/messages.js';
import type { ProviderEvent } from '../../types/provider.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import type { CompactionService, SessionRecords } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool } from '../../types/tools.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { call, fail, say, useTools, type Step } from '../support/memory-provider.js';
import { sleepTool, toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';
import { historyProblems } from './kernel-v2-helpers.js';

const HOOKS = Object.keys(HOOK_CATALOGUE) as HookName[];

interface Fire {
  hook: HookName;
  /** The hook and what it was about, taken when it fired (payloads may change later). */
  label: string;
  /** The agent the payload names, when it names one. */
  agentId: string | undefined;
  args: unknown[];
}

type Ctx = { agentId?: string; sessionId?: string; reason?: string; call?: { name: string }; kind?: string; toolName?: string };

/** Which argument carries the session identity, per hook (the rest carry it in the first). */
const CONTEXT_SECOND: ReadonlySet<HookName> = new Set<HookName>([
  'userPromptSubmit', 'buildSystemPrompt', 'buildEnvironment', 'preModelRequest', 'preCompact', 'postCompact', 'preToolUse', 'postToolUse', 'messageAppended',
]);

function describeFire(hook: HookName, args: unknown[]): Pick<Fire, 'label' | 'agentId'> {
  const first = args[0] as Ctx & { role?: string; allowed?: boolean; request?: { toolName: string } };
  const context = (CONTEXT_SECOND.has(hook) ? args[1] : args[0]) as Ctx | undefined;
  const agentId = hook === 'trustDecided' ? undefined : context?.agentId;
  switch (hook) {
    case 'messageAppended':
      return { label: `messageAppended:${first.role}`, agentId };
    case 'preToolUse':
    case 'postToolUse':
      return { label: `${hook}:${context!.call!.name}`, agentId };
    case 'checkPermission':
    case 'requestApproval':
      return { label: `${hook}:${first.toolName}`, agentId };
    case 'permissionDecided':
      return { label: `permissionDecided:${first.request!.toolName}:${first.allowed ? 'allowed' : 'refused'}`, agentId };
    case 'stop':
    case 'preCompact':
    case 'postCompact':
      return { label: `${hook}:${first.reason}`, agentId };
    case 'notification':
      return { label: `notification:${first.kind}`, agentId };
    default:
      return { label: hook, agentId };
  }
}

/** Taps every hook of the catalogue, the way its class requires, and changes nothing. */
function recorder(fires: Fire[], name = 'recorder'): MewcodePlugin {
  return definePlugin({
    name,
    apply(kernel) {
      for (const hook of HOOKS) {
        const spec: HookSpec = HOOK_CATALOGUE[hook];
        const passThrough = spec.class.includes('Waterfall'); // a waterfall must hand its value on
        const record = (args: unknown[]): unknown => {
          fires.push({ hook, ...describeFire(hook, args), args });
          return passThrough ? args[0] : undefined;
        };
        const facade = kernel.hooks[hook] as unknown as { tap(name: string, fn: (...args: unknown[]) => unknown): void; tapPromise(name: string, fn: (...args: unknown[]) => Promise<unknown>): void };
        if (spec.class.startsWith('Sync')) facade.tap(name, (...args) => record(args));
        else facade.tapPromise(name, async (...args) => record(args));
      }
    },
    dispose() {
      fires.push({ hook: 'sessionEnd', label: '(recorder disposed)', agentId: undefined, args: [] });
    },
  });
}

interface Recorded {
  kernel: Kernel;
  fires: Fire[];
  model: { requests: import('../../types/provider.js').ModelRequest[] };
  reporter: import('../../kernel/reporter.js').MemoryReporter;
}

/** The recorder is loaded first, so its tap on a bail hook runs before any plugin that answers. */
async function bootRecorded(steps: Step[], plugins: MewcodePlugin[] = [], options: Partial<KernelOptions> = {}): Promise<Recorded> {
  const fires: Fire[] = [];
  const booted = await bootKernel(steps, [recorder(fires), ...plugins], options);
  return { ...booted, fires };
}

const labels = (fires: Fire[], exclude: HookName[] = ['notification']): string[] => fires.filter((f) => !exclude.includes(f.hook)).map((f) => f.label);
const seenHooks = (fires: Fire[]): Set<HookName> => new Set(fires.map((f) => f.hook));

const approver = (answer: (toolName: string) => 'allow_once' | 'deny' | undefined): MewcodePlugin =>
  definePlugin({
    name: 'approver',
    apply(kernel) {
      kernel.hooks.requestApproval.tapPromise('approver', async (request) => {
        const choice = answer(request.toolName);
        return choice ? { choice, answeredBy: 'approver' } : undefined;
      });
    },
  });

// ------------------------------------------------------------------------------------------------
// Scenarios: each asserts its own moments and returns the hooks it saw.

async function toolCallScenario(): Promise<Set<HookName>> {
  const log: ToolLog = { events: [] };
  const { kernel, fires } = await bootRecorded([useTools([call('write_note', { text: 'n' })]), say('written')], [toolsPlugin([writeTool(log)]), approver(() => 'allow_once')]);
  const events = await runPrompt(kernel, 'write a note', 'default');
  expect(doneEvent(events).reason).toBe('completed');
  expect(labels(fires)).toEqual([
    'buildSystemPrompt',
    'userPromptSubmit',
    'messageAppended:user',
    'buildEnvironment',
    'preModelRequest',
    'messageAppended:assistant',
    'preToolUse:write_note',
    'checkPermission:write_note',
    'requestApproval:write_note', // the mode layer asked; the recorder saw it before the approver answered
    'permissionDecided:write_note:allowed',
    'postToolUse:write_note',
    'messageAppended:tool',
    'buildEnvironment',
    'preModelRequest',
    'messageAppended:assistant',
    'stop:completed',
  ]);
  const decided = fires.find((f) => f.hook === 'permissionDecided')!.args[0];
  expect(decided).toMatchObject({ verdict: { decision: 'ask', layer: 'permission-mode' }, approval: { choice: 'allow_once', answeredBy: 'approver' }, allowed: true, agentId: 'main' });
  for (const hook of ['checkPermission', 'requestApproval'] as const) {
    expect(fires.find((f) => f.hook === hook)!.args[0]).toMatchObject({ toolName: 'write_note', sessionId: kernel.session.sessionId, agentId: 'main' });
  }
  const post = fires.find((f) => f.hook === 'postToolUse')!;
  expect(post.args[0]).toMatchObject({ content: 'wrote n', isError: false });
  expect(log.events).toEqual(['write:n']);
  expect(fires.filter((f) => f.hook === 'messageAppended').map((f) => (f.args[1] as { index: number }).index)).toEqual([0, 1, 2, 3]);
  return seenHooks(fires);
}

/** Keeps the last exchange, as a real compactor would keep recent turns after a summary. */
function compactionPlugin(calls: string[]): MewcodePlugin {
  const service: CompactionService = {
    shouldCompact: () => false,
    async compact(messages, { reason }) {
      calls.push(reason);
      return [{ role: 'user', content: [{ type: 'text', text: '(summary of earlier work)' }] }, ...messages.slice(-1)];
    },
  };
  return definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
}

async function compactionScenario(): Promise<Set<HookName>> {
  const calls: string[] = [];
  const tooLong: ProviderEvent[] = fail('prompt_too_long', 'prompt is too long');
  const { kernel, fires, model } = await bootRecorded([say('first answer'), tooLong, say('fits now')], [compactionPlugin(calls)]);
  await runPrompt(kernel, 'first');

  // Manual: preCompact, the service, postCompact with the new size.
  let mark = fires.length;
  expect(await kernel.compactNow('default')).toBe(true);
  const manual = fires.slice(mark);
  expect(labels(manual)).toEqual(['preCompact:manual', 'postCompact:manual']);
  const [pre, post] = manual.map((f) => f.args[0] as { compacted: boolean; tokensAfter?: number; estimatedTokens: number });
  expect(pre).toMatchObject({ compacted: false });
  expect(post).toMatchObject({ compacted: true, tokensAfter: expect.any(Number) });
  expect(manual[0]!.args[1]).toMatchObject({ agentId: 'main', mode: 'default' });
  expect(kernel.conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

  // Emergency: the provider says the prompt is too long; compaction runs between the two requests.
  mark = fires.length;
  const events = await runPrompt(kernel, 'second');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'fits now' });
  expect(labels(fires.slice(mark))).toEqual([
    'userPromptSubmit',
    'messageAppended:user',
    'buildEnvironment',
    'preModelRequest',
    'preCompact:emergency',
    'postCompact:emergency',
    'preModelRequest', // the retry
    'messageAppended:assistant',
    'stop:completed',
  ]);
  expect(calls).toEqual(['manual', 'emergency']);
  expect(model.requests).toHaveLength(3);
  return seenHooks(fires);
}

async function resumeScenario(): Promise<Set<HookName>> {
  const { kernel, fires, model } = await bootRecorded([say('continuing')]);
  const records: SessionRecords = {
    sessionId: '20250101-120000-abcd',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'old question' }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 'old_call', name: 'sleep_read', input: '{}' }] }, // interrupted mid-call
    ],
  };
  const session = await kernel.resumeSession(records);
  expect(labels(fires)).toEqual(['messageAppended:assistant', 'sessionResume']); // the history is repaired, then announced
  const resumed = fires.find((f) => f.hook === 'sessionResume')!.args[0];
  expect(resumed).toMatchObject({ sessionId: records.sessionId, agentId: 'main' });
  expect(kernel.session).toBe(session);
  expect(historyProblems(session.conversation.messages)).toEqual([]);

  const events = await runPrompt(kernel, 'go on');
  expect(doneEvent(events).finalText).toBe('continuing');
  expect(model.requests[0]!.messages.slice(0, 2)).toEqual(records.messages);
  expect(fires.filter((f) => f.hook === 'userPromptSubmit').map((f) => (f.args[1] as Ctx).sessionId)).toEqual([records.sessionId]);
  return seenHooks(fires);
}

async function faultScenario(): Promise<Set<HookName>> {
  // A provider bug the stream loop cannot catch: a tool_calls event without a list.
  const malformed: ProviderEvent[] = [{ type: 'tool_calls', calls: undefined as never }, { type: 'done', content: [], stopReason: 'tool_use' }];
  const timeline: string[] = [];
  const slowStop = definePlugin({
    name: 'slow-stop',
    apply(kernel) {
      // Finishes a little later, so a `done` sent before `stop` ended would be seen first.
      kernel.hooks.stop.tapPromise('slow-stop', async (context) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        timeline.push(`stop:${context.reason}`);
      });
    },
  });
  const { kernel, fires } = await bootRecorded([malformed], [slowStop]);
  const events: AgentEvent[] = [];
  for await (const event of kernel.run({ prompt: 'go', mode: 'default' })) {
    events.push(event);
    timeline.push(`event:${event.type}`);
  }
  expect(events).toContainEqual({ type: 'error', kind: 'internal', message: expect.stringMatching(/^Internal error: /) });
  expect(doneEvent(events).reason).toBe('error');
  expect(timeline.slice(-2)).toEqual(['stop:error', 'event:done']);
  const stops = fires.filter((f) => f.hook === 'stop');
  expect(stops).toHaveLength(1);
  expect(stops[0]!.args[0]).toMatchObject({ reason: 'error', finalText: expect.stringMatching(/^Internal error: /), agentId: 'main' });
  expect(historyProblems(kernel.conversation.messages)).toEqual([]);

  // A provider that throws something other than a ProviderError: a provider error, same ending.
  const throwing = await bootRecorded([
    async function* () {
      yield { type: 'text' as const, text: 'half' };
      throw new TypeError('cannot read properties of undefined');
    },
  ]);
  const thrown = await runPrompt(throwing.kernel, 'go');
  expect(thrown).toContainEqual({ type: 'error', kind: 'unknown', message: 'The provider failed: cannot read properties of undefined' });
  expect(thrown.at(-1)).toMatchObject({ type: 'done', reason: 'error' });
  expect(labels(throwing.fires).slice(-2)).toEqual(['messageAppended:assistant', 'stop:error']);
  expect(historyProblems(throwing.kernel.conversation.messages)).toEqual([]);
  return seenHooks(fires);
}

async function sessionStartEndScenario(): Promise<Set<HookName>> {
  const { kernel, fires } = await bootRecorded([say('hi')]);
  await kernel.startSession();
  await runPrompt(kernel, 'hello');
  await kernel.shutdown();
  const all = labels(fires);
  expect(all[0]).toBe('sessionStart');
  expect(all.slice(-2)).toEqual(['sessionEnd', '(recorder disposed)']);
  expect(fires[0]!.args[0]).toMatchObject({ agentId: 'main', sessionId: kernel.session.sessionId, projectRoot: '/tmp/project', homeDir: '/tmp/home' });
  return seenHooks(fires);
}

async function subagentScenario(): Promise<Set<HookName>> {
  let api: KernelApi | undefined;
  let childId = '';
  const delegate: Tool = {
    name: 'delegate',
    description: 'Asks a sub-agent.',
    inputSchema: { type: 'object' },
    readOnly: true,
    async execute(_input, ctx) {
      const child = api!.createSession({ parent: ctx.session });
      childId = child.agentId;
      const events = await collect(child.run({ prompt: 'sub', mode: 'default' }));
      return { content: doneEvent(events).finalText };
    },
  };
  const plugin = definePlugin({
    name: 'delegation',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(delegate)),
    apply: (kernel) => void (api = kernel),
  });
  const { kernel, fires } = await bootRecorded([useTools([call('delegate')]), say('from the child'), say('main done')], [plugin]);
  await runPrompt(kernel, 'delegate it', 'default');
  const child = fires.filter((f) => f.agentId === childId).map((f) => f.label);
  expect(child).toEqual(['subagentStart', 'buildSystemPrompt', 'userPromptSubmit', 'messageAppended:user', 'buildEnvironment', 'preModelRequest', 'messageAppended:assistant', 'stop:completed', 'subagentStop']);
  const [start, stop] = fires.filter((f) => f.hook.startsWith('subagent')).map((f) => f.args[0]);
  expect(start).toMatchObject({ agentId: childId, parentAgentId: 'main', sessionId: kernel.session.sessionId, prompt: 'sub' });
  expect(stop).toMatchObject({ agentId: childId, parentAgentId: 'main', reason: 'completed', finalText: 'from the child' });
  // The child's whole run sits between the parent's preToolUse and postToolUse of `delegate`.
  const all = labels(fires);
  expect(all.indexOf('preToolUse:delegate')).toBeLessThan(all.indexOf('subagentStart'));
  expect(all.indexOf('subagentStop')).toBeLessThan(all.indexOf('postToolUse:delegate'));
  return seenHooks(fires);
}

async function notificationScenario(): Promise<Set<HookName>> {
  const log: ToolLog = { events: [] };
  const { kernel, fires, reporter } = await bootRecorded([useTools([call('write_note', { text: 'x' })]), say('could not')], [toolsPlugin([writeTool(log)])]);
  kernel.notify('notice', 'hello from the host');
  kernel.warn('careful');
  await runPrompt(kernel, 'write', 'default'); // the mode asks; nobody answers; the UI is told
  const notified = fires.filter((f) => f.hook === 'notification').map((f) => f.args[0]);
  expect(notified).toEqual([
    { kind: 'notice', message: 'hello from the host', sessionId: kernel.session.sessionId, agentId: 'main' },
    { kind: 'warning', message: 'careful', sessionId: kernel.session.sessionId, agentId: 'main' },
    { kind: 'approval_needed', message: expect.stringContaining('write_note needs approval'), sessionId: kernel.session.sessionId, agentId: 'main' },
  ]);
  expect(reporter.notices).toEqual(['hello from the host']);
  expect(labels(fires)).toContain('permissionDecided:write_note:refused');
  expect(log.events).toEqual([]);
  return seenHooks(fires);
}

function handMadeTrust(projectRoot: string): WorkspaceTrust {
  return {
    projectRoot,
    source: 'flag',
    isTrusted: () => true,
    pending: () => ({ projectRoot, settings: [], changed: false }),
    grant: async () => undefined,
    skipped: () => ['.mewcode.yaml: plugins'],
    notice: () => undefined,
    warnings: [],
    scopeOf: () => 'project',
    approves: () => true,
  };
}

async function trustScenario(): Promise<Set<HookName>> {
  const { fires, kernel } = await bootRecorded([], [], { trust: handMadeTrust('/tmp/project') });
  expect(labels(fires)).toEqual(['trustDecided']); // once, at boot, after the plugins applied
  expect(fires[0]!.args[0]).toEqual({ projectRoot: '/tmp/project', trusted: true, source: 'flag', skipped: ['.mewcode.yaml: plugins'] });
  expect(kernel.container.get(TOKENS.WorkspaceTrust).source).toBe('flag');
  const untrusted = await bootRecorded([]);
  expect(untrusted.fires).toEqual([]); // no trust service, no announcement
  return seenHooks(fires);
}

async function promptAndEnvironmentScenario(): Promise<Set<HookName>> {
  const log: ToolLog = { events: [] };
  const environment = definePlugin({
    name: 'env-probe',
    apply(kernel) {
      kernel.hooks.buildSystemPrompt.tap('env-probe', (parts) => [...parts, 'stable part']);
      kernel.hooks.buildEnvironment.tapPromise('env-probe', async (parts, context) => [...parts, `iteration ${context.iteration}`]);
    },
  });
  const steps = [useTools([call('sleep_read', { ms: 0, text: 'a' })]), say('one'), say('two'), say('three')];
  const { kernel, fires, model } = await bootRecorded(steps, [toolsPlugin([sleepTool(log)]), environment]);
  await runPrompt(kernel, 'first'); // two requests
  await runPrompt(kernel, 'second'); // one request
  const count = (hook: HookName) => fires.filter((f) => f.hook === hook).length;
  expect(count('buildSystemPrompt')).toBe(1); // computed once per session and tool list
  expect(count('buildEnvironment')).toBe(model.requests.length); // rebuilt for every request
  expect(model.requests.map((r) => r.system)).toEqual([
    { stable: 'stable part', environment: 'iteration 1' },
    { stable: 'stable part', environment: 'iteration 2' },
    { stable: 'stable part', environment: 'iteration 1' },
  ]);
  // A new tool changes the stable prompt's input: it is rebuilt once, on the next turn.
  kernel.tools.register(sleepTool(log, 'another_read'));
  await runPrompt(kernel, 'third');
  expect(count('buildSystemPrompt')).toBe(2);
  expect(fires.filter((f) => f.hook === 'buildSystemPrompt').map((f) => (f.args[1] as { tools: string[] }).tools)).toEqual([['sleep_read'], ['sleep_read', 'another_read']]);
  expect(count('buildEnvironment')).toBe(model.requests.length);
  return seenHooks(fires);
}

async function promptSubmitScenario(): Promise<Set<HookName>> {
  const later: string[] = [];
  const gatekeeper = definePlugin({
    name: 'gatekeeper',
    apply(kernel) {
      kernel.hooks.userPromptSubmit.tapPromise('gatekeeper', async (submission, context) =>
        context.prompt.includes('password')
          ? { ...submission, block: { block: true, reason: 'no secrets in prompts', by: 'gatekeeper' } }
          : { ...submission, additionalContext: [...submission.additionalContext, '(gatekeeper: be brief)'] },
      );
    },
  });
  const afterGate = definePlugin({
    name: 'after-gate',
    apply(kernel) {
      kernel.hooks.userPromptSubmit.tapPromise('after-gate', async (submission, context) => {
        later.push(context.prompt);
        return submission;
      });
    },
  });
  const { kernel, fires, model } = await bootRecorded([say('brief answer')], [gatekeeper, afterGate]);

  const blocked = await runPrompt(kernel, 'my password is hunter2');
  expect(doneEvent(blocked)).toMatchObject({ reason: 'blocked', finalText: 'Prompt blocked by gatekeeper: no secrets in prompts' });
  expect(labels(fires)).toEqual(['buildSystemPrompt', 'userPromptSubmit', 'stop:blocked']); // never entered history, never sent
  expect(labels(fires, [])).toContain('notification:notice');
  expect(kernel.conversation.messages).toEqual([]);
  expect(model.requests).toEqual([]);
  expect(later).toEqual([]); // the first blocking tap wins; later taps are not asked

  const mark = fires.length;
  await runPrompt(kernel, 'what is 2+2?');
  expect(kernel.conversation.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'what is 2+2?' }, { type: 'text', text: '(gatekeeper: be brief)' }], prompt: true });
  expect(model.requests[0]!.messages[0]).toEqual(kernel.conversation.messages[0]);
  expect(later).toEqual(['what is 2+2?']);
  expect(labels(fires.slice(mark)).slice(0, 2)).toEqual(['userPromptSubmit', 'messageAppended:user']);
  return seenHooks(fires);
}

async function stopContinuationScenario(): Promise<Set<HookName>> {
  const persistent = definePlugin({
    name: 'persist',
    apply(kernel) {
      kernel.hooks.stop.tapPromise('persist', async () => ({ continue: true, reason: 'keep going', by: 'persist' }));
    },
  });
  const answers = Array.from({ length: MAX_STOP_CONTINUATIONS + 2 }, (_, i) => say(`answer ${i}`));
  const { kernel, fires, model } = await bootRecorded(answers, [persistent]);
  const events = await runPrompt(kernel, 'work');
  const stops = fires.filter((f) => f.hook === 'stop').map((f) => f.args[0] as { reason: string; continuations: number });
  expect(stops.map((s) => [s.reason, s.continuations])).toEqual(Array.from({ length: MAX_STOP_CONTINUATIONS + 1 }, (_, i) => ['completed', i]));
  expect(model.requests).toHaveLength(MAX_STOP_CONTINUATIONS + 1); // bounded: the last answer is never asked for
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: `answer ${MAX_STOP_CONTINUATIONS}` });
  expect(events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message)).toEqual(
    Array.from({ length: MAX_STOP_CONTINUATIONS }, (_, i) => `Continuing: persist asked the run to go on (${i + 1}/${MAX_STOP_CONTINUATIONS}).`),
  );
  const prompts = kernel.conversation.messages.filter((m): m is Extract<Message, { role: 'user' }> => m.role === 'user').map((m) => (m.content[0] as { text: string }).text);
  expect(prompts).toEqual(['work', ...Array.from({ length: MAX_STOP_CONTINUATIONS }, () => 'keep going')]);
  expect(historyProblems(kernel.conversation.messages)).toEqual([]);
  return seenHooks(fires);
}

/** A command that expands to a prompt: userPromptExpansion may drop the expansion or add context after it. */
async function commandExpansionScenario(): Promise<Set<HookName>> {
  const expander = definePlugin({
    name: 'expander',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.Command).toConstantValue({ name: 'greet', description: 'greets', run: async (_session, args) => ({ prompt: `Say hello to ${args}.` }) });
      bind(TOKENS.Command).toConstantValue({ name: 'version', description: 'prints', run: async () => ({ output: '1.0' }) });
    }),
    apply(kernel) {
      kernel.hooks.userPromptExpansion.tapPromise('expander', async (context) =>
        context.args === 'nobody' ? { additionalContext: [], block: { block: true, reason: 'no one to greet', by: 'expander' } } : { additionalContext: [`(expanded from /${context.command} ${context.args}, ${context.scope})`] },
      );
    },
  });
  const { kernel, fires } = await bootRecorded([], [expander]);
  const command = (name: string) => kernel.commands().find((c) => c.name === name)!;
  expect(await command('greet').run(kernel.session, 'the team', { mode: 'default' })).toEqual({ prompt: 'Say hello to the team.\n\n(expanded from /greet the team, builtin)' });
  expect(await command('greet').run(kernel.session, 'nobody', { mode: 'default' })).toEqual({ output: '/greet was not run: expander: no one to greet', isError: true });
  // A command that only prints expands nothing.
  expect(await command('version').run(kernel.session, '', { mode: 'default' })).toEqual({ output: '1.0' });
  const expansions = fires.filter((f) => f.hook === 'userPromptExpansion').map((f) => f.args[0] as { command: string; args: string; prompt: string; agentId: string; mode: string });
  expect(expansions.map((e) => [e.command, e.args, e.prompt, e.agentId, e.mode])).toEqual([
    ['greet', 'the team', 'Say hello to the team.', 'main', 'default'],
    ['greet', 'nobody', 'Say hello to nobody.', 'main', 'default'],
  ]);
  return seenHooks(fires);
}

const scenarios: [string, () => Promise<Set<HookName>>][] = [
  ['a tool call: preToolUse → checkPermission → requestApproval → permissionDecided → postToolUse, each append announced', toolCallScenario],
  ['compaction through the bound CompactionService: manual (compactNow) and emergency (prompt_too_long)', compactionScenario],
  ['a resumed session fires sessionResume after its history is repaired', resumeScenario],
  ['a kernel fault still fires stop (once), then the one done event', faultScenario],
  ['sessionStart on kernel.startSession, sessionEnd on kernel.shutdown before plugins are disposed', sessionStartEndScenario],
  ["subagentStart/subagentStop bracket a child's run inside its parent's tool call", subagentScenario],
  ['notification carries every notice, warning and approval request', notificationScenario],
  ['trustDecided fires once at boot with the trust decision', trustScenario],
  ['buildSystemPrompt once per tool list, buildEnvironment for every request', promptAndEnvironmentScenario],
  ['userPromptSubmit blocks (nothing enters history) or adds context after the prompt', promptSubmitScenario],
  ['stop may send a completed run back to work, at most MAX_STOP_CONTINUATIONS times', stopContinuationScenario],
  ['userPromptExpansion: a command that expands to a prompt, dropped or given context', commandExpansionScenario],
];

test.each(scenarios)('%s', async (_name, scenario) => {
  await scenario();
});

test('every hook of the catalogue fires in these scenarios (a new hook needs a scenario)', async () => {
  const seen = new Set<HookName>();
  for (const [, scenario] of scenarios) for (const hook of await scenario()) seen.add(hook);
  expect(HOOKS.filter((hook) => !seen.has(hook))).toEqual([]);
  expect(HOOKS.length).toBeGreaterThanOrEqual(20);
});
