/**
 * The `agent` tool (G1): runs a sub-agent to completion in a child session and returns only
 * its final text and a short usage line; with `run_in_background` it returns a task id at once.
 * The catalogue of roles is in the description, fixed at boot so the tool JSON stays
 * byte-identical across turns (K3).
 */
import { claudeAgentType, type SubagentRole } from '../../types/subagents.js';
import type { Tool, ToolOutput } from '../../types/tools.js';
import { AGENT_TOOL_NAME, type SubagentService } from './runner.js';
import type { TaskManager } from './tasks.js';
import { usageLine } from './usage-line.js';

/** A sub-agent may run this long (its own tool calls have their own timeouts; runs stop at 25 iterations). */
export const SUBAGENT_TIMEOUT_MS = 30 * 60_000;

function describe(roles: readonly SubagentRole[]): string {
  const catalogue = roles.map((role) => `- ${role.name}: ${role.description}${role.readOnly ? ' (read-only)' : ''}`).join('\n');
  return [
    'Delegate a task to a sub-agent that works in its own conversation and returns only its final report. Use it for research across many files, reviews, or independent pieces of work, to keep your own context small.',
    'The sub-agent sees none of this conversation: put everything it needs in `prompt` (paths, what to look for, what to report). Several agent calls in one turn run in parallel.',
    'With run_in_background: true you get a task id at once and the result arrives later as a reminder; use task_list, task_output, task_message and task_stop to follow it.',
    `Available subagent_type values:\n${catalogue}`,
  ].join('\n\n');
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

export function agentTool(service: SubagentService, tasks: TaskManager): Tool {
  const roles = service.roles();
  return {
    name: AGENT_TOOL_NAME,
    description: describe(roles),
    inputSchema: {
      type: 'object',
      properties: {
        description: { type: 'string', description: 'A short (3–5 word) label for the task, shown to the user.' },
        prompt: { type: 'string', description: 'The complete task for the sub-agent, with all the context it needs.' },
        subagent_type: { type: 'string', enum: roles.map((role) => role.name), description: 'Which kind of sub-agent to start (default general).' },
        run_in_background: { type: 'boolean', description: 'Return a task id at once and let the sub-agent work in the background.' },
      },
      required: ['description', 'prompt'],
      additionalProperties: false,
    },
    // The tool itself changes nothing: every call the sub-agent makes goes through the permission
    // chain in the parent's mode. Read-only also lets several delegations of one turn run in parallel.
    readOnly: true,
    // The sub-agent type is what rules name: `Agent(Explore)`, `Task(writer)`, `agent(writer)`;
    // the role the given name starts (`Plan` starts `explore`), under its own name and Claude Code's
    // (`general-purpose`), so a rule on the type holds however the model spelled it.
    // Parameter rules (`Agent(model:opus)`) see the input.
    permissionTarget: (input) => {
      const given = text(input.subagent_type)?.trim() ?? 'general';
      const role = service.role(given)?.name ?? given;
      const aliases = [...new Set([given, claudeAgentType(role)])].filter((name) => name !== role);
      return { kind: 'named', name: role, ...(aliases.length > 0 ? { aliases } : {}) };
    },
    timeoutMs: () => SUBAGENT_TIMEOUT_MS,
    async execute(input, context): Promise<ToolOutput> {
      const prompt = text(input.prompt);
      if (!prompt) return { content: 'The agent tool needs a non-empty `prompt` with the whole task.', isError: true };
      const description = text(input.description) ?? prompt.slice(0, 40);
      const role = text(input.subagent_type) ?? 'general';
      const request = { parent: context.session, prompt, description, role };
      if (input.run_in_background === true) {
        const task = tasks.start({ ...request, description, deliver: context.lateOutput });
        if ('refusal' in task) return { content: task.refusal, isError: true };
        return { content: `Started background task ${task.id} (${task.role}: ${description}). Its result will arrive as a reminder when it finishes; task_output shows its progress.` };
      }
      const started = service.start({ ...request, signal: context.signal });
      if (started.refusal !== undefined) return { content: started.refusal, isError: true };
      const result = await started.result;
      return { content: `${result.text}\n\n${usageLine(role, result)}`, ...(result.isError ? { isError: true } : {}) };
    },
  };
}
