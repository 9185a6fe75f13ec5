/**
 * S6: a fork-mode skill runs through TOKENS.SubagentRunner — the contract exercised with a
 * runner that records its requests: context none / recent N (configured) / full, the model
 * override, allowed_tools as registered names for the hard allowlist, the rendered body as system
 * prompt, and the final text back as the tool result or command output.
 */
import path from 'node:path';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { registeredToolNames } from '../../../plugins/skills/tool-names.js';
import { FORK_SKILL_TIMEOUT_MS, INLINE_SKILL_TIMEOUT_MS } from '../../../plugins/skills/load-skill-tool.js';
import { skillsSection } from '../../../plugins/skills/settings.js';
import { bootSkills, recordingRunner, skillsConfig, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);

function project(): string {
  const root = temp('skills-project-');
  const skills = path.join(root, '.mewcode', 'skills');
  writeSkill(skills, 'research', { name: 'research', description: 'Research in isolation.', mode: 'fork', fork_context: 'recent', model: 'fast', 'allowed-tools': 'Read, Grep, Bash(git log:*), mcp__docs__search' }, 'Research $ARGUMENTS and answer briefly.\n');
  writeSkill(skills, 'summarise', { name: 'summarise', description: 'Summarise everything.', mode: 'fork', fork_context: 'full' }, 'Summarise the conversation.\n');
  writeSkill(skills, 'fresh', { name: 'fresh', description: 'No history.', mode: 'fork' }, 'Start fresh.\n');
  return root;
}

test('load_skill on a fork-mode skill runs it through the runner and returns its final text as the tool result', async () => {
  const runner = recordingRunner('The answer is 42.');
  const booted = await bootSkills([useTools([call('load_skill', { name: 'research', arguments: 'where config is read' })]), say('done')], {
    project: project(),
    plugins: [runner.plugin],
    config: skillsConfig({ watch: false, fork_recent_messages: 4 }),
  });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
  expect(runner.requests).toHaveLength(1);
  const request = runner.requests[0]!;
  expect(request.parent).toBe(booted.kernel.session);
  expect(request).toMatchObject({
    prompt: 'where config is read',
    description: 'skill research',
    context: { recent: 4 },
    model: 'fast',
    allowedTools: ['read_file', 'grep', 'bash', 'mcp__docs__search'],
  });
  expect(request.systemPrompt).toHaveLength(2);
  expect(request.systemPrompt![0]).toContain('You are running the skill "research" in an isolated conversation.');
  expect(request.systemPrompt![1]).toBe('This skill is designed to use only these tools: Read, Grep, Bash(git log:*), mcp__docs__search. Prefer them over other tools when possible.\n\n---\n\nResearch where config is read and answer briefly.');
  expect(toolResults(booted.model.requests[1]!.messages)).toEqual([expect.objectContaining({ content: 'The answer is 42.' })]);
  // A fork-mode skill is not activated in the parent.
  expect(booted.runtime.active.list(booted.kernel.session)).toEqual([]);
  expect(booted.model.requests[1]!.system.environment).not.toContain('Active Skills');
});

test('/name args on a fork-mode skill: full and none contexts, no restriction without allowed_tools, the text as command output', async () => {
  const runner = recordingRunner('Summary.');
  const booted = await bootSkills([], { project: project(), plugins: [runner.plugin] });
  const summarise = booted.kernel.commands().find((c) => c.name === 'summarise')!;
  expect(await summarise.run(booted.kernel.session, '', { mode: 'default' })).toEqual({ output: 'Summary.', isError: false });
  expect(runner.requests[0]).toMatchObject({ context: 'full', prompt: 'Carry out the "summarise" skill\'s instructions.' });
  expect(runner.requests[0]!.allowedTools).toBeUndefined();
  expect(runner.requests[0]!.model).toBeUndefined();
  await booted.kernel.commands().find((c) => c.name === 'fresh')!.run(booted.kernel.session, 'now', { mode: 'default' });
  expect(runner.requests[1]).toMatchObject({ context: 'none', prompt: 'now' });
  expect(runner.requests[1]!.systemPrompt![1]).toBe('Start fresh.\n\n## User Request\n\nnow');
  // The fork runs in the mode the command was typed in (plan mode stays plan mode).
  expect(runner.requests.map((r) => r.mode)).toEqual(['default', 'default']);
  await booted.kernel.commands().find((c) => c.name === 'fresh')!.run(booted.kernel.session, 'look', { mode: 'plan' });
  expect(runner.requests[2]!.mode).toBe('plan');
});

test('the default recent window is 10 messages; the setting is checked at its bounds', async () => {
  const runner = recordingRunner('ok');
  const booted = await bootSkills([], { project: project(), plugins: [runner.plugin] });
  await booted.kernel.commands().find((c) => c.name === 'research')!.run(booted.kernel.session, 'x', { mode: 'default' });
  expect(runner.requests[0]!.context).toEqual({ recent: 10 });
  expect(skillsSection.parse({ fork_recent_messages: 1 })).toMatchObject({ ok: true, value: { forkRecentMessages: 1 } });
  expect(skillsSection.parse({ fork_recent_messages: 1000 })).toMatchObject({ ok: true, value: { forkRecentMessages: 1000 } });
  expect(skillsSection.parse({ fork_recent_messages: 0 })).toMatchObject({ ok: false });
  expect(skillsSection.parse({ fork_recent_messages: 1001 })).toMatchObject({ ok: false });
  expect(skillsSection.parse({ extra_roots: 'x' })).toEqual({ ok: false, issues: [{ path: ['extra_roots'], message: 'Expected array, received string' }] });
  expect(skillsSection.parse({ colour: 1 })).toEqual({ ok: false, issues: [{ path: ['colour'], message: 'Unknown key "colour"' }] });
});

test('a runner that throws becomes an error result, never a throw', async () => {
  const runner = recordingRunner(new Error('provider "fast" is not configured'));
  const booted = await bootSkills([useTools([call('load_skill', { name: 'fresh' })]), say('ok')], { project: project(), plugins: [runner.plugin] });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
  expect(toolResults(booted.model.requests[1]!.messages)).toEqual([
    expect.objectContaining({ content: 'The skill "fresh" could not run as a sub-agent: provider "fast" is not configured', isError: true }),
  ]);
});

test('without a runner: a clear error result naming what is missing', async () => {
  const booted = await bootSkills([useTools([call('load_skill', { name: 'research' })]), say('ok')], { project: project() });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
  const [result] = toolResults(booted.model.requests[1]!.messages);
  expect(result).toMatchObject({ isError: true });
  expect(result!.content).toContain('this build has no sub-agent runner (no plugin binds TOKENS.SubagentRunner)');
});

test('load_skill gives a fork-mode skill a sub-agent\'s time (30 min) and an inline load 30 s', async () => {
  const booted = await bootSkills([], { project: project() });
  writeSkill(path.join(booted.project, '.mewcode', 'skills'), 'inline-one', { name: 'inline-one', description: 'd' }, 'b\n');
  await booted.runtime.reload();
  const tool = booted.kernel.tools.list().find((t) => t.name === 'load_skill')!;
  expect(tool.timeoutMs!({ name: 'research' })).toBe(FORK_SKILL_TIMEOUT_MS);
  expect(FORK_SKILL_TIMEOUT_MS).toBe(30 * 60_000);
  expect(tool.timeoutMs!({ name: 'inline-one' })).toBe(INLINE_SKILL_TIMEOUT_MS);
  expect(tool.timeoutMs!({ name: 'unknown' })).toBe(INLINE_SKILL_TIMEOUT_MS);
});

test('allowed_tools become registered names: Claude Code names mapped, rule arguments dropped, duplicates once', () => {
  expect(registeredToolNames(['Read', 'Bash(git add:*)', 'Bash(git commit:*)', 'Edit', 'MultiEdit', 'Write', 'Glob', 'Grep', 'mcp__x__y', 'load_skill'])).toEqual([
    'read_file', 'bash', 'edit_file', 'write_file', 'glob', 'grep', 'mcp__x__y', 'load_skill',
  ]);
});
