/**
 * Where skills are looked for (S2), lowest precedence first: `~/.mewcode/skills`, the
 * configured extra roots (default `~/.claude/skills`, `.claude/skills` and `.agents/skills`, so folders written for
 * Claude Code and other agents work unchanged), then `<root>/.mewcode/skills` — a later root's
 * skill replaces an earlier one of the same name, so a trusted project wins (catalog.ts: an
 * untrusted one never replaces the user's own).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { configScopeAt } from '../../config/scope.js';
import { isPathWithin } from '../../types/path-within.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { SkillRoot } from './skill.js';
import { DEFAULT_EXTRA_ROOTS, PROJECT_SKILLS_DIR, resolveRoot } from '../../config/skill-files.js';

// Shared with the trust scan (config/skill-files.ts), which lists the project's skills that run something.
export { DEFAULT_EXTRA_ROOTS };

/** The real path, or the path as given when it does not exist (yet). */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * `writtenByProject(i)`: whether a project's configuration file (not the user's) wrote the i-th
 * extra root (rootsWrittenByProject). Such a root is the repository's wherever it points: project
 * scope, so its scripts need trust, and its files must lie inside that root.
 */
export function skillRoots(homeDir: string, projectRoot: string, extraRoots: readonly string[] = DEFAULT_EXTRA_ROOTS, writtenByProject: (index: number) => boolean = () => false): SkillRoot[] {
  const userRoot = path.join(homeDir, '.mewcode', 'skills');
  const dirs = [
    { dir: userRoot, byProject: false },
    ...extraRoots.map((root, index) => ({ dir: resolveRoot(root, homeDir, projectRoot), byProject: writtenByProject(index) })),
    { dir: path.join(projectRoot, PROJECT_SKILLS_DIR), byProject: false },
  ];
  const roots: SkillRoot[] = [];
  for (const { dir, byProject } of dirs) {
    // A root named twice keeps its later (higher) place.
    const existing = roots.findIndex((root) => root.dir === dir);
    if (existing !== -1) roots.splice(existing, 1);
    // A project inside the home directory: `~/.mewcode/skills` is still the user's own.
    // By the path as written *and* by the real path: a root the project's configuration names as
    // `/proc/self/cwd/x` or through a link is still the repository's, so its scripts need trust.
    const inside = isPathWithin(projectRoot, dir) || isPathWithin(real(projectRoot), real(dir));
    if (dir === userRoot) roots.push({ dir, scope: 'user' });
    else if (inside) roots.push({ dir, scope: 'project', project: projectRoot });
    else if (byProject) roots.push({ dir, scope: 'project' }); // outside the project: confined to itself
    else roots.push({ dir, scope: 'user' });
  }
  return roots;
}

/** Which extra roots a project's configuration file wrote (`.mewcode.yaml`, `.mewcode/config.*`), for skillRoots. */
export function rootsWrittenByProject(config: ResolvedConfig | undefined): (index: number) => boolean {
  if (!config) return () => false;
  return (index) => {
    const layer = configScopeAt(config, ['skills', 'extra_roots', index]);
    return layer !== undefined && layer !== 'user';
  };
}

/** Where `install_skill` puts a skill of each scope. */
export function installRoot(scope: 'user' | 'project', homeDir: string, projectRoot: string): string {
  return scope === 'user' ? path.join(homeDir, '.mewcode', 'skills') : path.join(projectRoot, '.mewcode', 'skills');
}
