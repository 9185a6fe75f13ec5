/**
 * The three texts skills put in front of the model: the catalog (stable prompt, S3), a skill's
 * rendered body (S5) and the active-skills block (per-request environment, S4).
 */
import type { Skill } from './skill.js';
import { placeArguments } from '../../config/command-arguments.js';
import type { DenyList } from '../../sdk/tool-denials.js';

/**
 * The catalog's size in the stable prompt, at most (characters). Each entry is bounded (name 64,
 * description 1024) but their number is not — thousands of project skills would make every request
 * carry megabytes. Entries past the budget are left out of the listing (named by count); the user's
 * /name still runs them and load_skill still loads them by name.
 */
export const MAX_CATALOG_CHARS = 64 * 1024;

export function renderCatalog(skills: readonly Skill[], budget = MAX_CATALOG_CHARS): string {
  if (skills.length === 0) return '';
  const head = [
    '# Skills',
    'Skills are procedures for particular tasks. When a task matches a skill below, call the load_skill tool with its name ' +
      '(and the request as `arguments`) before starting, then follow the instructions it activates. The user can also type /<name>.',
    '',
  ].join('\n');
  let text = head;
  let listed = 0;
  for (const skill of skills) {
    const line = `\n- ${skill.name}: ${skill.description || '(no description)'}`;
    if (text.length + line.length > budget) break;
    text += line;
    listed++;
  }
  const left = skills.length - listed;
  return left > 0 ? `${text}\n(${left} more skill${left === 1 ? '' : 's'} not listed: the catalog is over ${budget} characters.)` : text;
}

export function toolsHint(tools: readonly string[]): string {
  return `This skill is designed to use only these tools: ${tools.join(', ')}. Prefer them over other tools when possible.\n\n---\n\n`;
}

/**
 * The body as the model reads it: the allowed-tools hint first, then the arguments placed as a
 * command file places them (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`, `arguments:` names, `\$1`); a
 * body with no placeholder (and no `!` line that used one: `alsoPlaced`) gets them under "## User Request".
 */
export function renderBody(skill: Pick<Skill, 'allowedTools'> & { argumentNames?: readonly string[] }, body: string, args: string, alsoPlaced = false): string {
  const text = skill.allowedTools.length > 0 ? toolsHint(skill.allowedTools) + body : body;
  const trimmed = args.trim();
  const placed = placeArguments(text, trimmed, skill.argumentNames ?? []);
  if (placed.placed || alsoPlaced || !trimmed) return placed.text;
  return `${placed.text}\n\n## User Request\n\n${trimmed}`;
}

export interface ActiveEntry {
  name: string;
  /** The arguments it was activated with (re-rendered after a compaction). */
  args: string;
  /** The skill's folder: files the body names are relative to it. */
  dir: string;
  body: string;
  /** Its `disallowed-tools`, denied to the session's agent (and its sub-agents) while it is active. */
  deny?: DenyList;
}

export function renderActive(entries: readonly ActiveEntry[]): string {
  if (entries.length === 0) return '';
  const parts = ['# Active Skills', 'These skills are active. Follow their instructions; for the tasks they cover they take precedence over general guidance.'];
  for (const entry of entries) parts.push(`## Skill: ${entry.name}\nBase directory (paths in the skill are relative to it): ${entry.dir}\n\n${entry.body}`);
  return parts.join('\n\n');
}
