/**
 * `disallowed-tools` in a SKILL.md (Claude Code's key): a deny while the skill is active (inline),
 * for the agent that activated it and that agent's sub-agents; a fork skill's sub-agent is never
 * given a whole tool it names and is denied the narrower entries' calls. A key no reader knows is
 * a warning naming the line and key, never silence (`hooks:` run: skill-hooks.test.ts).
 */
import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import type { SubagentRequest, SubagentResult, SubagentRunner } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { ToolUseContext } from '../../../types/hooks.js';
import toolWriteFile from '../../../plugins/tool-write-file/index.js';
import { parseSkill } from '../../../plugins/skills/skill.js';
import { frontmatterReady } from '../../../plugins/skills/frontmatter.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, writeSkill } from './helpers.js';
import { ToolDenials } from '../../../sdk/tool-denials.js';

afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);

test('an active inline skill denies the tools it disallows, in bypassPermissions too; other tools still run', async () => {
  const project = temp('skills-project-');
  writeSkill(path.join(project, '.mewcode', 'skills'), 'audit', { name: 'audit', description: 'Audit only.', 'disallowed-tools': 'Write, Bash(rm:*)' }, 'Audit $ARGUMENTS.\n');
  const booted = await bootSkills(
    [useTools([call('load_skill', { name: 'audit' })]), useTools([call('write_file', { file_path: 'out.txt', content: 'x' })]), say('done')],
    { project, plugins: [toolWriteFile] },
  );
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const results = toolResults(booted.model.requests[2]!.messages);
  expect(results[0]!.isError ?? false).toBe(false);
  expect(results[1]).toMatchObject({ isError: true, content: expect.stringContaining('disallowed-tools: Write') });
  expect(results[1]!.content).toContain(`the skill "audit" (${path.join(project, '.mewcode', 'skills', 'audit', 'SKILL.md')})`);
  // A sub-agent of the session is held to it too; another session's agent is not.
  const lists = booted.runtime.denyLists({ sessionId: booted.kernel.session.sessionId, agentId: 'agent-x', parentAgentId: 'main' });
  expect(lists.map((list) => list.entries)).toEqual([['Write', 'Bash(rm:*)']]);
  expect(booted.runtime.denyLists({ sessionId: 'other', agentId: 'main' })).toEqual([]);
});

test("a fork skill's sub-agent is not given a whole tool it disallows, and its narrower entries are denied while it runs", async () => {
  const project = temp('skills-project-');
  writeSkill(path.join(project, '.mewcode', 'skills'), 'deploy', { name: 'deploy', description: 'Deploy.', context: 'fork', 'disallowed-tools': 'Write, Bash(rm:*)' }, 'Deploy.\n');
  const requests: SubagentRequest[] = [];
  let during: string[][] = [];
  const booted = await bootSkills([useTools([call('load_skill', { name: 'deploy' })]), say('done')], {
    project,
    plugins: [
      definePlugin({
        name: 'test-runner',
        bindings: new ContainerModule(({ bind }) =>
          void bind(TOKENS.SubagentRunner).toConstantValue({
            roles: () => [],
            async run(request): Promise<SubagentResult> {
              requests.push(request);
              during = booted.runtime.denyLists({ sessionId: request.parent!.sessionId, agentId: request.agentId!, parentAgentId: 'main' }).map((list) => [...list.entries]);
              return { agentId: request.agentId!, text: 'deployed', endReason: 'completed', isError: false, usage: { input: 1, output: 1, cacheWrite: 0, cacheRead: 0 }, iterations: 1 };
            },
          } satisfies SubagentRunner),
        ),
      }),
    ],
  });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({ disallowedTools: ['write_file'], agentId: expect.stringMatching(/^agent-/) });
  expect(during).toEqual([['Write', 'Bash(rm:*)']]);
  // Gone once the fork is over.
  expect(booted.runtime.denyLists({ sessionId: booted.kernel.session.sessionId, agentId: requests[0]!.agentId! })).toEqual([]);
});

test('an entry with an argument denies only the calls its rule matches (through the permission rules), a whole name every call', async () => {
  const denials = new ToolDenials({ container: { isBound: () => false } as never, projectRoot: '/p' });
  const context = (name: string, input: Record<string, unknown>) => ({ call: { id: '1', name, input }, tool: undefined, input }) as unknown as ToolUseContext;
  const list = [{ entries: ['Edit'], label: 'x', base: 'user' as const }];
  // `Edit` takes every editing tool, as Claude Code's rules do; read_file is not one.
  expect(await denials.find(list, context('write_file', {}), {})).toMatchObject({ entry: 'Edit' });
  expect(await denials.find(list, context('read_file', {}), {})).toBeUndefined();
  // No rule matcher in this build: a narrower entry denies the whole tool (never loosened).
  expect(await denials.find([{ entries: ['Bash(rm:*)'], label: 'x', base: 'user' }], context('bash', { command: 'ls' }), { command: 'ls' })).toMatchObject({ entry: 'Bash(rm:*)' });
});

test('an unknown key is a warning naming its line (with the nearest known key); hooks: is read by the hooks plugin, not warned here; the skill loads', async () => {
  await frontmatterReady();
  const root = { dir: '/r', scope: 'user' as const };
  const parsed = parseSkill('---\nname: s\ndescription: d\ndisalowed-tools: Write\nhooks:\n  PreToolUse: []\nlicense: MIT\n---\nBody\n', { dir: '/r/s', file: '/r/s/SKILL.md', dirName: 's', root });
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  expect(parsed.skill.warnings).toEqual(['line 4: unknown key "disalowed-tools" (did you mean "disallowed-tools"?); ignored']);
  expect(parsed.skill.disallowedTools).toEqual([]);
});
