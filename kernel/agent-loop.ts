/**
 * The ReAct loop (L1–L8): stream → record → run tools → append results → repeat, with every
 * exit path leaving an assistant message last in history (L5). Progress goes out as typed events.
 * The loop works on one session's state, handed in as `LoopDeps`; it holds no state of its own.
 */
import { streamModel } from './sealed-provider.js';
import type { AgentEvent, RunEndReason } from '../types/events.js';
import type { KernelHooks, RunContext, RunStop } from '../types/hooks.js';
import {
  addUsage,
  emptyUsage,
  messageText,
  type AssistantContentBlock,
  type AssistantMessage,
  type ToolCall,
  type ToolResult,
  type Usage,
  type PromptPart,
  type UserMessage,
} from '../types/messages.js';
import type { ApprovalOutcome, ApprovalRequest } from '../types/permissions.js';
import { ProviderError, type ModelRequest, type Provider, type Refusal } from '../types/provider.js';
import type { Conversation } from '../types/services.js';
import type { AgentSession } from '../types/session.js';
import { anchorFromUsage, type UsageAnchor } from './context-estimate.js';
import { ensureAssistantTail } from './conversation.js';
import { bounded } from './decision-bounds.js';
import { requiredFailure, requiredFailureReason } from './required-failures.js';
import type { PermissionChain } from './permission-chain.js';
import { buildReminder } from './reminders.js';
import { groupDigits } from '../types/plain-intl.js';
import { runToolCalls } from './tool-scheduler.js';
import { ModelRequestRefused, requestToSend } from './model-request.js';
import { errorMessage } from './plugin-error.js';
import { ABORT_GRACE_MS } from './tool-runner.js';
import type { ToolView } from './tool-view.js';
import { usedCallIds, withUniqueIds } from './unique-call-ids.js';

/** A sub-agent's turns per run unless its session says otherwise; a main session's limit comes from its run. */
export const SUBAGENT_MAX_TURNS = 25;
export const MAX_UNKNOWN_TOOL_ITERATIONS = 3;
/** Concurrency-safe calls of one turn run this many at once even on a small machine: they mostly wait (on disk, a process, a server), not compute. */
export const MIN_TOOL_CONCURRENCY = 4;
/** Sub-agents give up sooner on unknown tools (L1). */
export const SUBAGENT_MAX_UNKNOWN_TOOL_ITERATIONS = 2;
/** How many times `stop` taps may send a completed run back to work, per run: Claude Code's cap of consecutive Stop-hook continuations. */
export const MAX_STOP_CONTINUATIONS = 8;
export const COMPLETION_NOTE = '(Task completed.)';
export const ONLY_REASONING_NOTE = '(The model ended its turn with reasoning only and no answer.)';
const ONLY_REASONING_NOTICE = 'The model sent only reasoning and no answer text; ask again, or raise max_tokens if it ran out while thinking.';
export const CANCELLED_NOTE = '(Cancelled.)';
export const UNKNOWN_TOOLS_NOTE = '(Stopped: the model asked only for tools that do not exist, several times in a row.)';
export const maxIterationsNote = (max: number): string => `(Stopped after the maximum of ${max} turns (--max-turns, max_turns); send another message to continue.)`;
/** What history keeps of a run a hook stopped: who, not the reason (that is the user's). */
export const stoppedNote = (stop: RunStop): string => `(Stopped by ${stop.by}.)`;
export const TOO_LONG_ADVICE = "The conversation does not fit the model's context window even after compaction: start a new session (mewcode without --continue) or switch to a model with a larger context window.";

export interface LoopDeps {
  /** The prompt's parts as the front end received them (RunOptions.promptParts), kept with its message. */
  promptParts?: readonly PromptPart[];
  /**
   * The context of the userPromptSubmit judgement the prompt already had (a typed command's
   * line, judged before the command ran: prompt-judgement.ts): the prompt does not pass it again.
   */
  judged?: readonly string[];
  hooks: KernelHooks;
  tools: ToolView;
  chain: PermissionChain;
  conversation: Conversation;
  session: AgentSession;
  /** Read every iteration: a session may switch models mid-run. */
  provider: () => Provider;
  /** The stable prefix (K3): the same bytes every call until the tool list or the model changes. */
  stablePrompt: () => string;
  defaultToolTimeoutMs: number;
  maxIterations: number;
  maxUnknownToolIterations: number;
  /** How many concurrency-safe calls of one turn run at once. */
  maxToolConcurrency: number;
  takeReminders(): string[];
  addReminder(text: string): void;
  anchor: { current: UsageAnchor | undefined };
  emit(event: AgentEvent): void;
  approve(request: ApprovalRequest): Promise<ApprovalOutcome | undefined>;
  /** Run the kernel's compaction procedure; true when the history was rewritten. */
  compact(reason: 'auto' | 'emergency', signal: AbortSignal): Promise<boolean>;
  /** Resolves once plugins' background start-up is done or has used up its bound. */
  ready(): Promise<void>;
  /**
   * Called as each request goes to the provider: idle time for warming up what the turn needs
   * next. The returned function is called at the answer's first event.
   */
  awaitingModel(): () => void;
  /**
   * Take tools registered or removed since the last turn (an MCP server that connected late):
   * called before every model turn, so they join at a turn boundary and the stable prefix
   * changes only there (K3).
   */
  refreshTools(): void;
  /** Called when `stop` has fired, so a kernel fault after it does not fire it twice. */
  stopped(): void;
}

export interface RunEnd {
  reason: RunEndReason;
  finalText: string;
}

interface StreamOutcome {
  text: string;
  content: AssistantContentBlock[];
  calls: ToolCall[];
  usage: Usage | undefined;
  error: ProviderError | undefined;
  stopReason?: string;
  refusal?: Refusal;
}

export async function runAgentLoop(prompt: string, run: RunContext, signal: AbortSignal, deps: LoopDeps): Promise<RunEnd> {
  const { hooks, conversation, emit } = deps;
  let total = emptyUsage();
  // Only a measured usage anchors the context estimate: a server that reports none (no usage
  // event) or zeros leaves the estimate counting the messages, so compaction still happens.
  const anchorOn = (outcome: StreamOutcome, messageCount: number): void => {
    if (outcome.usage && anchorFromUsage(outcome.usage, messageCount).tokens > 0) deps.anchor.current = anchorFromUsage(outcome.usage, messageCount);
  };
  let iterations = 0;
  let continuations = 0;

  /** `stop` first (it may send a completed run back to work), then the one `done` event. */
  const finish = async (reason: RunEndReason, finalText: string): Promise<RunEnd | 'continue'> => {
    // `stop` fires on every end, a cancelled one too, but cancelling does not wait on it longer
    // than it waits on a tool winding down (its taps are bounded anyway).
    const decision = await bounded(hooks.stop.promise({ ...run, reason, finalText, continuations }), { signal, graceMs: ABORT_GRACE_MS }, () => undefined);
    deps.stopped();
    if (decision?.continue && reason === 'completed' && continuations < MAX_STOP_CONTINUATIONS && iterations < deps.maxIterations && !signal.aborted) {
      continuations++;
      emit({ type: 'notice', message: `Continuing: ${decision.by} asked the run to go on (${continuations}/${MAX_STOP_CONTINUATIONS}).` });
      await conversation.append({ role: 'user', content: [{ type: 'text', text: decision.reason }] });
      return 'continue';
    }
    // A required plugin that failed on its way out (its stop tap threw, its audit of the last
    // call failed) leaves nothing more to refuse: the run that would end 'completed' ends with an
    // error naming it instead (required-failures.ts), so the CLI does not exit 0.
    const failed = reason === 'completed' ? requiredFailure(hooks) : undefined;
    if (failed) {
      const note = `(The run stopped: ${requiredFailureReason(failed)})`;
      emit({ type: 'done', reason: 'error', finalText: note, usage: total, iterations });
      return { reason: 'error', finalText: note };
    }
    emit({ type: 'done', reason, finalText, usage: total, iterations });
    return { reason, finalText };
  };
  const exitWith = async (reason: RunEndReason, note: string): Promise<RunEnd> => {
    await ensureAssistantTail(conversation, note);
    return (await finish(reason, note)) as RunEnd; // only a completed run may continue
  };

  /**
   * A tool call's hook asked the run to end (RunStop): the user is told why, the model is not (the
   * history's note and a sub-agent's final text, which its parent's model reads, only say who).
   */
  const exitStopped = async (stop: RunStop): Promise<RunEnd> => {
    const told = `${stop.by} stopped the run: ${stop.reason}`;
    emit({ type: 'notice', message: told });
    const note = stoppedNote(stop);
    await ensureAssistantTail(conversation, note);
    return (await finish('stopped', run.parentAgentId ? note : told)) as RunEnd;
  };

  const submission = deps.judged ? { additionalContext: [...deps.judged] } : await bounded(hooks.userPromptSubmit.promise({ additionalContext: [] }, { ...run, prompt }), { signal }, () => undefined);
  // Cancelled while a tap judged the prompt: it never enters history.
  if (!submission) return (await finish('cancelled', CANCELLED_NOTE)) as RunEnd;
  if (submission.block) {
    // H6: a blocked prompt never enters history.
    const message = `Prompt blocked by ${submission.block.by}: ${submission.block.reason}`;
    emit({ type: 'notice', message });
    return (await finish('blocked', message)) as RunEnd;
  }
  await conversation.append(userMessage(prompt, submission.additionalContext, deps.promptParts));

  let unknownRun = 0;
  try {
    deps.provider().warm?.(); // a third-party provider's warm-up failure shows at its request instead
  } catch {
    // nothing to do here
  }
  await deps.ready();

  while (iterations < deps.maxIterations) {
    const iteration = ++iterations;
    if (signal.aborted) return exitWith('cancelled', CANCELLED_NOTE);
    deps.refreshTools();
    const provider = deps.provider();
    emit({ type: 'iteration', iteration });
    const tools = deps.tools.definitions({ readOnlyOnly: run.mode === 'plan' });
    const reminder = buildReminder(run.mode, iteration, deps.takeReminders());

    let outcome: StreamOutcome;
    try {
      await deps.compact('auto', signal);
      // Rebuilt for every request, so e.g. an activated skill shows on the next one (K3: after the breakpoint).
      const environmentParts = await hooks.buildEnvironment.promise([], { ...run, model: provider.model, providerId: provider.id, iteration });
      const request = (): ModelRequest => ({ system: { stable: deps.stablePrompt(), environment: environmentParts.join('\n\n') }, messages: conversation.messages, tools, ...(reminder ? { reminder } : {}) });
      outcome = await streamOnce(provider, request(), run, iteration, signal, deps);
      if (outcome.error?.kind === 'prompt_too_long' && !signal.aborted && (await deps.compact('emergency', signal))) {
        emit({ type: 'notice', message: 'The prompt was too long for the context window; compacted the history and retrying once.' });
        outcome = await streamOnce(provider, request(), run, iteration, signal, deps);
      }
    } catch (error) {
      // A summary cut short by Ctrl+C is the user's cancel, not a failure of context management.
      if (signal.aborted) return exitWith('cancelled', CANCELLED_NOTE);
      // A policy plugin refused (or failed on) this turn's request: said as that, not as compaction.
      if (error instanceof ModelRequestRefused) {
        emit({ type: 'error', message: error.message, kind: 'plugin' });
        return exitWith('error', `(The run stopped: ${error.message})`);
      }
      const message = `Context management failed: ${errorMessage(error)}`;
      emit({ type: 'error', message, kind: 'context' });
      return exitWith('error', `(The run stopped: ${message})`);
    }

    if (outcome.usage) {
      total = addUsage(total, outcome.usage);
      emit({ type: 'usage', usage: outcome.usage });
    }
    if (signal.aborted || outcome.error?.kind === 'cancelled') {
      if (outcome.text) await conversation.append(assistantMessage(outcome.content, []));
      return exitWith('cancelled', CANCELLED_NOTE);
    }
    if (outcome.error) {
      // Still too long after the emergency compaction (or none could run): say the way out, else every prompt fails alike.
      const message = outcome.error.kind === 'prompt_too_long' ? `${outcome.error.message.replace(/\.?\s*$/, '.')} ${TOO_LONG_ADVICE}` : outcome.error.message;
      emit({ type: 'error', message, kind: outcome.error.kind });
      const note = `(The request failed: ${message})`;
      // The part of the answer the user already read stays in history, marked as cut off, so a
      // continued session (and the model) knows what was said and that it was not finished.
      if (outcome.text.trim() !== '') await conversation.append(assistantMessage([...outcome.content, { type: 'text', text: `\n\n(Interrupted here: the request failed: ${message})` }], []));
      return exitWith('error', note);
    }

    if (outcome.refusal) {
      // Declined: tool calls of the refused turn never run, and the refused turn does not go back
      // as it was (Anthropic's guidance for streaming refusals): what arrived before the refusal is
      // replaced in history by the note, and the user is told what was left out.
      const note = refusalNote(outcome.refusal, provider.id);
      const dropped = outcome.text.trim();
      if (dropped !== '') {
        emit({ type: 'notice', message: `The ${groupDigits(dropped.length)} characters of answer that arrived before the ${outcome.refusal.by === 'content_filter' ? 'content filter stopped it' : 'refusal'} were shown but are not kept in the session's history, which records the refusal instead.` });
      }
      emit({ type: 'error', message: note, kind: 'refusal' });
      return exitWith('refusal', note);
    }

    if (outcome.calls.length === 0) {
      // L2: an empty final text becomes a short note so history never holds an empty assistant message.
      // An answer of reasoning alone (a thinking model that stopped before replying) says so: it
      // is not a completed task.
      const onlyReasoning = outcome.text.trim() === '' && outcome.content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
      if (onlyReasoning) emit({ type: 'notice', message: ONLY_REASONING_NOTICE });
      const note = onlyReasoning ? ONLY_REASONING_NOTE : COMPLETION_NOTE;
      const content = outcome.text.trim() === '' ? [...outcome.content.filter((b) => b.type !== 'text'), { type: 'text' as const, text: note }] : outcome.content;
      const final = assistantMessage(content, []);
      await conversation.append(final);
      anchorOn(outcome, conversation.messages.length);
      const end = await finish('completed', messageText(final));
      if (end === 'continue') continue;
      return end;
    }

    await conversation.append(assistantMessage(outcome.content, outcome.calls));
    anchorOn(outcome, conversation.messages.length);
    unknownRun = outcome.calls.every((c) => !deps.tools.get(c.name)) ? unknownRun + 1 : 0;

    // A call whose arguments the output limit cut off never runs; its result says why, so the
    // model splits the work instead of sending the same too-long call again.
    const cut = cutByOutputLimit(outcome);
    const ran = await runToolCalls(outcome.calls.filter((call) => !cut.has(call)), {
      hooks,
      tools: deps.tools,
      chain: deps.chain,
      run,
      session: deps.session,
      iteration,
      signal,
      defaultTimeoutMs: deps.defaultToolTimeoutMs,
      maxConcurrency: deps.maxToolConcurrency,
      emit,
      approve: deps.approve,
      addContext: deps.addReminder,
    });
    const completed = ran.completed;
    const queue = [...ran.results];
    const results = outcome.calls.map((call) => (cut.has(call) ? outputLimitResult(call) : queue.shift()!));
    await conversation.append({ role: 'tool', results });

    if (!completed) return exitWith('cancelled', CANCELLED_NOTE);
    if (ran.stopRun) return exitStopped(ran.stopRun);
    if (unknownRun >= deps.maxUnknownToolIterations) {
      emit({ type: 'notice', message: UNKNOWN_TOOLS_NOTE });
      return exitWith('unknown_tools', UNKNOWN_TOOLS_NOTE);
    }
  }
  const note = maxIterationsNote(deps.maxIterations);
  emit({ type: 'notice', message: note });
  return exitWith('max_iterations', note);
}

function refusalNote(refusal: Refusal, providerId: string): string {
  const category = refusal.category === undefined ? '' : ` (category: ${refusal.category})`;
  const explanation = refusal.explanation === undefined ? '' : `: ${refusal.explanation}`;
  if (refusal.by === 'content_filter') {
    return `The content filter of provider "${providerId}" stopped the answer (finish_reason "content_filter")${category}${explanation}`;
  }
  return `The model declined to continue${category}${explanation}`;
}

/** The calls of an answer stopped at its output limit whose argument JSON did not arrive whole. */
function cutByOutputLimit(outcome: StreamOutcome): Set<ToolCall> {
  if (!stoppedAtLimit(outcome.stopReason)) return new Set();
  return new Set(outcome.calls.filter((call) => !isJsonText(call.input)));
}

/**
 * Anthropic's `model_context_window_exceeded`: the answer ran into the context window rather than
 * max_tokens, and is cut off just the same.
 */
const CONTEXT_WINDOW_STOP = 'model_context_window_exceeded';

function stoppedAtLimit(stopReason: string | undefined): boolean {
  return stopReason === 'max_tokens' || stopReason === 'length' || stopReason === CONTEXT_WINDOW_STOP;
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function outputLimitResult(call: ToolCall): ToolResult {
  return {
    toolCallId: call.id,
    isError: true,
    content:
      `This ${call.name} call did not run: the response reached the model's output token limit (max_tokens) while its arguments were being written, so they arrived cut off. ` +
      'Sending the same call again would be cut off the same way: split the work into smaller calls (for example write a long file in several parts, or make several smaller edits).',
  };
}

/** The user's prompt, marked as the user's (a replay shows it, not the hooks' context after it). */
function userMessage(prompt: string, context: readonly string[], parts: readonly PromptPart[] | undefined): UserMessage {
  const extra = context.filter((text) => text.trim() !== '').map((text) => ({ type: 'text' as const, text }));
  return { role: 'user', content: [{ type: 'text', text: prompt }, ...extra], prompt: parts && parts.length > 0 ? parts.map((part) => ({ ...part })) : true };
}

function assistantMessage(content: AssistantContentBlock[], toolCalls: ToolCall[]): AssistantMessage {
  return { role: 'assistant', content: content.filter((b) => b.type !== 'text' || b.text !== ''), toolCalls };
}

async function streamOnce(
  provider: Provider,
  base: ModelRequest,
  run: RunContext,
  iteration: number,
  signal: AbortSignal,
  deps: LoopDeps,
): Promise<StreamOutcome> {
  const request = await requestToSend(deps.hooks, base, { ...run, iteration, provider });
  const outcome: StreamOutcome = { text: '', content: [], calls: [], usage: undefined, error: undefined };
  let sawDone = false;
  let answerBegan: (() => void) | undefined = deps.awaitingModel();
  try {
    await consume();
  } catch (error) {
    // A provider must not throw (P1), but if one does it is a provider error, not a context one.
    outcome.error = new ProviderError(signal.aborted ? 'cancelled' : 'unknown', `The provider failed: ${errorMessage(error)}`, { cause: error });
  }
  if (sawDone && !outcome.error && stoppedAtLimit(outcome.stopReason)) {
    const message =
      outcome.stopReason === CONTEXT_WINDOW_STOP
        ? 'The model stopped because the conversation filled its context window (model_context_window_exceeded); the answer or tool call may be cut off.'
        : 'The model stopped at its output token limit (max_tokens); the answer or tool call may be cut off.';
    deps.emit({ type: 'notice', message, outputLimit: true });
  }
  // A stream cut short keeps what was shown, so cancellation can record the partial answer.
  if (!sawDone && outcome.text) outcome.content = [{ type: 'text', text: outcome.text }];
  return outcome;

  async function consume(): Promise<void> {
    // The provider is a facade that refuses plugins; the kernel's route reaches the real one (sealed-provider.ts).
    for await (const event of streamModel(provider, request, signal)) {
      answerBegan?.();
      answerBegan = undefined;
      switch (event.type) {
        case 'text':
          outcome.text += event.text;
          deps.emit({ type: 'text', text: event.text });
          break;
        case 'thinking':
          deps.emit({ type: 'thinking', thinking: event.thinking });
          break;
        case 'tool_calls':
          // Ids are made unique here, before anything pairs by them (unique-call-ids.ts).
          outcome.calls = withUniqueIds(event.calls, usedCallIds(deps.session, deps.conversation.messages));
          break;
        case 'usage':
          outcome.usage = event.usage;
          break;
        case 'notice':
          deps.emit({ type: 'notice', message: event.message });
          break;
        case 'done':
          outcome.content = event.content.map((block) => (block.type === 'thinking' || block.type === 'redacted_thinking' ? { ...block, provider: provider.id } : block));
          outcome.stopReason = event.stopReason;
          if (event.refusal) outcome.refusal = event.refusal;
          sawDone = true;
          break;
        case 'error':
          outcome.error = event.error;
          break;
      }
    }
  }
}
