/**
 * A skill's own `hooks:` run by the hooks plugin (TOKENS.ComponentHooks) while the skill is active,
 * in one kernel across turns: an inline skill's for the turn it was activated in (by load_skill or
 * `/name`), not the next one; `once: true` runs a handler once per session.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { trustedProject } from '../hooks/rule-setup.js';
import { bootSkills } from './helpers.js';

afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);

/** A home with the user's skills `guard` (its PreToolUse hook refuses load_skill) and `plain`. */
function home(extraHook = ''): string {
  const dir = temp('skill-hooks-home-');
  const skills = path.join(dir, '.mewcode', 'skills');
  mkdirSync(path.join(skills, 'guard'), { recursive: true });
  mkdirSync(path.join(skills, 'plain'), { recursive: true });
  writeFileSync(
    path.join(skills, 'guard', 'SKILL.md'),
    `---\nname: guard\ndescription: Guard.\nhooks:\n  PreToolUse:\n    - matcher: "load_skill|Skill"\n      hooks:\n        - type: command\n          command: "echo guarded-by-skill >&2; exit 2"\n${extraHook}---\nGuard.\n`,
  );
  writeFileSync(path.join(skills, 'plain', 'SKILL.md'), '---\nname: plain\ndescription: Plain.\n---\nPlain.\n');
  return dir;
}

async function boot(steps: Parameters<typeof bootSkills>[0], homeDir: string) {
  const project = temp('skill-hooks-project-');
  const { trust } = await trustedProject(project, homeDir);
  return bootSkills(steps, { project, home: homeDir, trust, plugins: [createHooksPlugin({ env: { PATH: process.env.PATH } })] });
}

test("load_skill: the skill's hooks hold for the rest of its turn and end with it", async () => {
  const booted = await boot(
    [useTools([call('load_skill', { name: 'guard' })]), useTools([call('load_skill', { name: 'plain' })]), say('done'), useTools([call('load_skill', { name: 'plain' })]), say('done')],
    home(),
  );
  await collect(booted.kernel.run({ prompt: 'guard it', mode: 'bypassPermissions' }));
  const first = toolResults(booted.model.requests[2]!.messages);
  expect(first[0]!.isError ?? false).toBe(false);
  expect(first[1]).toMatchObject({ isError: true, content: expect.stringContaining('guarded-by-skill') });
  await collect(booted.kernel.run({ prompt: 'next turn', mode: 'bypassPermissions' }));
  const later = toolResults(booted.model.requests[4]!.messages).at(-1)!;
  expect(later.isError ?? false).toBe(false);
  expect(later.content).toContain('The skill "plain" is active');
});

test("/name: the skill's hooks hold for the turn its prompt starts, not the next", async () => {
  const booted = await boot([useTools([call('load_skill', { name: 'plain' })]), say('done'), useTools([call('load_skill', { name: 'plain' })]), say('done')], home());
  const command = booted.kernel.commands().find((c) => c.name === 'guard')!;
  const result = await command.run(booted.kernel.session, '', { mode: 'bypassPermissions' });
  await collect(booted.kernel.run({ prompt: result.prompt!, mode: 'bypassPermissions' }));
  expect(toolResults(booted.model.requests[1]!.messages).at(-1)).toMatchObject({ isError: true, content: expect.stringContaining('guarded-by-skill') });
  await collect(booted.kernel.run({ prompt: 'next turn', mode: 'bypassPermissions' }));
  expect(toolResults(booted.model.requests[3]!.messages).at(-1)!.isError ?? false).toBe(false);
});

test('once: true runs a handler once per session, though the skill is activated again', async () => {
  const dir = home('  UserPromptSubmit:\n    - hooks:\n        - type: command\n          once: true\n          command: \'echo ran >> "$CLAUDE_PROJECT_DIR/once.log"\'\n');
  const booted = await boot([say('one'), say('two')], dir);
  const command = booted.kernel.commands().find((c) => c.name === 'guard')!;
  for (const word of ['one', 'two']) {
    const result = await command.run(booted.kernel.session, word, { mode: 'default' });
    await collect(booted.kernel.run({ prompt: result.prompt!, mode: 'default' }));
  }
  const log = path.join(booted.project, 'once.log');
  expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('ran\n');
  expect(booted.reporter.warnings.join('\n')).not.toContain('unknown key "once"');
});
