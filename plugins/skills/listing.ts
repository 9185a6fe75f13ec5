/**
 * The catalog as `mewcode skills` and `/skills` print it: each skill (name, mode, source root,
 * description, its warnings), then every problem naming its file. Text from files is made
 * terminal-safe.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import type { SkillCatalog } from './catalog.js';

const printable = (text: string): string => terminalSafe(text);

export function describeCatalog(catalog: SkillCatalog, homeDir: string): string {
  const tilde = (file: string): string => (file.startsWith(`${homeDir}/`) ? `~${file.slice(homeDir.length)}` : file);
  const lines: string[] = [];
  for (const skill of catalog.skills) {
    lines.push(printable(`${skill.name}  ${skill.mode}${skill.mode === 'fork' ? ` (context ${skill.forkContext}${skill.agent ? `, agent ${skill.agent}` : ''}${skill.model ? `, model ${skill.model}` : ''})` : ''}  ${tilde(skill.root.dir)}`));
    lines.push(`    ${printable(skill.description || '(no description)')}`);
    for (const problem of catalog.problems) if (!problem.skipped && problem.file === skill.file) lines.push(`    warning: ${printable(problem.message)}`);
  }
  // Warnings of a skill that a later root replaced are shown with the skipped folders.
  const shadowed = catalog.problems.filter((p) => !p.skipped && !catalog.skills.some((s) => s.file === p.file));
  const skipped = catalog.problems.filter((p) => p.skipped);
  if (catalog.skills.length === 0) {
    lines.push(`No skills. Folders with a SKILL.md are read from: ${catalog.roots.map((r) => tilde(r.dir)).join(', ')}.`);
  }
  if (skipped.length + shadowed.length > 0) {
    lines.push('Problems:');
    for (const problem of [...skipped, ...shadowed]) lines.push(`  ${printable(tilde(problem.file))}: ${problem.skipped ? 'skipped: ' : ''}${printable(problem.message)}`);
  }
  return `${lines.join('\n')}\n`;
}
