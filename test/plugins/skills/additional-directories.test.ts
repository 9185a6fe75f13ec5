/**
 * Skills in additional directories (`--add-dir`, `permissions.additional_directories`): each one's
 * `.claude/skills`, `.agents/skills` and `.mewcode/skills` load like the project's own skills —
 * listed in the stable prompt, loaded by load_skill — under the project's trust rules, and the
 * project's own skill of the same name wins, with a warning naming both files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { cliOptions } from '../permission-rules/helpers.js';
import { bootSkills, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]): { content: string; isError?: boolean }[] =>
  messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);

async function boot(options: { addDirs?: string[]; trusted?: boolean; project?: string; home?: string; steps?: Parameters<typeof bootSkills>[0] } = {}) {
  const project = options.project ?? temp('skills-project-');
  const home = options.home ?? temp('skills-home-');
  const trust = options.trusted === undefined ? undefined : await createWorkspaceTrust({ projectRoot: project, homeDir: home, env: {}, flag: options.trusted });
  const booted = await bootSkills(options.steps ?? [say('ok')], {
    project,
    home,
    // The permission rules come after the skills here: the additional directories are still seen.
    plugins: [createPermissionRulesPlugin()],
    cli: cliOptions({ additionalDirectories: options.addDirs ?? [] }),
    ...(trust ? { trust } : {}),
  });
  // The skills plugin scans again at start once the permission rules have read the directories.
  await booted.kernel.pluginsReady();
  return booted;
}

test.each([['.claude/skills'], ['.agents/skills'], ['.mewcode/skills']])('a skill in --add-dir <dir>/%s is listed in the stable prompt and load_skill loads it', async (rootName) => {
  const extra = temp('skills-extra-');
  writeSkill(path.join(extra, rootName), 'extskill', { name: 'extskill', description: 'EXTSKILL-DESC' }, 'EXT BODY\n');
  const booted = await boot({ addDirs: [extra], steps: [useTools([call('load_skill', { name: 'extskill' })]), say('done')] });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const [first, second] = booted.model.requests;
  expect(first!.system.stable).toContain('- extskill: EXTSKILL-DESC');
  expect(toolResults(second!.messages)[0]!.isError ?? false).toBe(false);
  expect(second!.system.environment).toContain('EXT BODY');
  expect(second!.system.stable).toBe(first!.system.stable);
});

test("a directory of the user's settings (additional_directories) gives its skills too; without any, none", async () => {
  const extra = temp('skills-extra-');
  const home = temp('skills-home-');
  writeSkill(path.join(extra, '.claude', 'skills'), 'fromsettings', { name: 'fromsettings', description: 'FROM-SETTINGS' }, 'B\n');
  const bare = await boot({ home });
  expect(bare.runtime.store.current.get('fromsettings')).toBeUndefined();
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), `permissions:\n  additional_directories: [${JSON.stringify(extra)}]\n`);
  const booted = await boot({ home });
  expect(booted.runtime.store.current.get('fromsettings')?.file).toBe(path.join(extra, '.claude', 'skills', 'fromsettings', 'SKILL.md'));
});

test("an untrusted project's settings cannot add a directory of skills; a trusted one's can", async () => {
  const extra = temp('skills-extra-');
  writeSkill(path.join(extra, '.claude', 'skills'), 'viaproject', { name: 'viaproject', description: 'VIA-PROJECT' }, 'B\n');
  const project = temp('skills-project-');
  mkdirSync(path.join(project, '.mewcode'), { recursive: true });
  writeFileSync(path.join(project, '.mewcode', 'settings.yaml'), `permissions:\n  additional_directories: [${JSON.stringify(extra)}]\n`);
  const untrusted = await boot({ project, trusted: false });
  expect(untrusted.runtime.store.current.get('viaproject')).toBeUndefined();
  const trusted = await boot({ project, trusted: true });
  expect(trusted.runtime.store.current.get('viaproject')).toBeDefined();
});

test("the project's own skill of the same name wins over an additional directory's, with a warning naming both files", async () => {
  const extra = temp('skills-extra-');
  const project = temp('skills-project-');
  const theirs = writeSkill(path.join(extra, '.claude', 'skills'), 'review', { name: 'review', description: 'EXTRA-REVIEW' }, 'X\n');
  const ours = writeSkill(path.join(project, '.claude', 'skills'), 'review', { name: 'review', description: 'PROJECT-REVIEW' }, 'P\n');
  const booted = await boot({ project, addDirs: [extra] });
  expect(booted.runtime.store.current.get('review')?.file).toBe(path.join(ours, 'SKILL.md'));
  const problem = booted.runtime.store.current.problems.find((p) => p.file === path.join(theirs, 'SKILL.md'));
  expect(problem?.message).toContain(path.join(ours, 'SKILL.md'));
  expect(booted.reporter.warnings.join('\n')).toContain(path.join(theirs, 'SKILL.md'));
});

test('the first of two additional directories wins a shared name, the other named in a warning', async () => {
  const a = temp('skills-extra-a-');
  const b = temp('skills-extra-b-');
  const first = writeSkill(path.join(a, '.claude', 'skills'), 'dup', { name: 'dup', description: 'A' }, 'A\n');
  const second = writeSkill(path.join(b, '.claude', 'skills'), 'dup', { name: 'dup', description: 'B' }, 'B\n');
  const booted = await boot({ addDirs: [a, b] });
  expect(booted.runtime.store.current.get('dup')?.file).toBe(path.join(first, 'SKILL.md'));
  expect(booted.runtime.store.current.problems.find((p) => p.file === path.join(second, 'SKILL.md'))?.message).toContain(path.join(first, 'SKILL.md'));
});

describe("an additional directory's skill follows the project's trust rules", () => {
  test('one that carries scripts is skipped in an untrusted project, saying to trust it', async () => {
    const extra = temp('skills-extra-');
    const dir = writeSkill(path.join(extra, '.claude', 'skills'), 'scripted', { name: 'scripted', description: 'S' }, 'Run scripts/go.sh\n');
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'scripts', 'go.sh'), 'echo hi\n');
    const untrusted = await boot({ addDirs: [extra], trusted: false });
    expect(untrusted.runtime.store.current.get('scripted')).toBeUndefined();
    expect(untrusted.runtime.store.current.problems.find((p) => p.name === 'scripted')?.message).toContain('--trust-project');
    const trusted = await boot({ addDirs: [extra], trusted: true });
    expect(trusted.runtime.store.current.get('scripted')).toBeDefined();
  });

  test("while untrusted it never takes the name of the user's own skill; once trusted it does, as the project's would", async () => {
    const extra = temp('skills-extra-');
    const home = temp('skills-home-');
    const mine = writeSkill(path.join(home, '.mewcode', 'skills'), 'deploy', { name: 'deploy', description: 'MINE' }, 'M\n');
    writeSkill(path.join(extra, '.claude', 'skills'), 'deploy', { name: 'deploy', description: 'THEIRS' }, 'T\n');
    const booted = await boot({ home, addDirs: [extra], trusted: false });
    expect(booted.runtime.store.current.get('deploy')?.file).toBe(path.join(mine, 'SKILL.md'));
    const trusted = await boot({ home, addDirs: [extra], trusted: true });
    expect(trusted.runtime.store.current.get('deploy')?.file).toBe(path.join(extra, '.claude', 'skills', 'deploy', 'SKILL.md'));
  });

  test('its !`…` lines do not run, even in a trusted project (trust covers only the files of the project it checked)', async () => {
    const extra = temp('skills-extra-');
    const dir = writeSkill(path.join(extra, '.claude', 'skills'), 'status', { name: 'status', description: 'S' }, 'Changes:\n!`git status --short`\n');
    const booted = await boot({ addDirs: [extra], trusted: true, steps: [useTools([call('load_skill', { name: 'status' })]), say('done')] });
    await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
    const [result] = toolResults(booted.model.requests[1]!.messages);
    expect(result).toMatchObject({ isError: true });
    expect(result!.content).toContain(path.join(dir, 'SKILL.md'));
    expect(result!.content).toContain('additional directory');
    expect(booted.runtime.active.list(booted.kernel.session)).toEqual([]);
  });
});
