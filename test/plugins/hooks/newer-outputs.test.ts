/**
 * Claude Code's newer hook outputs: PostToolUse `hookSpecificOutput.updatedToolOutput` (what the
 * model reads in place of the tool's output, capped as any hook string, the result still paired
 * with its call) and PreToolUse `permissionDecision: "defer"` (deny > defer > ask > allow; MewCode
 * cannot defer a call, so a person is asked where one can be, and elsewhere the permission mode's
 * own flow decides; each deferring hook is warned about once, by file).
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { containedOutput } from '../../../plugins/hooks/containment.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { AssistantMessage, Message, ToolMessage } from '../../../types/messages.js';
import type { CliOptions } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

function project(hooks: Record<string, unknown>): { root: string; home: string; settings: string } {
  const root = temp('mewcode-newer-root-');
  const home = temp('mewcode-newer-home-');
  mkdirSync(path.join(home, '.mewcode'));
  const settings = path.join(home, '.mewcode', 'settings.yaml');
  writeFileSync(settings, JSON.stringify({ hooks }));
  return { root, home, settings };
}

const echo = (json: unknown): string => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;
let runs = 0;
const writer: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: `written ${++runs}` }) };
const reader: Tool = { name: 'lookup', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'SECRET=hunter2 and the rest' }) };
const failing: Tool = { name: 'flaky', description: 'fails', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'disk on fire', isError: true }) };
const plugins = () => [toolsPlugin([writer, reader, failing]), createHooksPlugin({ env: { PATH: process.env.PATH } })];
const resultsOf = (request: { messages: readonly Message[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);

test('PostToolUse updatedToolOutput replaces what the model reads; the result stays paired with its call, in history too', async () => {
  const { root, home } = project({ PostToolUse: [{ matcher: 'lookup', hooks: [{ type: 'command', command: echo({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'SECRET=[redacted] and the rest' } }) }] }] });
  const lookup = call('lookup', {});
  const { kernel, model } = await bootKernel([useTools([lookup]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'look', 'bypassPermissions');
    const results = resultsOf(model.requests[1]);
    expect(results).toEqual([expect.objectContaining({ toolCallId: lookup.id, content: 'SECRET=[redacted] and the rest', isError: false })]);
    const history = kernel.session.conversation.messages;
    const asked = history.findIndex((message) => message.role === 'assistant' && (message as AssistantMessage).toolCalls.some((c) => c.id === lookup.id));
    expect(history[asked + 1]).toMatchObject({ role: 'tool', results: [{ toolCallId: lookup.id, content: 'SECRET=[redacted] and the rest' }] });
    expect(JSON.stringify(history)).not.toContain('hunter2');
  } finally {
    await kernel.shutdown();
  }
});

test('updatedToolOutput is capped at 10,000 characters, goes beside a block reason, and is not taken on PostToolUseFailure', async () => {
  const { root, home } = project({
    PostToolUse: [{ matcher: 'lookup', hooks: [{ type: 'command', command: echo({ decision: 'block', reason: 'checked by the guard', hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'x'.repeat(12_000) } }) }] }],
    PostToolUseFailure: [{ matcher: 'flaky', hooks: [{ type: 'command', command: echo({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', updatedToolOutput: 'all good' } }) }] }],
  });
  const { kernel, model } = await bootKernel([useTools([call('lookup', {}), call('flaky', {})]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'look', 'bypassPermissions');
    const [lookup, flaky] = resultsOf(model.requests[1]);
    expect(lookup!.content.startsWith('x'.repeat(10_000))).toBe(true);
    expect(lookup!.content).not.toContain('x'.repeat(10_001));
    expect(lookup!.content).not.toContain('SECRET');
    expect(lookup!.content).toContain('checked by the guard');
    expect(flaky).toMatchObject({ content: 'disk on fire', isError: true });
  } finally {
    await kernel.shutdown();
  }
});

const deferrer = echo({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer', permissionDecisionReason: 'the host decides' } });
const interactive = { prompt: undefined, outputFormat: 'text', permissionMode: 'bypassPermissions', permissionModeGiven: true, debugBoot: false, cwd: '/tmp', allowedTools: [], disallowedTools: [] } as unknown as CliOptions;

test('defer without a person to ask: the permission mode\'s own flow decides (bypass runs it, default refuses), with one warning per hook naming its file', async () => {
  const { root, home, settings } = project({ PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: deferrer }] }] });
  for (const [mode, ran] of [['bypassPermissions', true], ['default', false]] as const) {
    const before = runs;
    const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: 'a' })]), useTools([call('write_file', { path: 'b' })]), say('ok')], plugins(), await trustedProject(root, home));
    try {
      await runPrompt(kernel, 'write', mode);
      expect(runs - before).toBe(ran ? 2 : 0);
      if (!ran) expect(resultsOf(model.requests[1])[0]).toMatchObject({ isError: true });
      const warned = reporter.warnings.filter((warning) => /defer/.test(warning));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain(settings);
    } finally {
      await kernel.shutdown();
    }
  }
});

test('defer where a person can be asked (the terminal UI, an editor) is a question; deny > defer > ask > allow among hooks', async () => {
  const allow = echo({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
  const deny = echo({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'never on Fridays' } });
  // defer + allow: a question (nobody answers in a test: refused); deny + defer: the deny.
  for (const [hooks, expected] of [
    [[allow, deferrer], /Permission required|approv/i],
    [[deferrer, deny], /never on Fridays/],
  ] as const) {
    const { root, home } = project({ PreToolUse: [{ hooks: hooks.map((command) => ({ type: 'command', command })) }] });
    const before = runs;
    const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), { ...(await trustedProject(root, home)), cli: interactive });
    try {
      await runPrompt(kernel, 'write', 'bypassPermissions');
      expect(runs).toBe(before);
      expect(resultsOf(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringMatching(expected) });
    } finally {
      await kernel.shutdown();
    }
  }
});

test('a hook run contained (an untrusted project) cannot replace a tool\'s output: updatedToolOutput is ignored and logged as such', () => {
  const { result, ignored } = containedOutput('PostToolUse', { kind: 'ok', exit: 'exit 0', updatedToolOutput: 'all tests pass', additionalContext: 'note' });
  expect(result.updatedToolOutput).toBeUndefined();
  expect(ignored).toContain('updatedToolOutput');
  expect(result.additionalContext).toMatch(/not the user's\) note$/);
});
