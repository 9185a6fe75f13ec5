/**
 * Skills in additional directories (`--add-dir`, `permissions.additional_directories` of the
 * user's settings or of a trusted project's): each directory's `.claude/skills`, `.agents/skills`
 * and `.mewcode/skills`, as Claude Code loads `.claude/skills` from its `--add-dir` folders.
 *
 * Naming the directory is the user's choice, but what is in it was not necessarily written by the
 * user (another checkout, a shared folder), so its skills are treated as a project's: project
 * scope (a skill that carries scripts loads only in a trusted project; untrusted, one never takes
 * the name of the user's own skill), their files confined to the directory. Workspace trust
 * hashes the project's own files only, so their `!` lines and hooks never run (refusalFor).
 */
import path from 'node:path';
import { DEFAULT_EXTRA_ROOTS, PROJECT_SKILLS_DIR } from '../../config/skill-files.js';
import type { Skill, SkillRoot } from './skill.js';

/** The skills folders looked for in each additional directory, lowest precedence first (as in the project). */
export const ADDITIONAL_SKILL_DIRS: readonly string[] = [...DEFAULT_EXTRA_ROOTS.filter((root) => root !== '~' && !root.startsWith('~/') && !path.isAbsolute(root)), PROJECT_SKILLS_DIR];

/**
 * `roots` with the additional directories' roots placed just below the project's own (the first
 * project-scope root inside the project): the project's skill wins a name, an additional
 * directory's wins over the user's once the project is trusted, as a project's does. The first
 * directory listed wins over a later one. A root already in `roots` keeps its place and scope.
 */
export function withAdditionalRoots(roots: readonly SkillRoot[], directories: readonly string[], projectRoot: string): SkillRoot[] {
  const taken = new Set(roots.map((root) => root.dir));
  const added: SkillRoot[] = [];
  for (const directory of [...directories].reverse()) {
    if (path.resolve(directory) === path.resolve(projectRoot)) continue;
    for (const name of ADDITIONAL_SKILL_DIRS) {
      const dir = path.join(directory, name);
      if (taken.has(dir)) continue;
      taken.add(dir);
      added.push({ dir, scope: 'project', project: directory, additional: directory });
    }
  }
  const at = roots.findIndex((root) => root.scope === 'project' && root.project !== undefined && root.additional === undefined);
  const index = at === -1 ? roots.length : at;
  return [...roots.slice(0, index), ...added, ...roots.slice(index)];
}

/** Why an additional directory's or a nested folder's skill does not run `what` (its `!` lines, its hooks); undefined for other skills. */
export function refusalFor(skill: Pick<Skill, 'root'>, what: string): string | undefined {
  const where =
    skill.root.additional !== undefined
      ? `in an additional directory (${skill.root.additional})`
      : skill.root.nested !== undefined
        ? `in a nested skills folder of the subfolder ${skill.root.nested}`
        : undefined;
  if (where === undefined) return undefined;
  return `${what} do not run: the skill is ${where}, and workspace trust covers only the skills folders of the project root; copy the skill into the project root's or your own skills folder to run them`;
}
