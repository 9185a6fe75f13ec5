/**
 * Every tool event's payload gives a built-in tool's input in Claude Code's fields (the same
 * mapping as PreToolUse's): PermissionRequest, PostToolUse and PostToolUseFailure.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

// Stand-ins under the built-in names: the payload's shape is the hooks plugin's, not the tool's.
const agent: Tool = { name: 'agent', description: 'delegates', inputSchema: { type: 'object' }, readOnly: false, category: 'exec', execute: async () => ({ content: 'delegated' }) };
const skill: Tool = { name: 'load_skill', description: 'loads', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'no such skill', isError: true }) };
const grep: Tool = { name: 'grep', description: 'searches', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'a.ts:1: TODO' }) };
const tools = definePlugin({ name: 'test-tools', bindings: new ContainerModule(({ bind }) => [agent, skill, grep].forEach((tool) => bind(TOKENS.Tool).toConstantValue(tool))) });

test("PermissionRequest, PostToolUse and PostToolUseFailure payloads carry Claude Code's tool_input", async () => {
  const { root, home } = settingsSetup({});
  const log = path.join(home, 'payloads.jsonl');
  const record = { hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] };
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PermissionRequest: [record], PostToolUse: [record], PostToolUseFailure: [record] } }));
  const calls = [call('agent', { description: 'd', prompt: 'p', subagent_type: 'explore' }), call('load_skill', { name: 'deploy', arguments: 'prod' }), call('grep', { pattern: 'TODO', case_insensitive: true, path: 'src' })];
  const { kernel } = await bootKernel([useTools(calls), say('done')], [tools, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'go', 'default');
  } finally {
    await kernel.shutdown();
  }
  const payloads = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)) : [];
  const of = (event: string, tool: string): Record<string, unknown> | undefined => payloads.find((p) => p.hook_event_name === event && p.tool_name === tool)?.tool_input;
  expect(of('PermissionRequest', 'Task')).toEqual({ description: 'd', prompt: 'p', subagent_type: 'Explore' });
  expect(of('PostToolUseFailure', 'Skill')).toEqual({ name: 'deploy', arguments: 'prod', skill: 'deploy', args: 'prod' });
  expect(of('PostToolUse', 'Grep')).toEqual({ pattern: 'TODO', case_insensitive: true, '-i': true, path: path.join(root, 'src'), output_mode: 'content' });
}, 30_000);
