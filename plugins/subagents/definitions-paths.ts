/**
 * Where sub-agent definition files live, lowest precedence first: ~/.claude/agents,
 * ~/.mewcode/agents, <root>/.claude/agents, <root>/.mewcode/agents (a later one wins by name).
 * Kept apart from the parser so boot can look for files without loading YAML.
 */
import path from 'node:path';

export interface AgentDirectory {
  /** A folder of definition files, or (a Claude Code plugin's `agents` path) one `.md` file. */
  dir: string;
  project: boolean;
  /** A project directory's files must really lie inside this root (config/project-file.ts). */
  root?: string;
  /** A Claude Code plugin's agents: its name, the namespace of `plugin:agent`. */
  plugin?: string;
  /** That plugin's `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}`, expanded in the prompt. */
  variables?: Readonly<Record<string, string>>;
}

/** Lowest precedence first. */
export function agentDirectories(projectRoot: string, homeDir: string): AgentDirectory[] {
  const user = [path.join(homeDir, '.claude', 'agents'), path.join(homeDir, '.mewcode', 'agents')];
  const project = [path.join(projectRoot, '.claude', 'agents'), path.join(projectRoot, '.mewcode', 'agents')];
  // A project that is the home directory has no project files of its own.
  if (path.resolve(projectRoot) === path.resolve(homeDir)) return user.map((dir) => ({ dir, project: false }));
  return [...user.map((dir) => ({ dir, project: false })), ...project.map((dir) => ({ dir, project: true, root: projectRoot }))];
}

