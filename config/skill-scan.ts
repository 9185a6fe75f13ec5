/**
 * The project's skills that run something, for the workspace trust scan: each SKILL.md with a
 * `` !`command` `` line, a ```` ```! ```` block or its own frontmatter `hooks:` in a skills root that is the project's — the
 * default roots inside it (`.claude/skills`, `.agents/skills`, `.mewcode/skills`), a configured
 * root inside it (whoever wrote it), and a root the project's configuration names anywhere — as a
 * whole file under the key `skills`, its exact text the value. Found and read as the skills plugin
 * finds and reads them (skill-files.ts, project-file.ts), so the text trust approves is the text
 * whose lines run. Listing a folder that the merged configuration ends up not using only asks
 * about one more file; missing one would refuse it (the plugin runs only what trust approved).
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { hasShellLines, runnableText, shellLineCommands } from './command-files.js';
import { readProjectTextFile } from './project-file.js';
import { DEFAULT_EXTRA_ROOTS, MAX_SKILL_FILE_BYTES, PROJECT_SKILLS_DIR, SKILL_FILE, listRoot, resolveRoot } from './skill-files.js';
import { summarizeSkillFile } from './trust-summary.js';
import { frontmatterHookCommands, hasFrontmatterHooks } from './frontmatter-hooks.js';
import { isPathWithin } from '../types/path-within.js';

/** The key a project's SKILL.md is listed, hashed and approved under. */
export const SKILLS_KEY = 'skills';

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `skills.extra_roots` of a configuration file's plain value (the strings only, trimmed, as the plugin's section reads them). */
export function extraRootsOf(config: unknown): string[] | undefined {
  const roots = isMap(config) && isMap(config.skills) ? config.skills.extra_roots : undefined;
  if (!Array.isArray(roots)) return undefined;
  return roots.filter((root): root is string => typeof root === 'string' && root.trim() !== '').map((root) => root.trim());
}

export interface SkillRootsSeen {
  /** The project root (resolved). */
  root: string;
  homeDir: string;
  /** Extra roots the project's configuration files name. */
  projectRoots: readonly string[];
  /** Extra roots the user's configuration names, when it does (else the defaults apply). */
  userRoots: readonly string[] | undefined;
}

async function real(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

/** Whether a folder is inside the project, by the path as written or by the real path (as the plugin's roots.ts judges it). */
async function insideProject(root: string, dir: string): Promise<boolean> {
  return isPathWithin(root, dir) || isPathWithin(await real(root), await real(dir));
}

/**
 * The project's skills roots, each with the folder its files must lie in: the project for a root
 * inside it; the root itself for one outside that the project's configuration named.
 */
async function projectSkillRoots(seen: SkillRootsSeen): Promise<{ dir: string; confinedTo: string }[]> {
  const { root, homeDir } = seen;
  const found = new Map<string, string>();
  const userDir = path.join(homeDir, '.mewcode', 'skills');
  const candidates = [...DEFAULT_EXTRA_ROOTS, ...(seen.userRoots ?? []), PROJECT_SKILLS_DIR].map((dir) => resolveRoot(dir, homeDir, root));
  for (const dir of candidates) if (dir !== userDir && !found.has(dir) && (await insideProject(root, dir))) found.set(dir, root);
  for (const dir of seen.projectRoots.map((entry) => resolveRoot(entry, homeDir, root))) {
    if (dir === userDir || found.has(dir)) continue;
    found.set(dir, (await insideProject(root, dir)) ? root : dir);
  }
  return [...found].map(([dir, confinedTo]) => ({ dir, confinedTo }));
}

/** The skill's name as its frontmatter gives it (`name:` on one line), else its folder's. */
function skillName(text: string, folder: string): string {
  const lines = runnableText(text).split('\n');
  if (lines[0]?.trim() !== '---') return folder;
  for (let i = 1; i < lines.length && lines[i]!.trim() !== '---'; i++) {
    const name = /^name\s*:\s*["']?([^"'#]*?)["']?\s*$/.exec(lines[i]!);
    if (name?.[1]) return name[1];
  }
  return folder;
}

/** A listed SKILL.md, as trust-scan.ts's ScannedSetting (not imported: that module imports this one). */
export interface ScannedSkill {
  file: string;
  display: string;
  key: typeof SKILLS_KEY;
  value: string;
  summary: string;
}

export async function skillsThatRunCode(seen: SkillRootsSeen, display: (file: string) => string): Promise<ScannedSkill[]> {
  const settings: ScannedSkill[] = [];
  for (const { dir, confinedTo } of await projectSkillRoots(seen)) {
    let names: string[];
    try {
      ({ names } = await listRoot(dir));
    } catch {
      continue; // no such root
    }
    for (const name of names) {
      // Folders and links to folders, as the catalog takes them.
      const info = await lstat(path.join(dir, name)).catch(() => undefined);
      if (!info || (!info.isDirectory() && !info.isSymbolicLink())) continue;
      const file = path.join(dir, name, SKILL_FILE);
      const read = readProjectTextFile(file, { maxBytes: MAX_SKILL_FILE_BYTES, root: confinedTo });
      if (!read.ok) continue;
      const hooks = hasFrontmatterHooks(read.text) ? frontmatterHookCommands(read.text) : undefined;
      if (!hasShellLines(read.text) && hooks === undefined) continue;
      settings.push({ file, display: display(file), key: SKILLS_KEY, value: read.text, summary: summarizeSkillFile(skillName(read.text, name), shellLineCommands(read.text), hooks) });
    }
  }
  return settings;
}
