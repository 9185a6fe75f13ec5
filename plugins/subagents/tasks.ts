/**
 * Background tasks (G3): a sub-agent started with `run_in_background` runs beside its parent.
 * Its text streams to the subscribers as it comes; when it ends, its report is queued as a
 * reminder for the parent's next turn (and the user is told). Tasks can be listed, read, messaged
 * (the message reaches the sub-agent's next model request) and stopped; they all stop with the
 * session, each leaving a valid history (the kernel's cancellation path).
 */
import type { AgentSession } from '../../types/session.js';
import type { SubagentRequest, SubagentResult } from '../../types/subagents.js';
import type { ToolOutput } from '../../types/tools.js';
import { usageLine } from './usage-line.js';
import type { SubagentService } from './runner.js';

export type TaskStatus = 'running' | 'completed' | 'failed' | 'stopped';

export interface BackgroundTask {
  id: string;
  role: string;
  description: string;
  status: TaskStatus;
  /** The end of the text it has said so far (at most TASK_OUTPUT_TAIL characters); of its report once it ended. */
  output: string;
  /** Whether `output` lost its beginning to the limit. */
  outputCut: boolean;
  /** Its session while it runs (to message it); let go when it ends, so its history can be freed. */
  session: AgentSession | undefined;
  parent: AgentSession;
  /** The starting call's postToolUse (ToolContext.lateOutput): the report passes it as that call's output. */
  deliver(output: ToolOutput): Promise<ToolOutput>;
  /** Messages (task_message) no model request of the task has carried yet. */
  unread: string[];
  startedAt: number;
  endedAt?: number;
  result?: SubagentResult;
  done: Promise<void>;
}

/** How much of a task's text is kept and shown (its end: the latest); a chatty task cannot grow memory or a tool result. */
export const TASK_OUTPUT_TAIL = 8_000;

/**
 * A finished task's report is cut here in the parent's reminder: C5's size for one tool result,
 * beyond which a foreground agent's result would be saved to a file (a reminder has no such path).
 */
export const TASK_REPORT_MAX = 50_000;

/** Background tasks running at once: one more is refused (a model cannot fan out without end). */
export const MAX_RUNNING_TASKS = 8;

/** Keep the end of `text` within the limit, noting when its beginning was dropped. */
function keepTail(task: BackgroundTask, text: string): void {
  if (text.length > TASK_OUTPUT_TAIL) task.outputCut = true;
  task.output = text.length > TASK_OUTPUT_TAIL ? text.slice(-TASK_OUTPUT_TAIL) : text;
}

/** What task_output and task_stop show of a task's text. */
export function shownOutput(task: BackgroundTask): string {
  return task.outputCut ? `…${task.output}` : task.output;
}

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
      if (event.type === 'text') keepTail(task, task.output + event.text);
      // Each turn's text on its own paragraph.
      if (event.type === 'iteration' && task.output !== '' && !task.output.endsWith('\n\n')) keepTail(task, `${task.output}\n\n`);
    });
  }

  /** Start a task; a refusal (nesting, unknown role) starts nothing and says why. */
  start(request: SubagentRequest & { parent: AgentSession; description: string; deliver(output: ToolOutput): Promise<ToolOutput> }): BackgroundTask | { refusal: string } {
    const running = [...this.tasks.values()].filter((task) => task.status === 'running').length;
    if (running >= MAX_RUNNING_TASKS) {
      return { refusal: `${MAX_RUNNING_TASKS} background tasks are already running (the limit). Wait for one to finish (its report arrives as a reminder), stop one with task_stop, or run this task in the foreground.` };
    }
    const controller = new AbortController();
    const { deliver, ...subagent } = request;
    const started = this.service.start({ ...subagent, background: true, signal: controller.signal });
    if (started.refusal !== undefined || !started.session) return { refusal: started.refusal ?? 'The sub-agent did not start.' };
    const task: BackgroundTask = {
      id: started.agentId,
      role: started.role,
      description: request.description,
      status: 'running',
      output: '',
      outputCut: false,
      session: started.session,
      parent: request.parent,
      deliver,
      unread: [],
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
    if (!task || task.status !== 'running' || !task.session) return false;
    task.unread.push(text);
    task.session.injectReminder(messageReminder(text));
    return true;
  }

  /** A model request of `agentId` went out: the messages its reminder carries are read. */
  noteRequest(agentId: string, reminder: string | undefined): void {
    const task = this.tasks.get(agentId);
    if (!task || task.unread.length === 0 || reminder === undefined) return;
    task.unread = task.unread.filter((text) => !reminder.includes(messageReminder(text)));
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
    for (const task of running) this.tell(`Background task ${task.id} (${task.description}) was stopped: the session ended.`, task.parent);
  }

  /** Tell the user; an interface that fails must not turn a task's end into an unhandled rejection. */
  private tell(message: string, session: AgentSession): void {
    try {
      this.notify(message, session);
    } catch {
      // The report is already queued for the parent; only the notice is lost.
    }
  }

  private async finish(task: BackgroundTask, result: SubagentResult): Promise<void> {
    this.controllers.delete(task.id);
    task.session = undefined;
    task.result = result;
    task.endedAt = Date.now();
    if (task.status === 'running') task.status = result.isError ? 'failed' : 'completed';
    if (task.status === 'stopped') return; // whoever stopped it knows (task_output keeps what it said); nothing to deliver
    const seconds = ((task.endedAt - task.startedAt) / 1000).toFixed(1);
    const report = result.text.length > TASK_REPORT_MAX ? `${result.text.slice(0, TASK_REPORT_MAX)}\n[report cut at ${TASK_REPORT_MAX} characters; task_output shows its end]` : result.text;
    // The report is the agent call's output, arriving late: it passes that call's postToolUse (an
    // organisation's redaction sees it as it sees a foreground agent's), and what task_output
    // shows of it from now on is what passed. A tap that fails withholds it (an error text).
    const passed = await task
      .deliver({ content: `${report}\n\n${usageLine(task.role, result)}`, ...(result.isError ? { isError: true } : {}) })
      .catch((error: unknown): ToolOutput => ({ content: `Output withheld: passing the report through postToolUse failed (${error instanceof Error ? error.message : String(error)}).`, isError: true }));
    task.outputCut = false;
    keepTail(task, passed.content);
    task.parent.injectReminder(`Background task ${task.id} (${task.role}: ${task.description}) ${task.status} after ${seconds} s. Its report:\n\n${passed.content}${unreadLine(task)}`);
    this.tell(`Background task ${task.id} (${task.description}) ${task.status}.`, task.parent);
  }
}

/** A message sent while the task made its last model request arrived after it stopped reading. */
function unreadLine(task: BackgroundTask): string {
  if (task.unread.length === 0) return '';
  const texts = task.unread.map((text) => `- ${text}`);
  return `\n\nIt ended before reading ${task.unread.length === 1 ? 'this message' : `these ${task.unread.length} messages`} from you (sent during its last step):\n${texts.join('\n')}`;
}

function messageReminder(text: string): string {
  return `A message from the agent that started you: ${text}`;
}
