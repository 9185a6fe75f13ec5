/**
 * `context: fork` + `agent:` (Claude Code's skill keys, accepted in command files too): the fork
 * runs as that sub-agent type — its tools (explore: read-only), model and prompt — for a skill
 * and for a command file; a command file's `context: fork` no longer runs inline. An `agent:`
 * naming no type is refused and said at start, naming the file and the key: never run with more
 * tools than its author chose.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import customCommands from '../../../plugins/custom-commands/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { Tool } from '../../../types/tools.js';
import { collect } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { describeCatalog } from '../../../plugins/skills/listing.js';
import { bootSkills, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

const fake = (name: string, readOnly: boolean): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly, async execute() { return { content: 'ok' }; } });
const tools = () => toolsPlugin([fake('read_file', true), fake('grep', true), fake('write_file', false), fake('bash', false)], 'fake-file-tools');

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function project(): string {
  const root = temp('fork-agent-');
  const skills = path.join(root, '.claude', 'skills');
  writeSkill(skills, 'forky', { name: 'forky', description: 'Explores.', context: 'fork', agent: 'Explore' }, 'Explore $ARGUMENTS.\n');
  writeSkill(skills, 'ghost', { name: 'ghost', description: 'Unknown agent.', context: 'fork', agent: 'no-such-agent' }, 'Do $ARGUMENTS.\n');
  put(path.join(root, '.claude', 'commands', 'fcmd.md'), '---\ndescription: forked command\ncontext: fork\nagent: Explore\n---\nLook at $ARGUMENTS.\n');
  put(path.join(root, '.claude', 'commands', 'gcmd.md'), '---\ndescription: ghost command\ncontext: fork\nagent: Nobody\n---\nLook at $ARGUMENTS.\n');
  put(path.join(root, '.claude', 'commands', 'plain-fork.md'), '---\ndescription: fork, no agent\ncontext: fork\n---\nLook at $ARGUMENTS.\n');
  return root;
}

const offered = (request: { tools: readonly { name: string }[] }) => request.tools.map((tool) => tool.name).sort();
const boot = async () =>
  bootSkills([say('the explorer report'), say('done')], { project: project(), plugins: [tools(), createSubagentsPlugin(), customCommands] });

test("a fork skill's agent: Explore runs as the read-only explore agent (its tools and prompt)", async () => {
  const booted = await boot();
  const forky = booted.kernel.commands().find((c) => c.name === 'forky')!;
  const result = await forky.run(booted.kernel.session, 'auth flow', { mode: 'default' });
  expect(result).toMatchObject({ output: 'the explorer report' });
  const request = booted.model.requests[0]!;
  expect(offered(request)).not.toContain('write_file');
  expect(offered(request)).not.toContain('bash');
  expect(offered(request)).toContain('read_file');
  expect(JSON.stringify(request.system)).toContain('read-only exploration sub-agent');
  // `mewcode skills` says which agent a fork runs as.
  expect(describeCatalog(booted.runtime.store.current, booted.home)).toContain('forky  fork (context none, agent Explore)');
});

test("a command file's context: fork + agent: Explore runs in the explore agent, not inline", async () => {
  const booted = await boot();
  const fcmd = booted.kernel.commands().find((c) => c.name === 'fcmd')!;
  const result = await fcmd.run(booted.kernel.session, 'auth', { mode: 'default' });
  expect(result).toMatchObject({ output: 'the explorer report' });
  expect(result.prompt).toBeUndefined();
  const request = booted.model.requests[0]!;
  expect(offered(request)).not.toContain('write_file');
  expect(request.messages.map((m) => JSON.stringify(m)).join('')).toContain('Look at auth.');
});

test('a command file with context: fork and no agent runs in the general agent', async () => {
  const booted = await boot();
  const result = await booted.kernel.commands().find((c) => c.name === 'plain-fork')!.run(booted.kernel.session, 'x', { mode: 'default' });
  expect(result).toMatchObject({ output: 'the explorer report' });
  expect(offered(booted.model.requests[0]!)).toContain('write_file');
});

test('an agent: naming no sub-agent type: said at start naming file and key; the skill refuses to run, the command is skipped', async () => {
  const booted = await boot();
  const ghostFile = path.join(booted.project, '.claude', 'skills', 'ghost', 'SKILL.md');
  const gcmdFile = path.join(booted.project, '.claude', 'commands', 'gcmd.md');
  expect(booted.reporter.warnings.find((w) => w.includes(`${ghostFile}: agent: "no-such-agent" names no sub-agent type`))).toBeDefined();
  expect(booted.reporter.warnings.find((w) => w.includes(`${gcmdFile}:4: agent: "Nobody" names no sub-agent type`))).toBeDefined();
  expect(booted.kernel.commands().find((c) => c.name === 'gcmd')).toBeUndefined();
  const ghost = await booted.kernel.commands().find((c) => c.name === 'ghost')!.run(booted.kernel.session, 'x', { mode: 'default' });
  expect(ghost).toMatchObject({ isError: true });
  expect(ghost.output).toContain('agent: "no-such-agent"');
  expect(booted.model.requests).toHaveLength(0);
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
});
