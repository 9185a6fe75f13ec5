/**
 * What the sandbox protects, as lists of paths. Shared by the bubblewrap and Seatbelt builders.
 */
import path from 'node:path';

/**
 * Read-only inside every writable root, because writing them runs code or widens permissions
 * on the host later (issue 8: `.git/config` fsmonitor/pager, hooks, MewCode's own settings that
 * start the next session in bypass, Claude Code's settings, MCP servers).
 * `.mewcode` is protected whole: its settings, config, hooks.yaml and audit log (with its anchor
 * `audit.head` and lock `audit.lock`) live there, and nothing a command needs to write does (the
 * tool-output spill files are written by MewCode itself, outside the sandbox). `.git` is handled
 * apart (mount-plan.ts, protectGitDir).
 */
export const PROTECTED_NAMES: readonly string[] = ['.mewcode', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json', '.claude', '.mcp.json'];

/**
 * Inside an existing git directory (the project's `.git` and each submodule's
 * `.git/modules/<name>`): read-only. The git directories themselves are pinned (see bwrap-args).
 * `config.worktree` is read when extensions.worktreeConfig is on (sparse-checkout turns it on).
 * The rules layer's list (permission-rules/protected-paths.ts) names the same files.
 */
export const GIT_PROTECTED: readonly string[] = ['config', 'hooks', 'config.worktree'];

/** Inside each linked worktree's directory `<gitdir>/worktrees/<id>`: its own config, and where its common dir (config, hooks) is. */
export const WORKTREE_PROTECTED: readonly string[] = ['config.worktree', 'commondir'];

/** Submodule git directories protected one by one; beyond, `.git/modules` is read-only whole. */
export const MAX_GIT_MODULES = 256;

/** Unreadable inside the sandbox: the researched list lives in credential-paths.ts. */
export { CREDENTIAL_PATHS as DEFAULT_DENY_READ, credentialPaths as defaultDenyRead } from './credential-paths.js';

/** True when `inner` is `outer` or below it (both absolute, normalised). */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
