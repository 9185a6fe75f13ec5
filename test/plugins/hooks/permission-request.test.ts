/**
 * Claude Code's PermissionRequest: when a call would ask the user, the hooks matching the tool
 * run first with `tool_name`, `tool_input` and `permission_suggestions`, and may answer:
 * `hookSpecificOutput.decision.behavior` `allow` runs the call without asking, `deny` (with
 * `message`) refuses it. No answer leaves the question to the user, as does an allow with
 * `updatedInput` (a plugin's allow counts only for the arguments asked about).
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

/** A tool that needs approval in default mode, and records what it was run with. */
const ran: Record<string, unknown>[] = [];
const deploy: Tool = { name: 'deploy', description: 'deploys', inputSchema: { type: 'object' }, readOnly: false, category: 'exec', execute: async (input) => (ran.push(input), { content: `deployed ${String(input.target)}` }) };
const tools = definePlugin({ name: 'test-tools', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(deploy)) });

async function run(answer: string | undefined, matcher = 'deploy'): Promise<{ payloads: Record<string, any>[]; output: string }> {
  ran.length = 0;
  const { root, home } = settingsSetup({});
  const log = path.join(home, 'requests.jsonl');
  const script = path.join(home, 'answer.sh');
  writeFileSync(script, `cat >> ${log}; echo >> ${log}\n${answer === undefined ? '' : `echo '${answer}'`}\n`);
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PermissionRequest: [{ matcher, hooks: [{ type: 'command', command: `sh ${script}` }] }] } }));
  const { kernel, model } = await bootKernel([useTools([call('deploy', { target: 'staging' })]), say('done')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'ship it', 'default');
  } finally {
    await kernel.shutdown();
  }
  const payloads = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)) : [];
  const output = model.requests[1]!.messages.flatMap((message) => (message.role === 'tool' ? message.results : []))[0]!.content;
  return { payloads, output };
}

const decision = (value: Record<string, unknown>): string => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: value } });

test('allow runs the call without asking; the payload is Claude Code\'s', async () => {
  const { payloads, output } = await run(decision({ behavior: 'allow' }));
  expect(payloads).toEqual([expect.objectContaining({ hook_event_name: 'PermissionRequest', tool_name: 'deploy', tool_input: { target: 'staging' }, permission_mode: 'default', permission_suggestions: [] })]);
  expect(output).toBe('deployed staging');
  expect(ran).toEqual([{ target: 'staging' }]);
}, 20_000);

test('allow with updatedInput is no answer: the user is asked (here nobody, so refused), neither input runs', async () => {
  const { output } = await run(decision({ behavior: 'allow', updatedInput: { target: 'canary' } }));
  expect(output).toMatch(/^Permission required/);
  expect(ran).toEqual([]);
}, 20_000);

test('deny refuses the call with its message', async () => {
  const { output } = await run(decision({ behavior: 'deny', message: 'no deploys on Friday' }));
  expect(output).toContain('no deploys on Friday');
  expect(ran).toEqual([]);
}, 20_000);

test('no answer, or a matcher for another tool, leaves the question as it was (here: nobody to ask, so refused)', async () => {
  for (const [answer, matcher] of [[undefined, 'deploy'], [decision({ behavior: 'allow' }), 'Bash']] as const) {
    await run(answer, matcher);
    expect(ran).toEqual([]);
  }
}, 30_000);

test('deny with interrupt: true refuses the call and ends the run after this batch (no further model request)', async () => {
  ran.length = 0;
  const { root, home } = settingsSetup({});
  const script = path.join(home, 'answer.sh');
  writeFileSync(script, `cat > /dev/null\necho '${decision({ behavior: 'deny', message: 'frozen for the release', interrupt: true })}'\n`);
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PermissionRequest: [{ matcher: 'deploy', hooks: [{ type: 'command', command: `sh ${script}` }] }] } }));
  const { kernel, model } = await bootKernel([useTools([call('deploy', { target: 'staging' })]), say('must not be asked')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    const done = doneEvent(await runPrompt(kernel, 'ship it', 'default'));
    expect(done).toMatchObject({ reason: 'stopped' });
    expect(JSON.stringify(done)).toContain('frozen for the release');
  } finally {
    await kernel.shutdown();
  }
  expect(ran).toEqual([]);
  expect(model.requests).toHaveLength(1);
}, 20_000);

test('deny without interrupt lets the model go on', async () => {
  const { output } = await run(decision({ behavior: 'deny', message: 'not now', interrupt: false }));
  expect(output).toContain('not now');
}, 20_000);
