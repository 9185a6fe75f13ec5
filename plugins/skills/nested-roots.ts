/**
 * Nested skills folders of a monorepo (`packages/api/.claude/skills`), found as Claude Code finds
 * them: when a file tool (read_file, edit_file, write_file) first touches a file below that
 * subfolder, not at start. The folders between the project root and the file are looked at once
 * each (git's own skipped); the skills folders found become roots of the catalog, just below the
 * project root's own (its skill of the same name wins, a warning naming both files), project
 * scope (the project's trust rules). Their skills are left out of the stable prompt's Skills
 * section — its prefix must stay byte-identical for the cache — and announced instead with the
 * result of the call that found them (renderNestedSkills), as nested CLAUDE.md files are.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { ADDITIONAL_SKILL_DIRS } from './additional-roots.js';
import type { Skill, SkillRoot } from './skill.js';

/** The file tools whose calls discover nested folders (a search's results bring none, as for nested CLAUDE.md). */
export const DISCOVERING_TOOLS: ReadonlySet<string> = new Set(['read_file', 'edit_file', 'write_file']);

/** At most this many nested roots are kept: a tree with thousands of skills folders costs a bounded catalog. */
const MAX_NESTED_ROOTS = 200;

/** The skills folders found so far under the project's subfolders, in the order found. */
export class NestedRoots {
  readonly #visited = new Set<string>();
  readonly #roots: SkillRoot[] = [];

  constructor(private readonly projectRoot: string) {}

  get roots(): readonly SkillRoot[] {
    return this.#roots;
  }

  /** The skills folders `file` (absolute) brings that were not found before. */
  discover(file: string): SkillRoot[] {
    const found: SkillRoot[] = [];
    for (const folder of foldersBetween(this.projectRoot, file)) {
      if (this.#visited.has(folder)) continue;
      this.#visited.add(folder);
      if (folder.split(path.sep).includes('.git')) continue;
      for (const name of ADDITIONAL_SKILL_DIRS) {
        const dir = path.join(folder, name);
        if (this.#roots.length >= MAX_NESTED_ROOTS || !isDirectory(dir)) continue;
        const root: SkillRoot = { dir, scope: 'project', project: this.projectRoot, nested: folder };
        this.#roots.push(root);
        found.push(root);
      }
    }
    return found;
  }
}

/** The folders strictly below the project root down to the file's own, outermost first. */
function foldersBetween(projectRoot: string, file: string): string[] {
  const folders: string[] = [];
  for (let dir = path.dirname(file); isPathStrictlyWithin(projectRoot, dir); dir = path.dirname(dir)) folders.unshift(dir);
  return folders;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `roots` with the nested roots placed just below the project's own (the first project-scope root
 * of the project that is neither an additional directory's nor nested): the project root's skill
 * wins a name; of two nested folders, the one found first keeps it.
 */
export function withNestedRoots(roots: readonly SkillRoot[], nested: readonly SkillRoot[]): SkillRoot[] {
  const taken = new Set(roots.map((root) => root.dir));
  const added = [...nested].reverse().filter((root) => !taken.has(root.dir));
  const at = roots.findIndex((root) => root.scope === 'project' && root.project !== undefined && root.additional === undefined && root.nested === undefined);
  const index = at === -1 ? roots.length : at;
  return [...roots.slice(0, index), ...added, ...roots.slice(index)];
}

/** The reminder that goes with the tool's result: the skills found, as the Skills section lists them. */
export function renderNestedSkills(skills: readonly Skill[], trigger: string): string {
  const folders = [...new Set(skills.map((skill) => skill.root.dir))];
  return [
    '<system-reminder>',
    `Skills of the folders above ${trigger} (${folders.join(', ')}), found as a file there was first touched. They are used like the skills of the Skills section: when a task matches one, call the load_skill tool with its name (and the request as \`arguments\`) before starting.`,
    '',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description || '(no description)'}`),
    '</system-reminder>',
  ].join('\n');
}
