/**
 * Where skills are looked for (S2), lowest precedence first: `~/.mewcode/skills`, the
 * configured extra roots (default `~/.claude/skills`, `.claude/skills` and `.agents/skills`, so folders written for
 * Claude Code and other agents work unchanged), then `<root>/.mewcode/skills` — a later root's
 * skill replaces an earlier one of the same name, so the project wins.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { SkillRoot } from './skill.js';

export const DEFAULT_EXTRA_ROOTS: readonly string[] = ['~/.claude/skills', '.claude/skills', '.agents/skills'];

/** `~/x` is in the home directory; a relative root is inside the project. */
export function resolveRoot(root: string, homeDir: string, projectRoot: string): string {
  if (root === '~') return homeDir;
  if (root.startsWith('~/')) return path.join(homeDir, root.slice(2));
  return path.resolve(projectRoot, root);
}

/** Whether `child` is `parent` or below it (paths compared as given). */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path, or the path as given when it does not exist (yet). */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

export function skillRoots(homeDir: string, projectRoot: string, extraRoots: readonly string[] = DEFAULT_EXTRA_ROOTS): SkillRoot[] {
  const dirs = [path.join(homeDir, '.mewcode', 'skills'), ...extraRoots.map((root) => resolveRoot(root, homeDir, projectRoot)), path.join(projectRoot, '.mewcode', 'skills')];
  const roots: SkillRoot[] = [];
  for (const dir of dirs) {
    // A root named twice keeps its later (higher) place.
    const existing = roots.findIndex((root) => root.dir === dir);
    if (existing !== -1) roots.splice(existing, 1);
    // A project inside the home directory: `~/.mewcode/skills` is still the user's own.
    // By the path as written *and* by the real path: a root the project's configuration names as
    // `/proc/self/cwd/x` or through a link is still the repository's, so its scripts need trust.
    const scope = dir !== path.join(homeDir, '.mewcode', 'skills') && (isInside(dir, projectRoot) || isInside(real(dir), real(projectRoot))) ? 'project' : 'user';
    roots.push(scope === 'project' ? { dir, scope, project: projectRoot } : { dir, scope });
  }
  return roots;
}

/** Where `install_skill` puts a skill of each scope. */
export function installRoot(scope: 'user' | 'project', homeDir: string, projectRoot: string): string {
  return scope === 'user' ? path.join(homeDir, '.mewcode', 'skills') : path.join(projectRoot, '.mewcode', 'skills');
}
