/**
 * One editor session: one MewCode kernel (opened by session-opener.ts) and the turn running in it.
 * A prompt runs through the kernel's main session and its events stream to the editor as
 * `session/update`s, in the order they happened; the prompt is answered only once every update of
 * the turn was written. A cancel aborts the run (the kernel leaves a valid history) and answers a
 * pending approval as a deny, and the prompt ends `cancelled`.
 */
import { RequestError, type AgentContext, type ContentBlock, type PromptResponse, type RequestPermissionResponse, type SessionUpdate, type StopReason, type ToolCallContent } from '@agentclientprotocol/sdk';
import { terminalWriter } from '../../config/terminal-safe.js';
import type { RunningKernel } from '../../types/cli.js';
import type { CommandResult } from '../../types/commands.js';
import type { AgentEvent, RunEndReason } from '../../types/events.js';
import type { NotificationPayload } from '../../types/hooks.js';
import { noticeLine } from '../../types/notice-line.js';
import type { PromptPart, ToolCall, ToolResult } from '../../types/messages.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode } from '../../types/permissions.js';
import type { KernelApi } from '../../types/plugin.js';
import type { PromptJudgement } from '../../types/session.js';
import type { EditSnapshots } from './edit-snapshots.js';
import { historyUpdates } from './history-replay.js';
import { bypassRefusal, isPermissionMode, modeState, offeredModes } from './modes.js';
import { ACP_UI_NAME, approvalOutcome, permissionOptions } from './permission-options.js';
import { CommandLines } from './command-lines.js';
import { FinalStatuses } from './final-statuses.js';
import { currentPlan, followPlan } from './plan.js';
import { promptParts, promptText } from './prompt-text.js';
import { availableCommands, slashPrompt, unknownCommandText } from './slash-commands.js';
import { absolutePath, announceToolCall, editDiff, toolResultUpdate } from './tool-calls.js';
import { approvalContent } from './approval-question.js';

const STOP_REASONS: Readonly<Record<RunEndReason, StopReason | 'error'>> = {
  completed: 'end_turn',
  cancelled: 'cancelled',
  max_iterations: 'max_turn_requests',
  refusal: 'refusal',
  // A UserPromptSubmit hook refused the prompt: the agent declines this turn.
  blocked: 'refusal',
  unknown_tools: 'end_turn',
  // A hook stopped the run (`continue: false`): the turn ended, not in error.
  stopped: 'end_turn',
  error: 'error',
};

/** How long a question waits for its turn's updates to be streamed (they are normally already queued). */
const APPROVAL_EVENT_WAIT_MS = 500;

/** How long a shutdown waits for a cancelled turn to end before the kernel closes anyway. */
const SHUTDOWN_TURN_WAIT_MS = 5_000;

export interface SessionPlace {
  /** Whether the editor shows `notice` updates (client capability `session.notices`). */
  notices: boolean;
  maxTurns?: number;
  stderr?: NodeJS.WritableStream;
}

export class AcpSession {
  mode: PermissionMode;
  private turn: AbortController | undefined;
  /**
   * How many session/cancels this session had. A cancel stops everything in progress, prompts
   * still waiting for a cancelled turn to end included: a prompt that arrived before the latest
   * cancel ends `cancelled` without reaching the model (it has no turn to abort yet).
   */
  private cancels = 0;
  /** Settles when the running turn has answered (a prompt sent after a cancel waits for it). */
  private turnEnded: Promise<void> = Promise.resolve();
  private readonly announced = new Set<string>();
  /** The editor terminals shown in a call (showTerminal): kept in its content once it ended. */
  private readonly terminals = new Map<string, ToolCallContent[]>();
  /** A running slash command's `!` lines, shown with their editor terminals. */
  private readonly commandLines = new CommandLines();
  private updates: Promise<void> = Promise.resolve();
  private lastCommands = '';
  /** Notices held until the editor knows the session (releaseNotices); then said as they come. */
  private heldNotices: NotificationPayload[] | undefined = [];
  /** Approval questions whose `approval_request` event the turn has streamed (see approve). */
  private readonly approvalEvents = new Map<string, () => void>();
  private readonly approvalEventsSeen = new Set<string>();
  /**
   * Sub-agents' calls shown to the editor for approval, not yet ended, each with the turn that
   * was running when it was asked (undefined: none, a background task's). They are not the turn's
   * own calls (`announced`): they end by their answer and their result, never by whichever turn
   * ends next (a background sub-agent's outlives the turn).
   */
  private readonly subAgentAsked = new Map<string, AbortController | undefined>();
  /** Sub-agents' calls allowed, not yet ended. */
  private readonly subAgentCalls = new Set<string>();
  /** No update follows a call's final status (final-statuses.ts). */
  private readonly finalStatuses = new FinalStatuses();
  /** The editor's approval questions, asked one after another (approve). */
  private questions: Promise<unknown> = Promise.resolve();
  private readonly complain: (text: string) => void;
  private readonly stopPlan: () => void;

  constructor(
    readonly sessionId: string,
    private readonly running: RunningKernel,
    private readonly client: AgentContext,
    private readonly snapshots: EditSnapshots,
    mode: PermissionMode,
    private readonly place: SessionPlace,
  ) {
    this.mode = mode;
    this.complain = terminalWriter(place.stderr ?? process.stderr);
    this.stopPlan = followPlan(running.kernel, (update) => this.send(update));
  }

  get kernel(): KernelApi {
    return this.running.kernel;
  }

  modes() {
    return modeState(this.kernel, this.mode);
  }

  /** Queued in order; a failed write (the editor went away) is said on stderr, once per update. */
  send(update: SessionUpdate): void {
    if (!this.finalStatuses.admit(update)) return;
    this.updates = this.updates.then(() => this.client.notify('session/update', { sessionId: this.sessionId, update })).catch((error: unknown) => {
      this.complain(`mewcode: acp: a session/update could not be sent: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }

  flush(): Promise<void> {
    return this.updates;
  }

  /** A notice or warning of this session's kernel: a `notice` update when the editor shows them, else stderr. */
  notify(payload: NotificationPayload): void {
    if (payload.kind !== 'notice' && payload.kind !== 'warning') return;
    if (this.heldNotices) {
      this.heldNotices.push(payload);
      return;
    }
    if (this.place.notices) this.send({ sessionUpdate: 'notice', severity: payload.kind === 'warning' ? 'warning' : 'info', title: payload.message });
    else this.complain(noticeLine(payload));
  }

  /**
   * The notices given while the session opened, once the editor knows the session (its
   * session/new or session/load was answered). A kernel opened only to be replaced never says them.
   */
  releaseNotices(): void {
    const held = this.heldNotices ?? [];
    this.heldNotices = undefined;
    for (const payload of held) this.notify(payload);
  }

  /** The slash commands, when they changed since last said (a skill installed or reloaded). */
  advertiseCommands(): void {
    const commands = availableCommands(this.kernel.commands());
    const key = JSON.stringify(commands);
    if (key === this.lastCommands) return;
    this.lastCommands = key;
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: commands });
  }

  /**
   * A bash call of this turn runs in an editor terminal (editor-io.ts): the editor shows it live in
   * the call. Only for calls the editor was told about (a sub-agent's are not).
   */
  showTerminal(toolCallId: string, terminalId: string, command?: string): void {
    if (!this.announced.has(toolCallId)) {
      // Not a model's call: a running slash command's `!` line, shown as a bash call is (command-lines.ts).
      const line = this.commandLines.show(toolCallId, terminalId, command);
      if (line) this.send(line);
      return;
    }
    const shown: ToolCallContent[] = [...(this.terminals.get(toolCallId) ?? []), { type: 'terminal', terminalId }];
    this.terminals.set(toolCallId, shown);
    this.send({ sessionUpdate: 'tool_call_update', toolCallId, content: shown });
  }

  /** A saved session's history, as updates, before `session/load` is answered. */
  async replayHistory(): Promise<void> {
    const updates = historyUpdates(this.kernel.session.conversation.messages, { projectRoot: this.kernel.projectRoot, homeDir: this.kernel.homeDir, tool: (name) => this.kernel.tools.get(name) });
    for (const update of updates) this.send(update);
    // The plan the session had when it was saved (its last to-do list), after the history that made it.
    const plan = currentPlan(this.kernel);
    if (plan) this.send(plan);
    await this.flush();
  }

  setMode(modeId: string): void {
    if (!isPermissionMode(modeId)) throw RequestError.invalidParams({ modeId }, `unknown mode "${modeId}"; the modes are ${offeredModes(this.kernel).join(', ')}`);
    if (modeId === 'bypassPermissions') {
      const refused = bypassRefusal(this.kernel);
      if (refused) throw RequestError.invalidParams({ modeId }, refused);
    }
    this.mode = modeId;
    this.send({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  }

  cancel(): void {
    this.cancels += 1;
    this.turn?.abort();
  }

  async prompt(blocks: readonly ContentBlock[], requestSignal?: AbortSignal): Promise<PromptResponse> {
    const parsed = promptText(blocks);
    if (!parsed.ok) throw RequestError.invalidParams({ sessionId: this.sessionId }, parsed.error);
    const cancelsBefore = this.cancels;
    // Editors send the next prompt right after session/cancel, without waiting for the cancelled
    // one's answer: it follows that turn, which is ending. Without a cancel a second prompt is refused.
    while (this.turn) {
      if (!this.turn.signal.aborted) throw RequestError.invalidRequest({ sessionId: this.sessionId }, 'a prompt is already running in this session: wait for its answer or send session/cancel');
      await this.turnEnded;
    }
    if (this.cancels !== cancelsBefore || requestSignal?.aborted) return { stopReason: 'cancelled' };
    const turn = new AbortController();
    this.turn = turn;
    const cancelRequest = (): void => turn.abort();
    if (requestSignal?.aborted) turn.abort();
    requestSignal?.addEventListener('abort', cancelRequest, { once: true });
    let ended: () => void = () => undefined;
    this.turnEnded = new Promise<void>((resolve) => (ended = resolve));
    try {
      let text = parsed.text;
      // A command's line judged by userPromptSubmit before it ran: its prompt does not pass it again.
      let judged: PromptJudgement | undefined;
      const commands = this.kernel.commands();
      const slash = slashPrompt(text, commands);
      if (slash.kind === 'unknown') return await this.answer(unknownCommandText(slash.name, commands), 'end_turn');
      if (slash.kind === 'command') {
        let result;
        try {
          // The turn's signal: session/cancel stops the command (a summary request, a `!` line) as it stops a turn.
          result = await this.commandRun(slash.command.name, () => slash.command.run(this.kernel.session, slash.args, { mode: this.mode, signal: turn.signal }), turn.signal);
        } catch (error) {
          if (turn.signal.aborted) return await this.answer('', 'cancelled');
          return await this.answer(`/${slash.command.name} failed: ${error instanceof Error ? error.message : String(error)}`, 'end_turn');
        }
        // Cancelled: whatever the command said, its output and its prompt are dropped.
        if (turn.signal.aborted) return await this.answer('', 'cancelled');
        // A userPromptSubmit tap refused the line before the command ran: declined, as a blocked prompt is.
        if (result.prompt === undefined) return await this.answer(result.output ?? '', result.blocked ? 'refusal' : 'end_turn');
        if (result.output) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${result.output}\n\n` } });
        text = result.prompt;
        judged = result.judged;
      }
      // Kept with the prompt's message as the blocks sent (a slash command as typed): the replay shows them.
      return await this.run(text, promptParts(blocks), turn.signal, judged);
    } finally {
      requestSignal?.removeEventListener('abort', cancelRequest);
      this.turn = undefined;
      ended();
      this.advertiseCommands();
    }
  }

  /** A slash command's run, its `!` lines' editor terminals shown while it runs and ended after. */
  private async commandRun(name: string, run: () => Promise<CommandResult>, signal: AbortSignal): Promise<CommandResult> {
    this.commandLines.begin(name);
    let failed = true;
    try {
      const result = await run();
      failed = result.isError === true || signal.aborted;
      return result;
    } finally {
      for (const update of this.commandLines.end(failed)) this.send(update);
    }
  }

  private async answer(text: string, stopReason: StopReason): Promise<PromptResponse> {
    if (text !== '') this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    await this.flush();
    return { stopReason };
  }

  private async run(prompt: string, parts: PromptPart[], signal: AbortSignal, judged?: PromptJudgement): Promise<PromptResponse> {
    let lastError: string | undefined;
    let reason: RunEndReason | undefined;
    // Whether the model's latest answer stopped at its output token limit: a turn that ends on
    // such an answer ends `max_tokens`, not `end_turn` (the answer is cut off).
    let cutOff = false;
    try {
      for await (const event of this.kernel.run({ prompt, promptParts: parts, mode: this.mode, signal, ...(judged ? { judged } : {}), ...(this.place.maxTurns !== undefined ? { maxTurns: this.place.maxTurns } : {}) })) {
        if (event.type === 'error') lastError = event.message;
        if (event.type === 'done') reason = event.reason;
        if (event.type === 'iteration') cutOff = false;
        if (event.type === 'notice' && event.outputLimit) cutOff = true;
        this.onEvent(event);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
      reason = 'cancelled';
    }
    // A call of this turn shown to the editor that never ended (asked about when the turn was
    // cancelled, or stopped with its turn) is not left pending or in progress: it failed, as
    // session/load's replay of the saved history shows it. A sub-agent's allowed call asked during
    // this turn is the turn's too when the turn was cancelled (its sub-agents stopped with it); a
    // turn that ended normally saw its sub-agents end, so any still open is a background task's.
    const ended = [...this.announced];
    if (signal.aborted) {
      for (const [toolCallId, turn] of this.subAgentAsked) {
        if (turn?.signal !== signal || !this.subAgentCalls.has(toolCallId)) continue;
        ended.push(toolCallId);
        this.subAgentAsked.delete(toolCallId);
        this.subAgentCalls.delete(toolCallId);
      }
    }
    for (const toolCallId of new Set(ended)) this.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    this.announced.clear();
    this.terminals.clear();
    await this.flush();
    const stop = signal.aborted ? 'cancelled' : reason === 'completed' && cutOff ? 'max_tokens' : STOP_REASONS[reason ?? 'error'];
    if (stop === 'error') throw RequestError.internalError({ sessionId: this.sessionId }, lastError ?? 'the run ended without a result');
    return { stopReason: stop };
  }

  private onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'text':
        if (event.text !== '') this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
        return;
      case 'thinking':
        if (event.thinking !== '') this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.thinking } });
        return;
      case 'tool_start':
        if (this.announced.has(event.call.id)) this.send({ sessionUpdate: 'tool_call_update', toolCallId: event.call.id, status: 'in_progress' });
        else this.announce(event.call, 'in_progress');
        return;
      case 'tool_end': {
        if (!this.announced.has(event.call.id)) this.announce(event.call, 'in_progress');
        const diff = editDiff(event.call, this.kernel.projectRoot, this.snapshots.takeOut(event.call.id), this.kernel.homeDir);
        this.send({ sessionUpdate: 'tool_call_update', ...toolResultUpdate(event.call, event.result, diff, this.terminals.get(event.call.id)) });
        this.announced.delete(event.call.id);
        this.terminals.delete(event.call.id);
        return;
      }
      case 'approval_request': {
        const waiting = this.approvalEvents.get(event.request.toolCallId);
        if (waiting) waiting();
        else this.approvalEventsSeen.add(event.request.toolCallId);
        return;
      }
      // A notice event also reaches the kernel's output route (this session's notify): said there, once.
      case 'error':
        this.complain(`mewcode: error: ${event.message}\n`);
        return;
      default:
        return;
    }
  }

  /** `ownCall`: one of the turn's own calls (a sub-agent's is tracked apart: subAgentAsked). */
  private announce(call: ToolCall, status: 'pending' | 'in_progress', content?: ToolCallContent[], ownCall = true): void {
    if (ownCall) this.announced.add(call.id);
    const announced = announceToolCall(call, status, { projectRoot: this.kernel.projectRoot, homeDir: this.kernel.homeDir, tool: this.kernel.tools.get(call.name) });
    this.send({ sessionUpdate: 'tool_call', ...announced, ...(content ? { content } : {}) });
  }

  /**
   * The approval layer's question, asked in the editor. The call is announced first (pending, with
   * the change it proposes), so the editor shows what it is asked about; a cancelled turn, an editor
   * that fails the request or answers with something not offered: a deny.
   */
  async approve(request: ApprovalRequest): Promise<ApprovalOutcome> {
    // One question at a time: two sub-agents of one turn (or a sub-agent beside the turn's own
    // call) may both need an answer; an editor shown two at once may answer the wrong one.
    const asked = this.questions.then(() => this.ask(request));
    this.questions = asked.catch(() => undefined);
    const outcome = await asked;
    // A sub-agent's call has no events in the turn: what the editor was shown is ended here (a
    // deny), or when the call has run (subAgentCallEnded), never left pending.
    if (isSubAgent(request)) {
      if (outcome.choice === 'deny') {
        this.subAgentAsked.delete(request.toolCallId);
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: request.toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: `Denied: ${outcome.reason ?? 'not approved'}` } }] });
      } else {
        this.subAgentCalls.add(request.toolCallId);
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: request.toolCallId, status: 'in_progress' });
      }
    }
    return outcome;
  }

  /** A sub-agent's call the editor was asked about has run: its result, as for the turn's own calls. */
  subAgentCallEnded(call: ToolCall, result: ToolResult): void {
    if (!this.subAgentCalls.delete(call.id)) return;
    this.subAgentAsked.delete(call.id);
    const diff = editDiff(call, this.kernel.projectRoot, this.snapshots.takeOut(call.id), this.kernel.homeDir);
    this.send({ sessionUpdate: 'tool_call_update', ...toolResultUpdate(call, result, diff) });
  }

  private async ask(request: ApprovalRequest): Promise<ApprovalOutcome> {
    await this.streamedUpTo(request);
    const call: ToolCall = { id: request.toolCallId, name: request.toolName, input: JSON.stringify(request.input) };
    const file = request.target.kind === 'path' && request.target.path !== '' ? absolutePath(request.target.path, this.kernel.projectRoot, this.kernel.homeDir) : undefined;
    const before = file && (call.name === 'write_file' || call.name === 'edit_file') ? await this.snapshots.readBefore(file) : undefined;
    const proposed = editDiff(call, this.kernel.projectRoot, before, this.kernel.homeDir);
    // What the terminal UI's dialog says (the whole command or target, the reason), then the change.
    const content: ToolCallContent[] = [approvalContent(request, { projectRoot: this.kernel.projectRoot, homeDir: this.kernel.homeDir }), ...(proposed ? [proposed] : [])];
    const turn = this.turn;
    if (isSubAgent(request)) {
      // The sub-agent's, not the turn's own: shown, and remembered with the turn it was asked in.
      if (!this.subAgentAsked.has(call.id)) this.announce(call, 'pending', content, false);
      this.subAgentAsked.set(call.id, turn);
    } else if (!this.announced.has(call.id)) this.announce(call, 'pending', content);
    const options = permissionOptions(request);
    if (turn?.signal.aborted) return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: 'the prompt turn was cancelled in the editor' };
    const toolCall = announceToolCall(call, 'pending', { projectRoot: this.kernel.projectRoot, homeDir: this.kernel.homeDir, tool: request.tool });
    await this.flush();
    let response: RequestPermissionResponse;
    try {
      response = await this.client.request(
        'session/request_permission',
        { sessionId: this.sessionId, toolCall: { ...toolCall, content }, options },
        turn ? { cancellationSignal: turn.signal, stopWaitingOnCancel: true } : {},
      );
    } catch (error) {
      if (turn?.signal.aborted) return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: 'the prompt turn was cancelled in the editor' };
      return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: `the editor did not answer the permission request (${error instanceof Error ? error.message : String(error)})` };
    }
    // The protocol's `cancelled` outcome says the prompt turn was cancelled: the turn ends so, as
    // after session/cancel (an editor may dismiss the question that way without sending one).
    // The answer as received: an editor may send `result: {}` or `null` (a deny, said as such).
    const outcome: unknown = (response as Partial<RequestPermissionResponse> | null | undefined)?.outcome;
    if ((outcome as { outcome?: unknown } | undefined)?.outcome === 'cancelled') turn?.abort();
    return approvalOutcome(outcome, options);
  }

  /**
   * The kernel asks right after it emitted `approval_request`; the turn's loop may not have sent
   * the updates before it yet (the text that led to the call). Waiting for that event keeps the
   * editor's view in order. A sub-agent's question has no event in the main turn: bounded wait.
   */
  private async streamedUpTo(request: ApprovalRequest): Promise<void> {
    const id = request.toolCallId;
    if (this.approvalEventsSeen.delete(id) || !this.turn || isSubAgent(request)) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.approvalEvents.set(id, resolve);
      timer = setTimeout(resolve, APPROVAL_EVENT_WAIT_MS);
    });
    clearTimeout(timer);
    this.approvalEvents.delete(id);
  }

  /**
   * The editor went away or stopped the agent: a running turn is cancelled and given a moment to
   * end as a cancel ends it (its answer so far saved), so the kernel never closes a half-written turn.
   */
  async shutdown(): Promise<void> {
    this.stopPlan();
    if (this.turn) {
      this.turn.abort();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.turnEnded, new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_TURN_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await this.running.shutdown();
  }
}

/** A sub-agent's question (its calls have no events in the session's turn). */
function isSubAgent(request: ApprovalRequest): boolean {
  return request.agentId !== undefined && request.agentId !== 'main';
}
