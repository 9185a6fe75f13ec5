/**
 * The ReAct loop (SPEC L1–L8): stream → record → run tools → append results → repeat, with every
 * exit path leaving an assistant message last in history (L5). Progress goes out as typed events.
 */
import type { AgentEvent, RunEndReason } from '../types/events.js';
import type { KernelHooks, RunContext } from '../types/hooks.js';
import {
  addUsage,
  emptyUsage,
  messageText,
  type AssistantContentBlock,
  type AssistantMessage,
  type ToolCall,
  type Usage,
} from '../types/messages.js';
import { ProviderError, type ModelRequest, type Provider } from '../types/provider.js';
import type { ToolRegistry } from '../types/services.js';
import type { ConversationImpl } from './conversation.js';
import { anchorFromUsage, type UsageAnchor } from './context-estimate.js';
import { manageContext } from './context-manager.js';
import { buildReminder } from './reminders.js';
import { runToolCalls } from './tool-scheduler.js';

export const MAX_ITERATIONS = 25;
export const MAX_UNKNOWN_TOOL_ITERATIONS = 3;
export const COMPLETION_NOTE = '(Task completed.)';
export const CANCELLED_NOTE = '(Cancelled.)';
export const UNKNOWN_TOOLS_NOTE = '(Stopped: the model asked only for tools that do not exist, several times in a row.)';
export const MAX_ITERATIONS_NOTE = `(Stopped after the maximum of ${MAX_ITERATIONS} iterations; send another message to continue.)`;

export interface LoopDeps {
  hooks: KernelHooks;
  registry: ToolRegistry;
  conversation: ConversationImpl;
  provider: Provider;
  stablePrompt: string;
  defaultToolTimeoutMs: number;
  maxUnknownToolIterations: number;
  takeReminders(): string[];
  anchor: { current: UsageAnchor | undefined };
  emit(event: AgentEvent): void;
}

interface StreamOutcome {
  text: string;
  content: AssistantContentBlock[];
  calls: ToolCall[];
  usage: Usage | undefined;
  error: ProviderError | undefined;
  stopReason?: string;
}

export async function runAgentLoop(prompt: string, run: RunContext, signal: AbortSignal, deps: LoopDeps): Promise<void> {
  const { hooks, conversation, emit } = deps;
  let total = emptyUsage();
  let iterations = 0;

  const finish = async (reason: RunEndReason, finalText: string): Promise<void> => {
    emit({ type: 'done', reason, finalText, usage: total, iterations });
    await hooks.stop.promise({ ...run, reason, finalText });
  };
  const exitWith = async (reason: RunEndReason, note: string): Promise<void> => {
    await conversation.ensureAssistantTail(note);
    await finish(reason, note);
  };

  const blocked = await hooks.userPromptSubmit.promise({ ...run, prompt });
  if (blocked?.block) {
    // H6: a blocked prompt never enters history.
    const message = `Prompt blocked by ${blocked.by}: ${blocked.reason}`;
    emit({ type: 'notice', message });
    await finish('blocked', message);
    return;
  }
  await conversation.append({ role: 'user', content: [{ type: 'text', text: prompt }] });

  const provider = deps.provider;
  const environmentParts = await hooks.buildEnvironment.promise([], { ...run, model: provider.model, providerId: provider.id });
  const environment = environmentParts.join('\n\n');
  const contextCtx = { ...run, provider };
  let unknownRun = 0;

  const contextDeps = { hooks, messages: () => conversation.messages, anchor: deps.anchor, context: contextCtx, emit };

  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
    if (signal.aborted) return exitWith('cancelled', CANCELLED_NOTE);
    iterations = iteration;
    emit({ type: 'iteration', iteration });
    const tools = deps.registry.definitions({ readOnlyOnly: run.mode === 'plan' });
    const reminder = buildReminder(run.mode, iteration, deps.takeReminders());

    let outcome: StreamOutcome;
    try {
      await manageContext('auto', contextDeps);
      outcome = await streamOnce(provider, { system: { stable: deps.stablePrompt, environment }, messages: conversation.messages, tools, reminder }, run, iteration, signal, deps);
      if (outcome.error?.kind === 'prompt_too_long' && !signal.aborted && (await manageContext('emergency', contextDeps))) {
        emit({ type: 'notice', message: 'The prompt was too long for the context window; compacted the history and retrying once.' });
        outcome = await streamOnce(provider, { system: { stable: deps.stablePrompt, environment }, messages: conversation.messages, tools, reminder }, run, iteration, signal, deps);
      }
    } catch (error) {
      const message = `Context management failed: ${(error as Error).message}`;
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
      emit({ type: 'error', message: outcome.error.message, kind: outcome.error.kind });
      return exitWith('error', `(The request failed: ${outcome.error.message})`);
    }

    if (outcome.calls.length === 0) {
      // L2: an empty final text becomes a short note so history never holds an empty assistant message.
      const content = outcome.text.trim() === '' ? [...outcome.content.filter((b) => b.type !== 'text'), { type: 'text' as const, text: COMPLETION_NOTE }] : outcome.content;
      const final = assistantMessage(content, []);
      await conversation.append(final);
      if (outcome.usage) deps.anchor.current = anchorFromUsage(outcome.usage, conversation.messages.length);
      return finish('completed', messageText(final));
    }

    await conversation.append(assistantMessage(outcome.content, outcome.calls));
    if (outcome.usage) deps.anchor.current = anchorFromUsage(outcome.usage, conversation.messages.length);
    unknownRun = outcome.calls.every((c) => !deps.registry.get(c.name)) ? unknownRun + 1 : 0;

    const { results, completed } = await runToolCalls(outcome.calls, {
      hooks,
      registry: deps.registry,
      run,
      iteration,
      signal,
      defaultTimeoutMs: deps.defaultToolTimeoutMs,
      emit,
    });
    await conversation.append({ role: 'tool', results });

    if (!completed) return exitWith('cancelled', CANCELLED_NOTE);
    if (unknownRun >= deps.maxUnknownToolIterations) {
      emit({ type: 'notice', message: UNKNOWN_TOOLS_NOTE });
      return exitWith('unknown_tools', UNKNOWN_TOOLS_NOTE);
    }
  }
  emit({ type: 'notice', message: MAX_ITERATIONS_NOTE });
  return exitWith('max_iterations', MAX_ITERATIONS_NOTE);
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
  const request = await deps.hooks.preModelRequest.promise(base, { ...run, iteration, provider });
  const outcome: StreamOutcome = { text: '', content: [], calls: [], usage: undefined, error: undefined };
  let sawDone = false;
  try {
    await consume();
  } catch (error) {
    // A provider must not throw (P1), but if one does it is a provider error, not a context one.
    outcome.error = new ProviderError(signal.aborted ? 'cancelled' : 'unknown', `The provider failed: ${(error as Error).message}`, { cause: error });
  }
  if (sawDone && !outcome.error && (outcome.stopReason === 'max_tokens' || outcome.stopReason === 'length')) {
    deps.emit({ type: 'notice', message: 'The model stopped at its output token limit (max_tokens); the answer or tool call may be cut off.' });
  }
  // A stream cut short keeps what was shown, so cancellation can record the partial answer.
  if (!sawDone && outcome.text) outcome.content = [{ type: 'text', text: outcome.text }];
  return outcome;

  async function consume(): Promise<void> {
    for await (const event of provider.stream(request, signal)) {
      switch (event.type) {
        case 'text':
          outcome.text += event.text;
          deps.emit({ type: 'text', text: event.text });
          break;
        case 'thinking':
          deps.emit({ type: 'thinking', thinking: event.thinking });
          break;
        case 'tool_calls':
          outcome.calls = event.calls;
          break;
        case 'usage':
          outcome.usage = event.usage;
          break;
        case 'notice':
          deps.emit({ type: 'notice', message: event.message });
          break;
        case 'done':
          outcome.content = event.content;
          outcome.stopReason = event.stopReason;
          sawDone = true;
          break;
        case 'error':
          outcome.error = event.error;
          break;
      }
    }
  }
}
