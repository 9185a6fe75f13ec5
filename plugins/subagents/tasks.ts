/**
 * Background tasks (SPEC G3): a sub-agent started with `run_in_background` runs beside its parent.
 * Its text streams to the subscribers as it comes; when it ends, its report is queued as a
 * reminder for the parent's next turn (and the user is told). Tasks can be listed, read, messaged
 * (the message reaches the sub-agent's next model request) and stopped; they all stop with the
 * session, each leaving a valid history (the kernel's cancellation path).
 */
import type { AgentSession } from '../../types/session.js';
import type { SubagentRequest, SubagentResult } from '../../types/subagents.js';
import { usageLine } from './agent-tool.js';
import type { SubagentService } from './runner.js';

export type TaskStatus = 'running' | 'completed' | 'failed' | 'stopped';

export interface BackgroundTask {
  id: string;
  role: string;
  description: string;
  status: TaskStatus;
  /** The text it has said so far; its report once it ended. */
  output: string;
  session: AgentSession;
  parent: AgentSession;
  startedAt: number;
  endedAt?: number;
  result?: SubagentResult;
  done: Promise<void>;
}

/** How much of a running task's text task_output shows (its end: the latest). */
export const TASK_OUTPUT_TAIL = 8_000;

export class TaskManager {
  private readonly tasks = new Map<string, BackgroundTask>();
  private readonly controllers = new Map<string, AbortController>();

  constructor(
    private readonly service: SubagentService,
    private readonly notify: (message: string, session: AgentSession) => void,
  ) {
    service.subscribe(({ taskId, event }) => {
      const task = taskId === undefined ? undefined : this.tasks.get(taskId);
      if (!task || task.status !== 'running') return;
      if (event.type === 'text') task.output += event.text;
      // Each turn's text on its own paragraph.
      if (event.type === 'iteration' && task.output !== '' && !task.output.endsWith('\n\n')) task.output += '\n\n';
    });
  }

  /** Start a task; a refusal (nesting, unknown role) starts nothing and says why. */
  start(request: SubagentRequest & { parent: AgentSession; description: string }): BackgroundTask | { refusal: string } {
    const controller = new AbortController();
    const started = this.service.start({ ...request, background: true, signal: controller.signal });
    if (started.refusal !== undefined || !started.session) return { refusal: started.refusal ?? 'The sub-agent did not start.' };
    const task: BackgroundTask = {
      id: started.agentId,
      role: started.role,
      description: request.description,
      status: 'running',
      output: '',
      session: started.session,
      parent: request.parent,
      startedAt: Date.now(),
      done: Promise.resolve(),
    };
    this.tasks.set(task.id, task);
    this.controllers.set(task.id, controller);
    task.done = started.result.then((result) => this.finish(task, result));
    return task;
  }

  list(): readonly BackgroundTask[] {
    return [...this.tasks.values()];
  }

  get(id: string): BackgroundTask | undefined {
    return this.tasks.get(id.trim());
  }

  /** Queue text for the task's next model request; false when it is not running. */
  message(id: string, text: string): boolean {
    const task = this.get(id);
    if (!task || task.status !== 'running') return false;
    task.session.injectReminder(`A message from the agent that started you: ${text}`);
    return true;
  }

  /** Stop a running task and wait until it has ended (its history is then valid). */
  async stop(id: string): Promise<BackgroundTask | undefined> {
    const task = this.get(id);
    if (!task) return undefined;
    if (task.status === 'running') {
      task.status = 'stopped';
      this.controllers.get(task.id)?.abort(new Error('stopped'));
    }
    await task.done;
    return task;
  }

  /** Stop every running task (the session ends) and wait for them; each one stopped is said. */
  async stopAll(): Promise<void> {
    const running = [...this.tasks.values()].filter((task) => task.status === 'running');
    await Promise.all(running.map((task) => this.stop(task.id)));
    for (const task of running) this.notify(`Background task ${task.id} (${task.description}) was stopped: the session ended.`, task.parent);
  }

  private finish(task: BackgroundTask, result: SubagentResult): void {
    this.controllers.delete(task.id);
    task.result = result;
    task.endedAt = Date.now();
    if (task.status === 'running') task.status = result.isError ? 'failed' : 'completed';
    if (task.status === 'stopped') return; // whoever stopped it knows (task_output keeps what it said); nothing to deliver
    task.output = result.text;
    const seconds = ((task.endedAt - task.startedAt) / 1000).toFixed(1);
    task.parent.injectReminder(
      `Background task ${task.id} (${task.role}: ${task.description}) ${task.status} after ${seconds} s. Its report:\n\n${result.text}\n\n${usageLine(task.role, result)}`,
    );
    this.notify(`Background task ${task.id} (${task.description}) ${task.status}.`, task.parent);
  }
}
