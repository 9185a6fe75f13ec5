/**
 * PostToolUseFailure, as Claude Code fires it: a call that failed goes to PostToolUseFailure
 * (never to PostToolUse) with `error` and `is_interrupt`, its matcher names the tool, and what its
 * hooks say (exit 2's stderr, `decision: "block"`'s reason, `additionalContext`) reaches the model
 * beside the failed result, which stays as it was.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { loadHookRules } from '../../../plugins/hooks/settings.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const readTool: Tool = { name: 'read_file', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async (input) => ({ content: `read ${String(input.path)}` }) };
const flakyTool: Tool = { name: 'flaky', description: 'fails', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'disk on fire', isError: true }) };
/** Told when the slow tool starts (the test cancels the run then). */
let slowStarted: () => void = () => undefined;
/** Runs until the run is cancelled, then reports that it stopped (an error result). */
const slowTool: Tool = {
  name: 'slow',
  description: 'waits',
  inputSchema: { type: 'object' },
  readOnly: true,
  execute: (_input, context) =>
    new Promise((resolve) => {
      context.signal.addEventListener('abort', () => resolve({ content: 'stopped half way', isError: true }), { once: true });
      slowStarted();
    }),
};
const tools = definePlugin({
  name: 'test-tools',
  bindings: new ContainerModule(({ bind }) => {
    for (const tool of [readTool, flakyTool, slowTool]) bind(TOKENS.Tool).toConstantValue(tool);
  }),
});

/** A home whose ~/.mewcode/settings.yaml holds these hooks, and the file a recorder appends to. */
function setup(hooks: Record<string, unknown>): { root: string; home: string } {
  const root = temp('mewcode-failure-root-');
  const home = temp('mewcode-failure-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
  return { root, home };
}

/** A command that appends its stdin payload (one JSON line) to `file`. */
const recorder = (file: string): Record<string, string> => ({ type: 'command', command: `cat >> ${file}; echo >> ${file}` });

const recorded = (file: string): Record<string, any>[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : [];

test('a failed call goes to PostToolUseFailure with error and is_interrupt, never to PostToolUse; a successful one only to PostToolUse', async () => {
  const root = temp('mewcode-failure-logs-');
  const post = path.join(root, 'post.jsonl');
  const failure = path.join(root, 'failure.jsonl');
  const { root: project, home } = setup({ PostToolUse: [{ hooks: [recorder(post)] }], PostToolUseFailure: [{ hooks: [recorder(failure)] }] });
  const read = call('read_file', { path: 'a.txt' });
  const flaky = call('flaky', { what: 'the disk' });
  const { kernel } = await bootKernel([useTools([read, flaky]), say('done')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(project, home));
  try {
    await runPrompt(kernel, 'go', 'bypassPermissions');
  } finally {
    await kernel.shutdown();
  }
  const posts = recorded(post);
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: read.id, tool_response: { output: 'read a.txt', is_error: false } });
  const failures = recorded(failure);
  expect(failures).toHaveLength(1);
  expect(failures[0]).toMatchObject({
    hook_event_name: 'PostToolUseFailure',
    session_id: kernel.session.sessionId,
    cwd: project,
    permission_mode: 'bypassPermissions',
    tool_name: 'flaky',
    tool_input: { what: 'the disk' },
    tool_use_id: flaky.id,
    error: 'disk on fire',
    is_interrupt: false,
  });
  expect(failures[0]!.transcript_path).toBe(path.join(project, '.mewcode', 'sessions', kernel.session.sessionId, 'claude-transcript.jsonl'));
  expect(failures[0]).not.toHaveProperty('tool_response');
});

test('its matcher names the tool; exit 2 stderr, decision block and additionalContext reach the model beside the failed result', async () => {
  const { root, home } = setup({});
  const marker = path.join(root, 'read-failure-hook-ran');
  const exit2 = path.join(home, 'exit2.sh');
  writeFileSync(exit2, "cat > /dev/null\necho 'retry with --force' >&2\nexit 2\n");
  const block = path.join(home, 'block.sh');
  writeFileSync(block, `cat > /dev/null\necho '{"decision":"block","reason":"the disk is known to be flaky"}'\n`);
  const context = path.join(home, 'context.sh');
  writeFileSync(context, `cat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"see runbook 7"}}'\n`);
  writeFileSync(
    path.join(home, '.mewcode', 'settings.yaml'),
    JSON.stringify({
      hooks: {
        PostToolUseFailure: [
          { matcher: 'flaky', hooks: [{ type: 'command', command: `sh ${exit2}` }] },
          { matcher: 'fla.*', hooks: [{ type: 'command', command: `sh ${block}` }] },
          { matcher: 'Read|flaky', hooks: [{ type: 'command', command: `sh ${context}` }] },
          { matcher: 'Read', hooks: [{ type: 'command', command: `touch ${marker}` }] },
        ],
      },
    }),
  );
  const { kernel, model } = await bootKernel([useTools([call('flaky', {})]), say('done')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'go', 'bypassPermissions');
  } finally {
    await kernel.shutdown();
  }
  const results = model.requests[1]!.messages.flatMap((message) => (message.role === 'tool' ? message.results : []));
  expect(results).toHaveLength(1);
  expect(results[0]!.isError).toBe(true);
  expect(results[0]!.content).toMatch(/^disk on fire/);
  for (const text of ['retry with --force', 'the disk is known to be flaky', 'see runbook 7']) expect(results[0]!.content).toContain(text);
  expect(existsSync(marker)).toBe(false);
});

test('a call the user interrupted is a failure with is_interrupt true', async () => {
  const root = temp('mewcode-failure-logs-');
  const failure = path.join(root, 'failure.jsonl');
  const { root: project, home } = setup({ PostToolUseFailure: [{ matcher: 'slow', hooks: [recorder(failure)] }] });
  const { kernel } = await bootKernel([useTools([call('slow', {})]), say('never asked')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(project, home));
  const controller = new AbortController();
  slowStarted = () => setTimeout(() => controller.abort(), 50);
  try {
    await runPrompt(kernel, 'go', 'bypassPermissions', controller.signal);
  } finally {
    await kernel.shutdown();
  }
  expect(recorded(failure)).toEqual([expect.objectContaining({ hook_event_name: 'PostToolUseFailure', tool_name: 'slow', error: 'stopped half way', is_interrupt: true })]);
});

test('a handler\'s `if` is accepted on PostToolUseFailure, a tool event', async () => {
  const { root, home } = setup({ PostToolUseFailure: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git *)', command: 'true' }] }] });
  const loaded = await loadHookRules(root, home, undefined);
  expect(loaded.warnings).toEqual([]);
  expect(loaded.rules).toEqual([expect.objectContaining({ event: 'PostToolUseFailure', matcher: 'Bash', if: 'Bash(git *)' })]);
});
