/**
 * The tools that follow background tasks (G3): list, read output, message, stop. They act
 * only on this process's own sub-agents, so they are read-only (no approval, callable side by
 * side); sub-agents never get them (tool-filter.ts).
 */
import type { Tool, ToolOutput } from '../../types/tools.js';
import { shownOutput, TASK_OUTPUT_TAIL, type BackgroundTask, type TaskManager } from './tasks.js';

const idSchema = { task_id: { type: 'string', description: 'The task id the agent tool returned (agent-…).' } };

/** One task on one line: id, status, role, running time, label. */
export function taskLine(task: BackgroundTask): string {
  const seconds = (((task.endedAt ?? Date.now()) - task.startedAt) / 1000).toFixed(1);
  return `${task.id}  ${task.status}  ${task.role}  ${seconds} s  ${task.description}`;
}

function unknown(id: unknown, tasks: TaskManager): ToolOutput {
  const known = tasks.list().map((t) => t.id);
  return { content: `No background task "${String(id)}". ${known.length > 0 ? `Known tasks: ${known.join(', ')}.` : 'No task was started in this session.'}`, isError: true };
}

export function taskTools(tasks: TaskManager): Tool[] {
  return [
    {
      name: 'task_list',
      description: 'List the background tasks started with the agent tool: id, status (running, completed, failed, stopped), type, running time, label.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      readOnly: true,
      async execute() {
        const all = tasks.list();
        return { content: all.length > 0 ? all.map(taskLine).join('\n') : 'No background tasks.' };
      },
    },
    {
      name: 'task_output',
      description: `Show what a background task has said so far (the last ${TASK_OUTPUT_TAIL} characters), or its report once it ended.`,
      inputSchema: { type: 'object', properties: idSchema, required: ['task_id'], additionalProperties: false },
      readOnly: true,
      async execute(input) {
        const task = tasks.get(String(input.task_id ?? ''));
        if (!task) return unknown(input.task_id, tasks);
        return { content: `${taskLine(task)}\n\n${shownOutput(task) || '(no text yet)'}` };
      },
    },
    {
      name: 'task_message',
      description: 'Send a message to a running background task; it reads it before its next step.',
      inputSchema: { type: 'object', properties: { ...idSchema, message: { type: 'string' } }, required: ['task_id', 'message'], additionalProperties: false },
      readOnly: true,
      async execute(input) {
        const task = tasks.get(String(input.task_id ?? ''));
        if (!task) return unknown(input.task_id, tasks);
        if (typeof input.message !== 'string' || input.message.trim() === '') return { content: 'task_message needs a non-empty `message`.', isError: true };
        if (!tasks.message(task.id, input.message)) return { content: `Task ${task.id} is ${task.status}, so it cannot receive messages; read its report with task_output.`, isError: true };
        return { content: `Message queued for ${task.id}; it reads it before its next step.` };
      },
    },
    {
      name: 'task_stop',
      description: 'Stop a running background task. What it did so far stays done; its report is not delivered.',
      inputSchema: { type: 'object', properties: idSchema, required: ['task_id'], additionalProperties: false },
      readOnly: true,
      async execute(input) {
        const id = String(input.task_id ?? '');
        const before = tasks.get(id);
        if (!before) return unknown(input.task_id, tasks);
        if (before.status !== 'running') return { content: `Task ${before.id} already ${before.status}.` };
        const task = await tasks.stop(id);
        return { content: `Stopped task ${task!.id}.${task!.output ? `\n\nWhat it had said:\n${shownOutput(task!)}` : ''}` };
      },
    },
  ];
}
