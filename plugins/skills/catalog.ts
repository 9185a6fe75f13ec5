/**
 * The skill catalog: every root scanned, each folder with a SKILL.md validated (skill.ts), later
 * roots replacing earlier ones by name. A catalog is immutable: a reload builds a complete new one
 * and the store swaps it in one assignment (catalog-store.ts), so no reader ever sees half a scan
 * (the seed wrote bodies into shared objects without a lock).
 */
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseSkill, type Skill, type SkillRoot } from './skill.js';
import { listRoot, MAX_ROOT_ENTRIES, MAX_SKILL_FILE_BYTES, SKILL_FILE } from '../../config/skill-files.js';
import { findScripts } from './scripts.js';
import { readSkillFile } from './skill-file.js';
import { frontmatterReady } from './frontmatter.js';

// The roots' listing, the file name and its size limit are shared with the trust scan (config/skill-files.ts).
export { MAX_ROOT_ENTRIES };

/** A folder that was not loaded, or a loaded skill's warning: always naming the file. */
export interface SkillProblem {
  file: string;
  message: string;
  /** True when the folder was not loaded at all. */
  skipped: boolean;
  /** The skill's name, when it got that far. */
  name?: string;
}

export interface SkillCatalog {
  /** Sorted by name. */
  readonly skills: readonly Skill[];
  readonly roots: readonly SkillRoot[];
  /** Skipped folders and loaded skills' warnings, in scan order. */
  readonly problems: readonly SkillProblem[];
  /** A skill by name (case-insensitive). */
  get(name: string): Skill | undefined;
}

export interface CatalogOptions {
  /** Whether project-scope skills that carry scripts may load (workspace trust). */
  projectTrusted: boolean;
}

export function emptyCatalog(roots: readonly SkillRoot[] = []): SkillCatalog {
  return makeCatalog([], roots, []);
}

function makeCatalog(skills: Skill[], roots: readonly SkillRoot[], problems: SkillProblem[]): SkillCatalog {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(sorted.map((skill) => [skill.name, skill]));
  return Object.freeze({ skills: Object.freeze(sorted), roots: Object.freeze([...roots]), problems: Object.freeze(problems), get: (name: string) => byName.get(name.trim().toLowerCase()) });
}

type FolderOutcome = { skill: Skill; problems: SkillProblem[] } | { problems: SkillProblem[] } | undefined;

async function loadFolder(root: SkillRoot, dirName: string, options: CatalogOptions): Promise<FolderOutcome> {
  const dir = path.join(root.dir, dirName);
  const file = path.join(dir, SKILL_FILE);
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return { problems: [{ file, message: `${SKILL_FILE} is not a regular file`, skipped: true }] };
    size = info.size;
  } catch {
    return undefined; // not a skill folder (no SKILL.md): not a problem, folders hold other things
  }
  if (size > MAX_SKILL_FILE_BYTES) return { problems: [{ file, message: `${SKILL_FILE} is ${size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit`, skipped: true }] };
  const read = await readSkillFile(file, root);
  if (!read.ok) return { problems: [{ file, message: read.message, skipped: true }] };
  const text = read.text;
  await frontmatterReady();
  const parsed = parseSkill(text, { dir, file, dirName, root });
  if (!parsed.ok) return { problems: [{ file, message: parsed.reason, skipped: true }] };
  // A plugin's skill is `plugin:name`: its own name (frontmatter or folder) is the last part.
  const skill = root.plugin ? { ...parsed.skill, name: `${root.plugin.toLowerCase()}:${parsed.skill.name}` } : parsed.skill;
  if (root.scope === 'project' && !options.projectTrusted) {
    const scripts = await findScripts(dir, text);
    if (scripts.length > 0) {
      const shown = scripts.slice(0, 3).join(', ') + (scripts.length > 3 ? `, … (${scripts.length} in all)` : '');
      return { problems: [{ file, name: skill.name, skipped: true, message: `the project's skill "${skill.name}" carries scripts (${shown}); it loads once you trust the project (--trust-project)` }] };
    }
  }
  return { skill, problems: skill.warnings.map((message) => ({ file, name: skill.name, message, skipped: false })) };
}

async function scanRoot(root: SkillRoot, options: CatalogOptions): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
  let entries: string[];
  let truncated: boolean;
  try {
    const info = await stat(root.dir);
    if (!info.isDirectory()) return { skills: [], problems: [{ file: root.dir, message: 'a skills root must be a directory', skipped: true }] };
    ({ names: entries, truncated } = await listRoot(root.dir));
  } catch {
    return { skills: [], problems: [] }; // a root that does not exist is normal
  }
  const rootProblems: SkillProblem[] = truncated
    ? [{ file: root.dir, skipped: true, message: `more than ${MAX_ROOT_ENTRIES} entries; only the first ${MAX_ROOT_ENTRIES} read are looked at (the rest are not loaded)` }]
    : [];
  const outcomes = await Promise.all(
    entries.filter((name) => root.only === undefined || name === root.only).map(async (name) => {
      // Folders and links to folders (a `.claude/skills` entry is often a link to a shared checkout).
      const info = await lstat(path.join(root.dir, name)).catch(() => undefined);
      if (!info || (!info.isDirectory() && !info.isSymbolicLink())) return undefined;
      return loadFolder(root, name, options);
    }),
  );
  const skills: Skill[] = [];
  const problems: SkillProblem[] = rootProblems;
  const seen = new Map<string, Skill>();
  for (const outcome of outcomes) {
    if (!outcome) continue;
    if (!('skill' in outcome)) {
      problems.push(...outcome.problems);
      continue;
    }
    const first = seen.get(outcome.skill.name);
    if (first) {
      problems.push({ file: outcome.skill.file, name: outcome.skill.name, skipped: true, message: `the name "${outcome.skill.name}" is already used by ${first.file} in the same root` });
      continue;
    }
    seen.set(outcome.skill.name, outcome.skill);
    skills.push(outcome.skill);
    problems.push(...outcome.problems);
  }
  return { skills, problems };
}

/**
 * Scan every root (concurrently) and merge: a later root's skill replaces an earlier one's, except
 * that until the project is trusted a repository's skill never takes the name of the user's own
 * (`/review` stays the text the user wrote, not one a clone chose for it).
 */
export async function loadCatalog(roots: readonly SkillRoot[], options: CatalogOptions): Promise<SkillCatalog> {
  const scanned = await Promise.all(roots.map((root) => scanRoot(root, options)));
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const { skills, problems: found } of scanned) {
    for (const skill of skills) {
      const earlier = byName.get(skill.name);
      if (earlier?.root.scope === 'user' && skill.root.scope === 'project' && !options.projectTrusted) {
        problems.push({ file: skill.file, name: skill.name, skipped: true, message: `the user's own skill "${skill.name}" (${earlier.file}) wins while this project is not trusted; not used` });
        continue;
      }
      // An additional directory's or a nested folder's skill, or the one that takes its name: said, naming both files
      // (the user may not know the two folders share a name).
      const elsewhere = (one: Skill): boolean => one.root.additional !== undefined || one.root.nested !== undefined;
      if (earlier && (elsewhere(earlier) || elsewhere(skill))) {
        problems.push({ file: earlier.file, name: skill.name, skipped: true, message: `the skill "${skill.name}" of ${skill.file} has the same name and wins; not used` });
      }
      byName.set(skill.name, skill);
    }
    problems.push(...found);
  }
  return makeCatalog([...byName.values()], roots, problems);
}
