/**
 * A SKILL.md whose frontmatter strict YAML rejects (an unquoted `: `, an `<example>` block) is in
 * the catalog the model sees, as Claude Code loads it; one even the lenient reader cannot read is
 * skipped with a warning naming its file and line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collect } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { bootSkills } from './helpers.js';

afterEach(removeTempDirs);

function skill(root: string, folder: string, text: string): string {
  mkdirSync(path.join(root, folder), { recursive: true });
  writeFileSync(path.join(root, folder, 'SKILL.md'), text);
  return path.join(root, folder, 'SKILL.md');
}

test('the skill is offered with its whole description; the broken one is named by file and line', async () => {
  const booted = await bootSkills([say('ok')]);
  skill(booted.projectSkills, 'parser-fix', '---\nname: parser-fix\ndescription: Use this skill when: the parser breaks.\n<example>\nuser: "parse fails"\n</example>\nallowed-tools: Read, Grep\n---\nPARSER BODY\n');
  const broken = skill(booted.projectSkills, 'broken', '---\nJust some words here\nname: broken\n---\nBROKEN BODY\n');
  await booted.runtime.reload();
  await collect(booted.kernel.run({ prompt: 'go', mode: 'default' }));
  expect(booted.model.requests[0]!.system.stable).toContain('- parser-fix: Use this skill when: the parser breaks. <example> user: "parse fails" </example>');
  expect(booted.model.requests[0]!.system.stable).not.toContain('broken');
  expect(booted.reporter.warnings.join('\n')).toContain(`${broken}: skipped: line 2: invalid YAML in the frontmatter: "Just some words here" is not a "key: value" line`);
});
