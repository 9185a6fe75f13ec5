/**
 * A SKILL.md's placeholders are filled in as a command file's are (the shared config/ modules):
 * `$ARGUMENTS[N]` and `$N` are 0-based words, `arguments:` names them, `${CLAUDE_SKILL_DIR}` is
 * the skill's folder, `${CLAUDE_SESSION_ID}` the session; its `!` lines run through the kernel's
 * gate (never asking), and a project's skill never runs them.
 */
import path from 'node:path';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

test('arguments, named arguments, the skill folder and the session id are filled in; \\$1 stays a literal $1', async () => {
  const project = temp('skills-project-');
  const dir = writeSkill(path.join(project, '.mewcode', 'skills'), 'pdf', { name: 'pdf', description: 'PDF.', arguments: '[input, output]' }, 'Dir ${CLAUDE_SKILL_DIR} session ${CLAUDE_SESSION_ID}\n$0|$1|$ARGUMENTS[1]|$2|$input->$output|\\$1|$ARGUMENTS\n');
  const booted = await bootSkills([say('ok')], { project });
  const result = await booted.kernel.commands().find((c) => c.name === 'pdf')!.run(booted.kernel.session, 'a.pdf "out file.txt"', { mode: 'default' });
  expect(result.isError).toBeUndefined();
  const [entry] = booted.runtime.active.list(booted.kernel.session);
  expect(entry!.body).toBe(`Dir ${dir} session ${booted.kernel.session.sessionId}\na.pdf|out file.txt|out file.txt|$2|a.pdf->out file.txt|$1|a.pdf "out file.txt"`);
});

test("a project skill's !`…` line is never run: the activation stops with a message naming the file", async () => {
  const project = temp('skills-project-');
  writeSkill(path.join(project, '.mewcode', 'skills'), 'explain', { name: 'explain', description: 'Explain.' }, 'Changes:\n!`git status --short`\n');
  const booted = await bootSkills([useTools([call('load_skill', { name: 'explain' })]), say('ok')], { project });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const results = booted.model.requests[1]!.messages.filter((m) => m.role === 'tool').flatMap((m) => (m as { results: { content: string; isError?: boolean }[] }).results);
  expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining("a project's skill never runs") });
  expect(results[0]!.content).toContain(path.join(project, '.mewcode', 'skills', 'explain', 'SKILL.md'));
  expect(booted.runtime.active.list(booted.kernel.session)).toEqual([]);
});
