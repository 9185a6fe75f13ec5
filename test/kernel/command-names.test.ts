/**
 * One command per name in the kernel's list (kernel/command-names.ts): whatever the kinds and the
 * order the providers list them in, while the project is not trusted a project's command never
 * keeps a name a user's or built-in one holds, and the warning names the project's file; trusted,
 * the first listed keeps the name, as before.
 */
import type { Command, CommandScope } from '../../types/commands.js';
import { resolveCommandNames, type ScopedCommand } from '../../kernel/command-names.js';

const command = (name: string, scope: CommandScope, source: string): ScopedCommand => ({
  command: { name, scope, source, description: source, run: async () => ({ output: source }) } satisfies Command,
  scope,
});

function resolve(entries: ScopedCommand[], trusted: boolean): { names: string[]; sources: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const list = resolveCommandNames(entries, trusted, (_command, message) => warnings.push(message));
  return { names: list.map((c) => c.name), sources: list.map((c) => c.source!), warnings };
}

test.each([
  ['the project first', [command('review', 'project', '/p/.claude/skills/review/SKILL.md'), command('review', 'user', '/h/.claude/commands/review.md')]],
  ['the user first', [command('review', 'user', '/h/.mewcode/skills/review/SKILL.md'), command('review', 'project', '/p/.claude/commands/review.md')]],
  ['a built-in first', [command('review', 'builtin', 'builtin'), command('review', 'project', '/p/.mcp-prompt')]],
])('untrusted, %s: the user\'s or built-in command keeps the name; the warning names the project\'s file', (_label, entries) => {
  const { names, sources, warnings } = resolve(entries, false);
  expect(names).toEqual(['review']);
  const project = entries.find((e) => e.scope === 'project')!.command.source!;
  expect(sources).not.toContain(project);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]!.startsWith(`${project}: /review`)).toBe(true);
  expect(warnings[0]).toContain('not trusted');
});

test('trusted: the first listed keeps the name and nothing is warned', () => {
  const { sources, warnings } = resolve([command('review', 'project', '/p/s'), command('review', 'user', '/h/c')], true);
  expect(sources).toEqual(['/p/s']);
  expect(warnings).toEqual([]);
});

test('a source holding a line break is shown on one line', () => {
  const { warnings } = resolve([command('review', 'project', '/p/x\nmewcode: forged\r.md'), command('review', 'user', '/h/c')], false);
  expect(warnings[0]).not.toMatch(/[\r\n]/);
});
