/**
 * Claude Code's sub-agent type names (`Explore`, `general-purpose`, `Plan`) work wherever a type
 * is named: SubagentStart/SubagentStop matchers match MewCode's names and Claude Code's, payloads
 * carry Claude Code's spelling, and the agent tool starts `subagent_type: "Explore"`. An agent
 * hook's own verifier is not the user's sub-agent: it fires no SubagentStart or SubagentStop.
 */
import { afterEach, expect, test } from '@jest/globals';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { Tool } from '../../../types/tools.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { promptOf, routedSteps } from '../../kernel/kernel-v2-helpers.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

/** A command hook that appends `<label> <agent_type>` to log.txt in the project. */
const record = (label: string): string => `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>require("fs").appendFileSync(process.env.CLAUDE_PROJECT_DIR+"/log.txt","${label} "+JSON.parse(s).agent_type+"\\n"))'`;
const logOf = (root: string): string[] => (existsSync(path.join(root, 'log.txt')) ? readFileSync(path.join(root, 'log.txt'), 'utf8').trim().split('\n').sort() : []);

test("SubagentStart/SubagentStop matchers take Claude Code's names and MewCode's; payloads say Claude Code's", async () => {
  const { root, home } = settingsSetup({
    SubagentStart: [
      { matcher: 'Explore', hooks: [{ type: 'command', command: record('start-Explore') }] },
      { matcher: 'explore', hooks: [{ type: 'command', command: record('start-explore') }] },
      { matcher: 'general-purpose', hooks: [{ type: 'command', command: record('start-general-purpose') }] },
    ],
    SubagentStop: [{ matcher: 'Explore|general-purpose', hooks: [{ type: 'command', command: record('stop') }] }],
  });
  const { kernel } = await bootKernel([say('explored'), say('generalised')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    for (const agentType of ['explore', 'general']) {
      const child = kernel.createSession({ parent: kernel.session, agentType });
      for await (const _event of child.run({ prompt: 'look around', mode: 'default' })) void _event;
    }
    expect(logOf(root)).toEqual(['start-Explore Explore', 'start-explore Explore', 'start-general-purpose general-purpose', 'stop Explore', 'stop general-purpose']);
  } finally {
    await kernel.shutdown();
  }
});

test('the agent tool starts Claude Code\'s type names (Explore, general-purpose, Plan as the read-only explore)', async () => {
  const { root, home } = settingsSetup({});
  const readTool: Tool = { name: 'read_file', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'file text' }) };
  const calls = [
    call('agent', { description: 'a', prompt: 'first', subagent_type: 'Explore' }),
    call('agent', { description: 'b', prompt: 'second', subagent_type: 'general-purpose' }),
    call('agent', { description: 'c', prompt: 'third', subagent_type: 'Plan' }),
  ];
  let mainTurn = 0;
  const steps = routedSteps(5, (request) => {
    const task = ['first', 'second', 'third'].find((word) => promptOf(request).includes(word));
    if (task) return say(`did ${task}`);
    return mainTurn++ === 0 ? useTools(calls) : say('all done');
  });
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([readTool]), createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  try {
    await runPrompt(kernel, 'go', 'default');
    const last = model.requests.at(-1)!.messages.at(-1)!;
    expect(last.role).toBe('tool');
    if (last.role !== 'tool') return;
    expect(last.results.map((r) => r.isError ?? false)).toEqual([false, false, false]);
    expect(last.results.map((r) => r.content)).toEqual([expect.stringMatching(/^did first/), expect.stringMatching(/^did second/), expect.stringMatching(/^did third/)]);
  } finally {
    await kernel.shutdown();
  }
});

test("an agent hook's verifier fires no SubagentStart or SubagentStop", async () => {
  const { root, home } = settingsSetup({
    PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', prompt: 'Check: $ARGUMENTS' }] }],
    SubagentStart: [{ hooks: [{ type: 'command', command: record('start') }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: record('stop') }] }],
  });
  const steps = routedSteps(3, (request) => {
    if (promptOf(request).startsWith('Check:')) return say('{"ok": true}');
    return request.messages.at(-1)?.role === 'tool' ? say('written') : useTools([call('write_file', { path: 'a.txt', content: 'x' })]);
  });
  const writeTool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'wrote' }) };
  const { kernel } = await bootKernel(steps, [toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } }), createSubagentsPlugin()], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write it', 'bypassPermissions');
    expect(logOf(root)).toEqual([]);
  } finally {
    await kernel.shutdown();
  }
});
