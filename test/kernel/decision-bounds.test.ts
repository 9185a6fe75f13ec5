/**
 * A decision tap that never answers cannot hang a run: preToolUse, requestApproval,
 * userPromptSubmit and stop taps are bounded like checkPermission's (their silence takes the
 * hook's safe side, naming the plugin), and cancelling a run ends every such wait at once, with a
 * history in which every tool call has its result.
 */
import { jest } from '@jest/globals';
import type { AgentEvent } from '../../types/events.js';
import type { HookName, KernelHooks, PromptSubmission, ToolUseDecision } from '../../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { APPROVAL_TAP_TIMEOUT_MS, HOOK_TAP_TIMEOUT_MS } from '../../kernel/decision-bounds.js';
import { shapeTransforms } from '../../kernel/decision-guards.js';
import { createHooks, guardHooks } from '../../kernel/hooks.js';
import type { Kernel } from '../../kernel/kernel.js';
import { PermissionChain } from '../../kernel/permission-chain.js';
import { bootKernel, collect, doneEvent } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';

const never = (): Promise<never> => new Promise(() => undefined);

/** A plugin whose tap on `hook` never answers. */
function silent(hook: 'preToolUse' | 'requestApproval' | 'userPromptSubmit' | 'stop'): MewcodePlugin {
  return definePlugin({
    name: 'org-policy',
    apply(kernel) {
      (kernel.hooks[hook] as unknown as { tapPromise(name: string, fn: () => Promise<never>): void }).tapPromise('org-policy', never);
    },
  });
}

/** Every tool call in history is answered, and an assistant message is last. */
function expectValidHistory(kernel: Kernel): void {
  const messages = kernel.conversation.messages;
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || message.toolCalls.length === 0) return;
    const next = messages[index + 1];
    expect(next?.role).toBe('tool');
    const answered = next?.role === 'tool' ? next.results.map((result) => result.toolCallId) : [];
    expect(answered).toEqual(message.toolCalls.map((c) => c.id));
  });
  expect(messages.at(-1)?.role).toBe('assistant');
}

function toolResults(events: AgentEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'tool_end' ? [event.result.content] : []));
}

describe('cancelling ends a wait on a tap that never answers', () => {
  test.each(['preToolUse', 'requestApproval', 'userPromptSubmit'] as const)('%s: the run ends at once, nothing runs, history is valid', async (hook) => {
    const log: ToolLog = { events: [] };
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), silent(hook)]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const events = await collect(kernel.run({ prompt: 'go', mode: 'default', signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(doneEvent(events).reason).toBe('cancelled');
    expect(log.events).toEqual([]);
    if (hook === 'userPromptSubmit') {
      expect(kernel.conversation.messages).toEqual([]); // the prompt never entered history
    } else {
      expect(toolResults(events)).toEqual([]);
      expectValidHistory(kernel);
      const results = kernel.conversation.messages.flatMap((m) => (m.role === 'tool' ? m.results.map((r) => r.content) : []));
      expect(results).toEqual(['Cancelled: the run was cancelled before this tool call was permitted.']);
    }
  });

  test('stop: the run ends within the grace a cancelled tool gets', async () => {
    const { kernel } = await bootKernel([say('done')], [silent('stop')]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const events = await collect(kernel.run({ prompt: 'go', mode: 'default', signal: controller.signal }));
    expect(Date.now() - started).toBeLessThan(8000);
    expect(doneEvent(events).reason).toBe('completed');
    expectValidHistory(kernel);
  });
});

/** The kernel's own hooks, guarded as a kernel guards them, with the chain's bounds given here. */
function boundedHooks(bounds: { hookTimeoutMs: number; approvalTimeoutMs: number }): { hooks: KernelHooks; warnings: string[] } {
  const warnings: string[] = [];
  const chain = new PermissionChain({ isEssential: () => false, warn: (message) => warnings.push(message), timeoutMs: 1000, ...bounds });
  const hooks = createHooks();
  guardHooks(hooks, (error) => warnings.push(error.message), { ...shapeTransforms((message) => warnings.push(message)), checkPermission: chain.transform });
  chain.boundDecisionTaps(hooks);
  return { hooks, warnings };
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const later = <T>(ms: number, value: T) => async (): Promise<T> => {
  await delay(ms);
  return value;
};
type Tappable = { tapPromise(name: string, fn: (...args: never[]) => Promise<unknown>): void; tapAsync(name: string, fn: (...args: unknown[]) => void): void };
const tappable = (hooks: KernelHooks, name: HookName): Tappable => hooks[name] as unknown as Tappable;

describe('each tap is bounded (bounds given to the permission chain, as its own is)', () => {
  const request = { toolName: 'write_note', input: {}, verdict: { decision: 'ask', layer: 'permission-mode' }, pluginsMayAllow: true } as unknown as ApprovalRequest;
  const decision: ToolUseDecision = { input: { text: 'a' }, additionalContext: [] };
  const context = { sessionId: 's', agentId: 'main', projectRoot: '/p', homeDir: '/h', mode: 'default' };

  test('preToolUse: an answer within the bound is taken; silence past it denies, naming the plugin', async () => {
    const { hooks, warnings } = boundedHooks({ hookTimeoutMs: 150, approvalTimeoutMs: 10_000 });
    tappable(hooks, 'preToolUse').tapPromise('quick', later(50, { ...decision, decision: 'ask', reason: 'quick asks', by: 'quick' }));
    expect(await hooks.preToolUse.promise(decision, context as never)).toMatchObject({ decision: 'ask', by: 'quick' });

    tappable(hooks, 'preToolUse').tapPromise('slow-policy', later(400, decision));
    // It would have answered, allowing nothing, at 400 ms: the bound answered first.
    const answer = await hooks.preToolUse.promise(decision, context as never);
    expect(answer).toMatchObject({ decision: 'deny', by: 'slow-policy', reason: 'plugin slow-policy did not answer preToolUse within 150 ms; the call is denied' });
    expect(warnings).toEqual(['plugin slow-policy did not answer preToolUse within 150 ms; the call is denied']);
  });

  test('requestApproval has its own, longer bound; silence past it denies', async () => {
    const { hooks } = boundedHooks({ hookTimeoutMs: 50, approvalTimeoutMs: 300 });
    tappable(hooks, 'requestApproval').tapPromise('chat-approval', later(150, { choice: 'allow_once', answeredBy: 'chat' } satisfies ApprovalOutcome));
    expect(await hooks.requestApproval.promise(request)).toMatchObject({ choice: 'allow_once', answeredBy: 'chat' });

    const silentHooks = boundedHooks({ hookTimeoutMs: 50, approvalTimeoutMs: 300 }).hooks;
    tappable(silentHooks, 'requestApproval').tapAsync('chat-approval', () => undefined); // a callback tap that never calls back
    expect(await silentHooks.requestApproval.promise(request)).toMatchObject({ choice: 'deny', answeredBy: 'chat-approval', reason: expect.stringContaining('within 300 ms') });
  });

  test('userPromptSubmit: silence blocks the prompt; stop: silence is no continuation', async () => {
    const { hooks } = boundedHooks({ hookTimeoutMs: 100, approvalTimeoutMs: 10_000 });
    tappable(hooks, 'userPromptSubmit').tapPromise('prompt-policy', never);
    const submission: PromptSubmission = await hooks.userPromptSubmit.promise({ additionalContext: [] }, { ...context, prompt: 'hi' } as never);
    expect(submission.block).toMatchObject({ by: 'prompt-policy', reason: 'plugin prompt-policy did not answer userPromptSubmit within 100 ms; the prompt is blocked' });

    tappable(hooks, 'stop').tapPromise('stuck-stop', never);
    tappable(hooks, 'stop').tapPromise('later-stop', async () => undefined);
    expect(await hooks.stop.promise({ ...context, reason: 'completed', finalText: '', continuations: 0 } as never)).toBeUndefined();
  });
});

describe("a real kernel's default bounds", () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test(`a silent preToolUse tap denies the call after ${HOOK_TAP_TIMEOUT_MS} ms, not before`, async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const log: ToolLog = { events: [] };
    const { kernel, reporter } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), silent('preToolUse')]);
    let events: AgentEvent[] | undefined;
    const running = collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' })).then((all) => (events = all));
    await jest.advanceTimersByTimeAsync(HOOK_TAP_TIMEOUT_MS - 1);
    expect(events).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await running;
    expect(log.events).toEqual([]);
    expect(toolResults(events!)).toEqual([`[hook org-policy] plugin org-policy did not answer preToolUse within ${HOOK_TAP_TIMEOUT_MS} ms; the call is denied`]);
    expect(reporter.warnings.join('\n')).toContain('plugin org-policy did not answer preToolUse');
  });

  test(`a silent requestApproval tap denies after ${APPROVAL_TAP_TIMEOUT_MS} ms`, async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const log: ToolLog = { events: [] };
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), silent('requestApproval')]);
    let events: AgentEvent[] | undefined;
    const running = collect(kernel.run({ prompt: 'go', mode: 'default' })).then((all) => (events = all));
    await jest.advanceTimersByTimeAsync(APPROVAL_TAP_TIMEOUT_MS - 1);
    expect(events).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await running;
    expect(log.events).toEqual([]);
    expect(toolResults(events!)[0]).toContain(`plugin org-policy did not answer requestApproval within ${APPROVAL_TAP_TIMEOUT_MS} ms`);
  });
});

describe('the bounds are kernel options', () => {
  test('hookTimeoutMs and approvalTimeoutMs: a silent preToolUse or requestApproval tap denies after the given bound', async () => {
    for (const [hook, options, mode] of [
      ['preToolUse', { hookTimeoutMs: 200 }, 'bypassPermissions'],
      ['requestApproval', { approvalTimeoutMs: 200 }, 'default'],
    ] as const) {
      const log: ToolLog = { events: [] };
      const { kernel, reporter } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), silent(hook)], options);
      const events = await collect(kernel.run({ prompt: 'go', mode }));
      expect(log.events).toEqual([]);
      expect(toolResults(events)[0]).toContain(`plugin org-policy did not answer ${hook} within 200 ms`);
      expect(reporter.warnings.join('\n')).toContain(`did not answer ${hook} within 200 ms`);
      expectValidHistory(kernel);
    }
  });
});
