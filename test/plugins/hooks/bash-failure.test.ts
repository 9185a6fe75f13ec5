/**
 * A bash call whose command exits non-zero is a failed call to Claude Code's hooks: it runs
 * PostToolUseFailure (with `error` and `is_interrupt`), never PostToolUse, though the model still
 * reads the output as a normal result. A zero exit runs PostToolUse with Claude Code's Bash
 * `tool_response` fields (`stdout`, `stderr`, `interrupted`, `isImage`) beside MewCode's.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import type { ToolMessage } from '../../../types/messages.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const recorder = (file: string): Record<string, string> => ({ type: 'command', command: `cat >> ${file}; echo >> ${file}` });
const recorded = (file: string): Record<string, any>[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)) : [];

async function runBash(commands: string[], hooks: (post: string, failure: string) => Record<string, unknown>): Promise<{ posts: Record<string, any>[]; failures: Record<string, any>[]; results: ToolMessage['results'] }> {
  const logs = temp('mewcode-bash-failure-logs-');
  const post = path.join(logs, 'post.jsonl');
  const failure = path.join(logs, 'failure.jsonl');
  const { root, home } = settingsSetup(hooks(post, failure));
  const { kernel, model } = await bootKernel([useTools(commands.map((command) => call('bash', { command }))), say('done')], [outputLimits, bashPlugin, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'go', 'bypassPermissions');
  } finally {
    await kernel.shutdown();
  }
  const results = model.requests[1]!.messages.flatMap((message) => (message.role === 'tool' ? message.results : []));
  return { posts: recorded(post), failures: recorded(failure), results };
}

test('a command that exits non-zero runs PostToolUseFailure with error and is_interrupt; one that exits 0 runs PostToolUse', async () => {
  const { posts, failures, results } = await runBash(['echo built', 'echo "3 tests failed" >&2; exit 3', 'kill -TERM $$'], (post, failure) => ({
    PostToolUse: [{ matcher: 'Bash', hooks: [recorder(post)] }],
    PostToolUseFailure: [{ matcher: 'Bash', hooks: [recorder(failure)] }],
  }));
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'echo built' }, tool_response: { stdout: 'built', stderr: '', interrupted: false, isImage: false, is_error: false } });
  // The model's text keeps the exit status first; the hook's stdout is the command's own output.
  expect(posts[0]!.tool_response.output).toMatch(/^exit_code: 0\nbuilt/);
  expect(failures).toHaveLength(2);
  expect(failures[0]).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'echo "3 tests failed" >&2; exit 3' }, is_interrupt: false });
  expect(failures[0]!.error).toMatch(/^Exit code 3\n/);
  expect(failures[0]!.error).toContain('3 tests failed');
  expect(failures[0]).not.toHaveProperty('tool_response');
  expect(failures[1]!.error).toMatch(/^Exit code 143\n/);
  // The model still reads a non-zero exit as a normal result.
  expect(results.map((result) => result.isError)).toEqual([false, false, false]);
}, 30_000);

test("PostToolUse gets the command's stdout and stderr apart, while the model reads them interleaved; neither copy reaches history", async () => {
  const { posts, results } = await runBash(['echo out-1; sleep 0.05; echo err-1 >&2; sleep 0.05; echo out-2; sleep 0.05; echo err-2 >&2'], (post) => ({ PostToolUse: [{ matcher: 'Bash', hooks: [recorder(post)] }] }));
  expect(posts[0]!.tool_response).toMatchObject({ stdout: 'out-1\nout-2', stderr: 'err-1\nerr-2', interrupted: false, isImage: false });
  expect(results[0]!.content).toBe('exit_code: 0\nout-1\nerr-1\nout-2\nerr-2');
  expect(Object.keys(results[0]!).sort()).toEqual(['content', 'isError', 'toolCallId']);
}, 30_000);

test("a PostToolUseFailure hook's exit 2 stderr reaches the model beside the failed command's output", async () => {
  const { results } = await runBash(['exit 1'], () => ({
    PostToolUseFailure: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "cat >/dev/null; echo 'run npm ci first' >&2; exit 2" }] }],
  }));
  expect(results[0]!.content).toMatch(/^exit_code: 1/);
  expect(results[0]!.content).toContain('run npm ci first');
}, 30_000);
