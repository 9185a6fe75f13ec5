/**
 * Where a project's skills (SKILL.md folders) are, as both the workspace trust scan and the skills
 * plugin find them, so trust is asked for exactly the files the plugin runs: the same roots, the
 * same listing of a root (visible entries, bounded, sorted), the same file name and size limit.
 * Kept in config/ because the scan runs before any plugin loads and must not import one.
 */
import { opendir } from 'node:fs/promises';
import path from 'node:path';

export const SKILL_FILE = 'SKILL.md';

/** A SKILL.md is read up to this size; a larger one is not loaded. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/**
 * `skills.extra_roots` when no configuration sets it: folders written for Claude Code and other
 * agents work unchanged. `~/x` is in the home directory; a relative root is inside the project.
 */
export const DEFAULT_EXTRA_ROOTS: readonly string[] = ['~/.claude/skills', '.claude/skills', '.agents/skills'];

/** The project's own skills folder (the highest precedence), relative to the project root. */
export const PROJECT_SKILLS_DIR = path.join('.mewcode', 'skills');

/** `~/x` is in the home directory; a relative root is inside the project. */
export function resolveRoot(root: string, homeDir: string, projectRoot: string): string {
  if (root === '~') return homeDir;
  if (root.startsWith('~/')) return path.join(homeDir, root.slice(2));
  return path.resolve(projectRoot, root);
}

/**
 * How many directory entries of one root are read at most (hidden ones included): a repository
 * with 100 000 folders under `.claude/skills` costs a bounded scan, not a hang at every start.
 */
export const MAX_ROOT_ENTRIES = 1000;

/** The root's visible entries, sorted — at most MAX_ROOT_ENTRIES read, the directory streamed (never listed whole). Throws when the root cannot be opened. */
export async function listRoot(dir: string): Promise<{ names: string[]; truncated: boolean }> {
  const names: string[] = [];
  let read = 0;
  let truncated = false;
  for await (const entry of await opendir(dir)) {
    if (++read > MAX_ROOT_ENTRIES) {
      truncated = true;
      break; // leaving the loop closes the directory
    }
    if (!entry.name.startsWith('.')) names.push(entry.name);
  }
  return { names: names.sort(), truncated };
}
