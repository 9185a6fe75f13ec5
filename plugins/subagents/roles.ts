/** The built-in roles (G1) and how roles from files and built-ins combine. */
import type { SubagentRole } from '../../types/subagents.js';
import { compareNames } from '../../sdk/plain-intl.js';
import type { ComponentHookFile } from '../../types/component-hooks.js';

/** A role with its system prompt (the definition file's body, or the built-in's). */
export interface RoleDefinition extends SubagentRole {
  prompt: string;
  /** The definition file, when its frontmatter has `hooks:`: they run while a sub-agent of this type runs (runner.ts). */
  hooks?: ComponentHookFile;
}

const REPORT = 'When you are done, answer with a concise report of what you found or did: it is the only thing the agent that started you will see (it cannot see your tool calls or their output). Quote file paths and line numbers where they help.';

export const BUILTIN_ROLES: readonly RoleDefinition[] = [
  {
    name: 'general',
    description: 'General-purpose agent for multi-step tasks: research, code changes, running commands. Has the same tools as you.',
    source: 'builtin',
    prompt: `You are a sub-agent of MewCode, a coding agent, working on one task delegated to you. Work on it autonomously with the tools you have until it is done. ${REPORT}`,
  },
  {
    name: 'explore',
    description: 'Read-only agent for exploring a codebase: finds files, searches code, reads and summarises. Cannot change anything.',
    source: 'builtin',
    readOnly: true,
    prompt: `You are a read-only exploration sub-agent of MewCode, a coding agent. Find and read what the task needs with your search and read tools; you cannot change files or run commands that change anything. ${REPORT}`,
  },
];

/**
 * Later lists win by name (built-ins < user files < project files); sorted by name. A file may
 * replace a read-only role's prompt and tools, but not its read-only promise: a model that delegates
 * to `explore` relies on it changing nothing.
 */
export function mergeRoles(...lists: readonly (readonly RoleDefinition[])[]): RoleDefinition[] {
  const byName = new Map<string, RoleDefinition>();
  for (const list of lists) {
    for (const role of list) byName.set(role.name, byName.get(role.name)?.readOnly && !role.readOnly ? { ...role, readOnly: true } : role);
  }
  return [...byName.values()].sort((a, b) => compareNames(a.name, b.name));
}
