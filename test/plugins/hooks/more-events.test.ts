/**
 * Claude Code's newer events where MewCode has the moment for them: PostCompact (after a
 * compaction, with its trigger and the summary), PermissionDenied (a call refused by a rule, the
 * mode or the user), StopFailure (a run that ended on an API error) and PostToolBatch (every call
 * of one model turn finished; a block's reason reaches the model with the results). Each carries
 * the common fields. A documented event MewCode does not run is skipped with a warning naming the
 * file and the event.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { loadHookRules } from '../../../plugins/hooks/settings.js';
import type { CompactionReason } from '../../../types/events.js';
import type { Message } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, fail, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

/** Where the recorder appends payloads: made before the hooks that name it. */
const newLog = (): string => path.join(temp('mewcode-events-logs-'), 'payloads.jsonl');

function project(hooks: Record<string, unknown>): { root: string; home: string; settings: string } {
  const root = temp('mewcode-events-root-');
  const home = temp('mewcode-events-home-');
  mkdirSync(path.join(home, '.mewcode'));
  const settings = path.join(home, '.mewcode', 'settings.yaml');
  writeFileSync(settings, JSON.stringify({ hooks }));
  return { root, home, settings };
}

const recorder = (file: string): Record<string, string> => ({ type: 'command', command: `cat >> ${file}; echo >> ${file}` });
const recorded = (file: string): Record<string, any>[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : [];
const echo = (json: unknown): string => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;

const writer: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'written' }) };
const reader: Tool = { name: 'lookup', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async (input) => ({ content: `found ${String(input.what)}` }) };
const hooksPlugin = () => createHooksPlugin({ env: { PATH: process.env.PATH } });

function expectCommon(payload: Record<string, any>, event: string, root: string, sessionId: string, mode: string): void {
  expect(payload).toMatchObject({ hook_event_name: event, session_id: sessionId, cwd: root, permission_mode: mode });
  expect(payload.transcript_path).toBe(path.join(root, '.mewcode', 'sessions', sessionId, 'claude-transcript.jsonl'));
}

const SUMMARY = 'SUMMARY of the conversation';
const compaction = definePlugin({
  name: 'test-compaction',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CompactionService).toConstantValue({
      shouldCompact: () => false,
      compact: async (_messages: readonly Message[], _options: { reason: CompactionReason }): Promise<Message[]> => [
        { role: 'user', content: [{ type: 'text', text: `The conversation so far was summarised.\n\n<summary>\n${SUMMARY}\n</summary>` }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] },
      ],
    });
  }),
});

test('PostCompact runs after a compaction with its trigger (matched) and the summary', async () => {
  const log = newLog();
  const { root, home } = project({ PostCompact: [{ matcher: 'manual', hooks: [recorder(log)] }, { matcher: 'auto', hooks: [{ type: 'command', command: `touch ${log}.auto` }] }] });
  const { kernel } = await bootKernel([say('first answer')], [compaction, hooksPlugin()], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'hello', 'default');
    expect(await kernel.session.compact('default')).toBe(true);
  } finally {
    await kernel.shutdown();
  }
  const payloads = recorded(log);
  expect(payloads).toHaveLength(1);
  expectCommon(payloads[0]!, 'PostCompact', root, kernel.session.sessionId, 'default');
  expect(payloads[0]).toMatchObject({ trigger: 'manual', compact_summary: SUMMARY });
  expect(existsSync(`${log}.auto`)).toBe(false);
});

test('PermissionDenied runs for a call the mode refused, with tool_name, tool_input, tool_use_id and reason; its matcher names the tool', async () => {
  const log = newLog();
  const { root, home } = project({ PermissionDenied: [{ matcher: 'Write', hooks: [recorder(log)] }, { matcher: 'lookup', hooks: [{ type: 'command', command: `touch ${log}.lookup` }] }] });
  const write = call('write_file', { path: 'a.txt', content: 'x' });
  const { kernel } = await bootKernel([useTools([write, call('lookup', { what: 'x' })]), say('ok')], [toolsPlugin([writer, reader]), hooksPlugin()], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'plan');
  } finally {
    await kernel.shutdown();
  }
  const payloads = recorded(log);
  expect(payloads).toHaveLength(1);
  expectCommon(payloads[0]!, 'PermissionDenied', root, kernel.session.sessionId, 'plan');
  expect(payloads[0]).toMatchObject({ tool_name: 'Write', tool_input: { file_path: path.join(root, 'a.txt'), content: 'x' }, tool_use_id: write.id, reason: expect.any(String) });
  expect(payloads[0]!.reason.length).toBeGreaterThan(0);
  expect(existsSync(`${log}.lookup`)).toBe(false);
});

test('StopFailure runs when a run ends on an API error, with error; Stop does not', async () => {
  const log = newLog();
  const { root, home } = project({ StopFailure: [{ hooks: [recorder(log)] }], Stop: [{ hooks: [{ type: 'command', command: `touch ${log}.stop` }] }] });
  const { kernel } = await bootKernel([fail('rate_limit', 'slow down please')], [hooksPlugin()], await trustedProject(root, home));
  try {
    expect(doneEvent(await runPrompt(kernel, 'hello', 'default')).reason).toBe('error');
  } finally {
    await kernel.shutdown();
  }
  const payloads = recorded(log);
  expect(payloads).toHaveLength(1);
  expectCommon(payloads[0]!, 'StopFailure', root, kernel.session.sessionId, 'default');
  expect(payloads[0]!.error).toContain('slow down please');
  expect(existsSync(`${log}.stop`)).toBe(false);
});

test('PostToolBatch runs once after all calls of a turn, with each call; its block reason reaches the model with the results', async () => {
  const log = newLog();
  const { root, home } = project({ PostToolBatch: [{ hooks: [recorder(log), { type: 'command', command: echo({ decision: 'block', reason: 'run the tests before going on' }) }] }] });
  const first = call('lookup', { what: 'a' });
  const second = call('lookup', { what: 'b' });
  const { kernel, model } = await bootKernel([useTools([first, second]), say('ok')], [toolsPlugin([reader]), hooksPlugin()], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'look', 'bypassPermissions');
  } finally {
    await kernel.shutdown();
  }
  const payloads = recorded(log);
  expect(payloads).toHaveLength(1);
  expectCommon(payloads[0]!, 'PostToolBatch', root, kernel.session.sessionId, 'bypassPermissions');
  expect(payloads[0]!.tool_calls).toEqual([
    expect.objectContaining({ tool_name: 'lookup', tool_input: { what: 'a' }, tool_use_id: first.id, tool_response: 'found a' }),
    expect.objectContaining({ tool_name: 'lookup', tool_input: { what: 'b' }, tool_use_id: second.id, tool_response: 'found b' }),
  ]);
  expect(JSON.stringify(model.requests[1])).toContain('run the tests before going on');
});

test('a documented event MewCode does not run is skipped with a warning naming the file and the event; an unknown one is called unknown', async () => {
  const { root, home, settings } = project({ CwdChanged: [{ hooks: [{ type: 'command', command: 'true' }] }], Bogus: [{ hooks: [{ type: 'command', command: 'true' }] }] });
  const loaded = await loadHookRules(root, home, undefined);
  expect(loaded.rules).toEqual([]);
  const cwd = loaded.warnings.find((warning) => warning.includes('CwdChanged'));
  expect(cwd).toContain(settings);
  expect(cwd).toMatch(/not supported|not run/);
  expect(cwd).not.toMatch(/unknown/);
  expect(loaded.warnings.find((warning) => warning.includes('Bogus'))).toMatch(/unknown hook event/);
});

test("Claude Code's mcp_tool and prompt handlers are skipped with a warning naming the file and the handler type; the rest loads", async () => {
  const { root, home, settings } = project({
    PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'mcp_tool', server: 'memory', tool: 'check' }, { type: 'prompt', prompt: 'ok?' }, { type: 'command', command: 'true' }] }],
  });
  const loaded = await loadHookRules(root, home, undefined);
  expect(loaded.rules).toHaveLength(1);
  const mcp = loaded.warnings.find((warning) => warning.includes('"mcp_tool"'));
  expect(mcp).toContain(settings);
  expect(mcp).toMatch(/prompt and mcp_tool handlers are not built yet\); skipped/);
  expect(loaded.warnings.some((warning) => warning.includes('"prompt"'))).toBe(true);
});
