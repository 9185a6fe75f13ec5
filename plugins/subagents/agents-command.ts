/** `/agents`: the sub-agent types with where each is defined, and the background tasks (TUI and `-p "/agents"`). */
import { oneLine } from '../../config/terminal-safe.js';
import type { Command } from '../../types/commands.js';
import type { SubagentRole } from '../../types/subagents.js';
import type { SubagentService } from './runner.js';
import { taskLine } from './task-tools.js';
import type { TaskManager } from './tasks.js';

function roleLine(role: SubagentRole): string {
  const facts = [
    role.source === 'builtin' ? 'built in' : role.source,
    role.readOnly ? 'read-only tools' : role.tools ? `tools: ${role.tools.join(', ')}` : 'all tools',
    ...(role.disallowedTools ? [`not: ${role.disallowedTools.join(', ')}`] : []),
    ...(role.model ? [`model: ${role.model}`] : []),
  ];
  // A definition file's name, path and description: each on its line (a line break would print a line of the file's choosing).
  return `  ${oneLine(role.name)} (${oneLine(facts.join('; '))})\n    ${oneLine(role.description)}`;
}

export function agentsCommand(service: SubagentService, tasks: () => TaskManager | undefined): Command {
  return {
    name: 'agents',
    description: 'List the sub-agent types (and where each is defined) and the background tasks',
    async run() {
      const running = tasks()?.list() ?? [];
      const lines = ['Sub-agent types:', ...service.roles().map(roleLine), '', running.length > 0 ? 'Background tasks:' : 'No background tasks.', ...running.map((task) => `  ${taskLine(task)}`)];
      return { output: lines.join('\n') };
    },
  };
}
