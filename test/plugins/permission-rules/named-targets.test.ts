/**
 * Rules that name a sub-agent or a skill, as Claude Code writes them and as MewCode does:
 * `Agent(writer)` / `Task(writer)` / `agent(writer)` name the sub-agent type the agent tool
 * starts, `Skill(commit-helper)` / `load_skill(commit-helper)` the skill load_skill loads, and
 * `Agent(model:opus)`-style deny and ask rules a parameter of the call — in every rule source.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import skills from '../../../plugins/skills/index.js';
import type { MewcodePlugin } from '../../../types/plugin.js';
import { suggestRule } from '../../../plugins/permission-rules/suggest.js';
import { bootRules, decide, outcome, tempDirs, warnings, writeSettings, type BootRulesOptions, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  put(path.join(dirs.root, '.claude', 'agents', 'writer.md'), '---\nname: writer\ndescription: Writes docs\n---\nWrite.\n');
  put(path.join(dirs.root, '.claude', 'skills', 'commit-helper', 'SKILL.md'), '---\nname: commit-helper\ndescription: Commits\n---\nCommit.\n');
  put(path.join(dirs.root, '.claude', 'skills', 'review-pr', 'SKILL.md'), '---\nname: review-pr\ndescription: Reviews\n---\nReview.\n');
});
afterEach(() => dirs.cleanup());

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const claudeUser = (permissions: unknown) => put(path.join(dirs.home, '.claude', 'settings.json'), JSON.stringify({ permissions }));
const plugins = (): MewcodePlugin[] => [createSubagentsPlugin(), skills];
const boot = (options: BootRulesOptions = {}) => bootRules(dirs, { ...options, plugins: plugins() });
type Kernel = Awaited<ReturnType<typeof bootRules>>['kernel'];
const agent = (kernel: Kernel, type: string | undefined, extra: Record<string, unknown> = {}) =>
  decide(kernel, 'agent', { description: 'x', prompt: 'x', ...(type === undefined ? {} : { subagent_type: type }), ...extra });
const skill = (kernel: Kernel, name: string, args?: string) => decide(kernel, 'load_skill', { name, ...(args === undefined ? {} : { arguments: args }) });

describe('sub-agent type rules', () => {
  it.each(['Agent(writer)', 'Task(writer)', 'agent(writer)', 'Agent(Writer)'])('deny %s in ~/.claude/settings.json denies that type only', async (rule) => {
    claudeUser({ deny: [rule] });
    const { kernel, reporter } = await boot();
    expect(await agent(kernel, 'writer')).toMatchObject({ decision: 'deny', layer: 'permission-rules:user' });
    expect(await outcome(agent(kernel, 'explore'))).not.toBe('deny');
    expect(warnings(reporter).filter((w) => w.includes('names no known tool'))).toEqual([]);
  });

  it("Claude Code's built-in names: Agent(Explore) is explore, Agent(general-purpose) the default general", async () => {
    writeSettings(dirs, 'project', { ask: ['Agent(Explore)'], deny: ['Agent(general-purpose)'] });
    const { kernel } = await boot();
    expect(await outcome(agent(kernel, 'explore'))).toBe('ask');
    expect(await outcome(agent(kernel, undefined))).toBe('deny');
    expect(await outcome(agent(kernel, 'writer'))).not.toBe('deny');
  });

  it('allow, ask and the command-line flags name a type too; deny still beats allow', async () => {
    const { kernel } = await boot({ cli: { allowedTools: ['Agent(writer)'], disallowedTools: ['Task(explore)'] } });
    expect(await outcome(agent(kernel, 'writer'))).toBe('allow');
    expect(await agent(kernel, 'explore')).toMatchObject({ decision: 'deny', layer: 'permission-rules:session' });
  });

  it('parameter rules (deny and ask only): Agent(run_in_background:true), Agent(model:opus)-style', async () => {
    claudeUser({ deny: ['Agent(run_in_background:true)'], ask: ['Agent(description:secret*)'] });
    const { kernel } = await boot();
    expect((await agent(kernel, 'writer', { run_in_background: true }))?.reason).toContain('"Agent(run_in_background:true)" matches "run_in_background:true"');
    expect(await outcome(agent(kernel, 'writer', { run_in_background: false }))).not.toBe('deny');
    expect(await outcome(agent(kernel, 'writer', { description: 'secret stuff' }))).toBe('ask');
    expect(await outcome(agent(kernel, 'writer'))).not.toBe('ask');
  });

  it('an allow rule on a parameter can never match: a warning names the file and the rule', async () => {
    claudeUser({ allow: ['Agent(run_in_background:true)'] });
    const { kernel, reporter } = await boot();
    expect(await outcome(agent(kernel, 'writer', { run_in_background: true }))).not.toBe('allow');
    const file = path.join(dirs.home, '.claude', 'settings.json');
    expect(warnings(reporter).find((w) => w.includes('"Agent(run_in_background:true)" can never match'))).toContain(file);
  });
});

describe('skill rules', () => {
  it.each(['Skill(commit-helper)', 'load_skill(commit-helper)', 'Skill(Commit-Helper)'])('deny %s denies loading that skill only, without a warning', async (rule) => {
    claudeUser({ deny: [rule] });
    const { kernel, reporter } = await boot();
    expect(await skill(kernel, 'commit-helper')).toMatchObject({ decision: 'deny', layer: 'permission-rules:user' });
    expect(await outcome(skill(kernel, 'commit-helper', 'fix the message'))).toBe('deny');
    expect(await outcome(skill(kernel, 'review-pr'))).not.toBe('deny');
    expect(warnings(reporter).filter((w) => w.includes('names no known tool'))).toEqual([]);
  });

  it('a skill the user runs by typing /name is not a load_skill call: Skill rules govern the model only (as in Claude Code)', async () => {
    claudeUser({ deny: ['Skill(commit-helper)'] });
    const { kernel } = await boot();
    const command = kernel.commands().find((c) => c.name === 'commit-helper')!;
    const result = await command.run(kernel.session, 'now', { mode: 'default' });
    expect(result.isError).toBeUndefined();
    expect(result.prompt).toContain('commit-helper');
  });

  it('a bare Skill deny in MewCode\'s settings.yaml denies every skill', async () => {
    writeSettings(dirs, 'user', { deny: ['Skill'] });
    const { kernel } = await boot();
    expect(await outcome(skill(kernel, 'review-pr'))).toBe('deny');
  });

  it('Skill(review-pr *) matches the skill with any arguments (prefix form), ask in the project', async () => {
    writeSettings(dirs, 'project', { ask: ['Skill(review-pr *)'] });
    const { kernel } = await boot();
    expect(await outcome(skill(kernel, 'review-pr'))).toBe('ask');
    expect(await outcome(skill(kernel, 'review-pr', '123'))).toBe('ask');
    expect(await outcome(skill(kernel, 'commit-helper'))).not.toBe('ask');
  });
});

test('"allow always" on a named call suggests a rule for that sub-agent type or skill only', () => {
  expect(suggestRule({ toolName: 'agent', target: { kind: 'named', name: 'writer' }, projectRoot: '/p' })).toBe('Task(writer)');
  expect(suggestRule({ toolName: 'load_skill', target: { kind: 'named', name: 'commit-helper', detail: 'x' }, projectRoot: '/p' })).toBe('Skill(commit-helper)');
});
