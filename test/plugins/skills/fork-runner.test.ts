/**
 * S6 end to end with the real sub-agent runner (the subagents plugin): a fork-mode skill runs
 * in an isolated conversation that sees only its task and the skill, is offered only its allowed
 * tools (system tools kept), cannot run any other, and its final text returns to the parent.
 */
import path from 'node:path';
import subagents from '../../../plugins/subagents/index.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { sleepTool, toolsPlugin, writeTool, type ToolLog } from '../../support/test-tools.js';
import { bootSkills, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

const results = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);
const texts = (messages: readonly Message[]): string => JSON.stringify(messages);

function project(context: string): string {
  const root = temp('skills-project-');
  writeSkill(path.join(root, '.mewcode', 'skills'), 'research', { name: 'research', description: 'Research in isolation.', mode: 'fork', fork_context: context, allowed_tools: '[read_note]' }, 'SKILL BODY: research $ARGUMENTS.\n');
  return root;
}

test('isolation and the hard allowlist: the fork sees its task, not the parent\'s history; a tool outside allowed_tools never runs', async () => {
  const log: ToolLog = { events: [] };
  const booted = await bootSkills(
    [
      useTools([call('load_skill', { name: 'research', arguments: 'where x is set' })]), // parent
      useTools([call('write_note', { text: 'escape' })]), // the fork tries a tool it was not given
      say('FORK ANSWER: x is set in config.ts'), // the fork's final text
      say('done'), // parent
    ],
    { project: project('none'), plugins: [toolsPlugin([sleepTool(log, 'read_note'), writeTool(log, 'write_note')]), subagents] },
  );
  await collect(booted.kernel.run({ prompt: 'PARENT SECRET: find where x is set', mode: 'bypassPermissions' }));
  const [, fork1, fork2, parent2] = booted.model.requests;
  expect(fork1!.tools.map((t) => t.name).sort()).toEqual(['load_skill', 'read_note']);
  expect(fork1!.system.stable).toContain('SKILL BODY: research where x is set.');
  expect(fork1!.messages).toHaveLength(1);
  expect(texts(fork1!.messages)).toContain('where x is set');
  expect(texts(fork1!.messages)).not.toContain('PARENT SECRET');
  expect(results(fork2!.messages)[0]).toMatchObject({ isError: true });
  expect(log.events).toEqual([]);
  expect(results(parent2!.messages)).toEqual([expect.objectContaining({ content: 'FORK ANSWER: x is set in config.ts' })]);
  expect(parent2!.system.environment).not.toContain('Active Skills');
});

test('fork_context full: the fork starts with the parent\'s history; /name args returns the fork\'s answer as output', async () => {
  const booted = await bootSkills([say('noted'), say('FULL ANSWER')], { project: project('full'), plugins: [subagents] });
  await collect(booted.kernel.run({ prompt: 'EARLIER TURN', mode: 'bypassPermissions' }));
  const command = booted.kernel.commands().find((c) => c.name === 'research')!;
  expect(await command.run(booted.kernel.session, 'the thing', { mode: 'bypassPermissions' })).toEqual({ output: 'FULL ANSWER', isError: false });
  const fork = booted.model.requests[1]!;
  expect(texts(fork.messages)).toContain('EARLIER TURN');
  expect(texts(fork.messages)).toContain('the thing');
});
