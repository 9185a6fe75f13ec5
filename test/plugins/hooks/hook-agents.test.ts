/**
 * Hook sub-agents beyond the scripted scenarios of subagent-action.test.ts. The loop guard of hook-started sub-agents holds an agent's id only while it runs: its events
 * (SubagentStart, its tool calls, SubagentStop) all come before its run resolves, and a long
 * session with a hook on every tool call must not keep one id per run forever.
 */
import { expect, test } from '@jest/globals';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { ModelRequest } from '../../../types/provider.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { promptOf, routedSteps } from '../../kernel/kernel-v2-helpers.js';
import { settingsSetup } from './rule-setup.js';
import { MAX_HOOK_TEXT } from '../../../plugins/hooks/events.js';
import { runAgentHook, runSubagentAction } from '../../../plugins/hooks/subagent-action.js';
import { emptyUsage } from '../../../types/messages.js';
import type { SubagentRequest, SubagentRunner } from '../../../types/subagents.js';

/** A runner that records whether the guard knew the agent while it ran, and answers at once. */
function recordingRunner(hookAgents: Set<string>, seen: boolean[]): SubagentRunner {
  return {
    roles: () => [],
    async run(request: SubagentRequest) {
      seen.push(request.agentId !== undefined && hookAgents.has(request.agentId));
      return { agentId: request.agentId ?? 'x', text: 'context', endReason: 'completed', isError: false, usage: emptyUsage(), iterations: 1 };
    },
  };
}

test('a hook sub-agent is in the loop guard while it runs and out of it after, for every run', async () => {
  const hookAgents = new Set<string>();
  const seen: boolean[] = [];
  const runner = recordingRunner(hookAgents, seen);
  for (let i = 0; i < 3; i++) {
    const result = await runSubagentAction({ ruleName: 'r', agentName: 'explore', prompt: 'p', payload: { event: 'PostToolUse' }, runner, timeoutMs: 5_000, hookAgents });
    expect(result).toMatchObject({ kind: 'ok', additionalContext: 'context' });
  }
  expect(seen).toEqual([true, true, true]);
  expect(hookAgents.size).toBe(0);
});

test('a hook sub-agent whose event was already cancelled starts cancelled (it does not run to its timeout)', async () => {
  const hookAgents = new Set<string>();
  let aborted: boolean | undefined;
  const runner: SubagentRunner = {
    roles: () => [],
    async run(request: SubagentRequest) {
      aborted = request.signal?.aborted;
      return { agentId: request.agentId ?? 'x', text: 'cancelled', endReason: 'cancelled', isError: true, usage: emptyUsage(), iterations: 0 };
    },
  };
  const cancelled = new AbortController();
  cancelled.abort();
  await runSubagentAction({ ruleName: 'r', agentName: 'explore', prompt: 'p', payload: {}, runner, timeoutMs: 60_000, hookAgents, signal: cancelled.signal });
  expect(aborted).toBe(true);
});

test('a runner that throws (another plugin may bind its own) makes a failed hook run, not an exception', async () => {
  const hookAgents = new Set<string>();
  const runner: SubagentRunner = {
    roles: () => [],
    run: async () => {
      throw new Error('provider exploded');
    },
  };
  const result = await runSubagentAction({ ruleName: 'r', agentName: 'explore', prompt: 'p', payload: {}, runner, timeoutMs: 5_000, hookAgents });
  expect(result).toMatchObject({ kind: 'failed', reason: 'sub-agent explore could not run: provider exploded' });
  expect(hookAgents.size).toBe(0);
});

test(`a failed hook sub-agent's text in the failure is whole at ${MAX_HOOK_TEXT} characters and cut beyond`, async () => {
  const failingWith = (text: string): SubagentRunner => ({
    roles: () => [],
    run: async (request) => ({ agentId: request.agentId ?? 'x', text, endReason: 'error', isError: true, usage: emptyUsage(), iterations: 1 }),
  });
  const exact = 'e'.repeat(MAX_HOOK_TEXT);
  const whole = await runSubagentAction({ ruleName: 'r', agentName: 'explore', prompt: 'p', payload: {}, runner: failingWith(exact), timeoutMs: 5_000, hookAgents: new Set() });
  expect(whole).toMatchObject({ kind: 'failed', reason: `sub-agent explore ended (error): ${exact}` });
  const cut = await runSubagentAction({ ruleName: 'r', agentName: 'explore', prompt: 'p', payload: {}, runner: failingWith(`${exact}!`), timeoutMs: 5_000, hookAgents: new Set() });
  expect(cut).toMatchObject({ kind: 'failed', reason: `sub-agent explore ended (error): ${exact}… [cut at ${MAX_HOOK_TEXT} characters]` });
});

test('an agent hook is a read-only verifier whatever role it names (a role or definition file that writes gets only read-only tools)', async () => {
  const { root, home } = settingsSetup({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', agent: 'general', prompt: 'Check: $ARGUMENTS' }] }] });
  const seen: ModelRequest[] = [];
  const steps = routedSteps(3, (request) => {
    seen.push(request);
    if (promptOf(request).startsWith('Check:')) return say('{"ok": true}');
    return request.messages.at(-1)?.role === 'tool' ? say('written') : useTools([call('write_file', { path: 'a.txt', content: 'x' })]);
  });
  const readTool: Tool = { name: 'read_file', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'file text' }) };
  const writeTool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'wrote' }) };
  const { kernel } = await bootKernel(steps, [toolsPlugin([readTool, writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } }), createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  await runPrompt(kernel, 'write it', 'bypassPermissions');
  const verifier = seen.find((r) => promptOf(r).startsWith('Check:'))!;
  expect(verifier.tools.map((t) => t.name)).toEqual(['read_file']);
  await kernel.shutdown();
  removeTempDirs();
});

test('a verifier\'s {"ok": false} blocks even when its reason holds braces or nested JSON (it was read as no answer: a failure, which lets the call go on)', async () => {
  const answering = (text: string): SubagentRunner => ({
    roles: () => [],
    run: async (request) => ({ agentId: request.agentId ?? 'x', text, endReason: 'completed', isError: false, usage: emptyUsage(), iterations: 1 }),
  });
  const verdict = (text: string) => runAgentHook({ event: 'PreToolUse', ruleName: 'v', prompt: 'check $ARGUMENTS', payload: { tool_name: 'Write' }, runner: answering(text), timeoutMs: 5_000, hookAgents: new Set() });
  expect(await verdict('Not safe.\n{"ok": false, "reason": "it writes {\\"token\\": 1} into function() { }"}')).toMatchObject({ kind: 'blocked', permission: 'deny', reason: 'it writes {"token": 1} into function() { }' });
  expect(await verdict('```json\n{"ok": false, "reason": "nested", "details": {"file": ".env"}}\n```')).toMatchObject({ kind: 'blocked', reason: 'nested' });
  // The last verdict wins; braces in the prose before it do not matter.
  expect(await verdict('I looked at { this } and {"ok": false, "reason": "first"}. On reflection: {"ok": true}')).toMatchObject({ kind: 'ok' });
  expect(await verdict('no verdict here { at all')).toMatchObject({ kind: 'failed' });
});
