/**
 * What an approval may answer. An approver's allow with arguments of its own (the programmatic
 * API's `updatedInput`) is judged again by every layer, the preToolUse taps first: a policy's deny
 * stands, its rewrite is not taken. A preToolUse `ask` is a question only the person answers,
 * whatever the permission chain said: another plugin's requestApproval allow is no answer to it.
 */
import type { AgentEvent } from '../../types/events.js';
import type { ToolUseDecision } from '../../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import { definePlugin, type MewcodePlugin, type UserInterface } from '../../types/plugin.js';
import type { Kernel } from '../../kernel/kernel.js';
import { bootKernel, collect } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';

/** An organisation's preToolUse policy as a plugin. */
function policy(answer: (decision: ToolUseDecision, recheck: boolean) => ToolUseDecision): MewcodePlugin {
  return definePlugin({
    name: 'org-policy',
    apply(kernel) {
      kernel.hooks.preToolUse.tapPromise('org-policy', async (decision, context) => answer(decision, context.recheck === true));
    },
  });
}

/** A UI whose approvals are answered by `answer` (the person, or query()'s canUseTool). */
function answeringUi(kernel: Kernel, answer: (request: ApprovalRequest) => ApprovalOutcome): ApprovalRequest[] {
  const asked: ApprovalRequest[] = [];
  const ui: UserInterface = {
    name: 'test-ui',
    handles: () => true,
    run: async () => 0,
    output: {
      notify: () => undefined,
      approve: async (request) => {
        asked.push(request);
        return answer(request);
      },
    },
  };
  kernel.activateUi(ui);
  return asked;
}

function toolResults(events: AgentEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'tool_end' ? [event.result.content] : []));
}

const secretsDenied = (decision: ToolUseDecision): ToolUseDecision =>
  /secret/.test(String(decision.input.text)) ? { ...decision, decision: 'deny', reason: 'no writes to secret files', by: 'org-policy' } : decision;

describe("an approver's allow with other arguments", () => {
  test("is judged by the preToolUse policy again: the policy's deny stands", async () => {
    const log: ToolLog = { events: [] };
    const seen: string[] = [];
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'notes.txt' })]), say('done')], [
      toolsPlugin([writeTool(log)]),
      policy((decision, recheck) => {
        seen.push(`${recheck ? 'recheck' : 'first'}:${String(decision.input.text)}`);
        return secretsDenied(decision);
      }),
    ]);
    answeringUi(kernel, () => ({ choice: 'allow_once', answeredBy: 'canUseTool', input: { text: 'secret.txt' } }));
    const events = await collect(kernel.run({ prompt: 'go', mode: 'default' }));
    expect(log.events).toEqual([]);
    expect(toolResults(events)).toEqual(['[hook org-policy] no writes to secret files']);
    expect(seen).toEqual(['first:notes.txt', 'recheck:secret.txt']);
  });

  test("runs the approver's arguments when the policy lets them through, never a rewrite the policy returns on them", async () => {
    const log: ToolLog = { events: [] };
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'notes.txt' })]), say('done')], [
      toolsPlugin([writeTool(log)]),
      policy((decision) => ({ ...decision, input: { text: 'rewritten-by-policy.txt' } })),
    ]);
    // The first pass's rewrite is what the approver is asked about; its answer names another file.
    const asked = answeringUi(kernel, () => ({ choice: 'allow_once', answeredBy: 'canUseTool', input: { text: 'approver.txt' } }));
    await collect(kernel.run({ prompt: 'go', mode: 'default' }));
    expect(asked.map((request) => request.input.text)).toEqual(['rewritten-by-policy.txt']);
    expect(log.events).toEqual(['write:approver.txt']);
  });
});

describe("a preToolUse ask is the person's question", () => {
  const asks = (decision: ToolUseDecision): ToolUseDecision => ({ ...decision, decision: 'ask', reason: 'writes need a human reviewer', by: 'org-policy' });
  const autoApprover = definePlugin({
    name: 'auto-approver',
    apply(kernel) {
      kernel.hooks.requestApproval.tapPromise('auto-approver', async () => ({ choice: 'allow_once', answeredBy: 'auto-approver' }));
    },
  });

  test("when the mode layer asks too (default mode), another plugin's allow is no answer: the person is asked", async () => {
    const log: ToolLog = { events: [] };
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), policy(asks), autoApprover]);
    const asked = answeringUi(kernel, () => ({ choice: 'deny', answeredBy: 'the person' }));
    const events = await collect(kernel.run({ prompt: 'go', mode: 'default' }));
    expect(log.events).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.verdict).toMatchObject({ decision: 'ask', layer: 'hook:org-policy', reason: 'writes need a human reviewer' });
    expect(asked[0]!.pluginsMayAllow).toBe(false);
    expect(toolResults(events)[0]).toMatch(/^User denied/);
  });

  test('the person may still allow it', async () => {
    const log: ToolLog = { events: [] };
    const { kernel } = await bootKernel([useTools([call('write_note', { text: 'a.txt' })]), say('done')], [toolsPlugin([writeTool(log)]), policy(asks), autoApprover]);
    answeringUi(kernel, () => ({ choice: 'allow_once', answeredBy: 'the person' }));
    await collect(kernel.run({ prompt: 'go', mode: 'default' }));
    expect(log.events).toEqual(['write:a.txt']);
  });
});
