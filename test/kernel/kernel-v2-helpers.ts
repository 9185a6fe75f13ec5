/**
 * Helpers shared by the Kernel v2 acceptance tests (sessions, hook facade, plugin lifecycle, hook
 * recorder): a history validity check, and scripted steps that answer by prompt, so sessions that
 * run concurrently can share one in-memory model without depending on who asks first.
 */
import type { Message } from '../../types/messages.js';
import type { ModelRequest, ProviderEvent } from '../../types/provider.js';
import type { Step } from '../support/memory-provider.js';

/**
 * The history rules every exit path must keep (L5, K4): it starts with a user prompt, every
 * assistant tool call is answered by the very next tool message (same ids, same order), a tool
 * message follows only an assistant turn that asked for tools, and it ends with an assistant
 * message that asks for nothing. Returns the problems found (empty when valid).
 */
export function historyProblems(messages: readonly Message[]): string[] {
  const problems = callProblems(messages);
  const last = messages.at(-1);
  if (last && (last.role !== 'assistant' || last.toolCalls.length > 0)) problems.push(`ends with ${last.role}${last.role === 'assistant' ? ' that asks for tools' : ''}`);
  return problems;
}

/**
 * What a request's messages must satisfy whatever the vendor: a user prompt first and last, and
 * every tool call answered by the very next message (a tool message followed by a prompt is fine:
 * providers merge them into one user turn).
 */
export function requestProblems(messages: readonly Message[]): string[] {
  const problems = callProblems(messages);
  const last = messages.at(-1);
  if (last?.role !== 'user') problems.push(`the request ends with ${last?.role ?? 'nothing'}, not the user prompt`);
  return problems;
}

function callProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  if (messages.length === 0) return problems;
  if (messages[0]!.role !== 'user') problems.push(`starts with ${messages[0]!.role}`);
  messages.forEach((message, index) => {
    const next = messages[index + 1];
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      if (next?.role !== 'tool') {
        problems.push(`assistant #${index} asked for ${message.toolCalls.map((c) => c.id).join(', ')} but no tool message follows`);
      } else {
        const asked = message.toolCalls.map((c) => c.id);
        const answered = next.results.map((r) => r.toolCallId);
        if (JSON.stringify(asked) !== JSON.stringify(answered)) problems.push(`tool message #${index + 1} answers ${answered.join(', ')} instead of ${asked.join(', ')}`);
      }
    }
    if (message.role === 'tool') {
      const previous = messages[index - 1];
      if (previous?.role !== 'assistant' || previous.toolCalls.length === 0) problems.push(`tool message #${index} answers no assistant tool call`);
    }
  });
  return problems;
}

/** The text of the last user message: the prompt this request answers. */
export function promptOf(request: ModelRequest): string {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user || user.role !== 'user') return '';
  return user.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** How many assistant turns this run already had (0 for the first request of a prompt). */
export function turnOf(request: ModelRequest): number {
  let index = request.messages.length - 1;
  while (index >= 0 && request.messages[index]!.role !== 'user') index--;
  return request.messages.slice(index + 1).filter((m) => m.role === 'assistant').length;
}

export type Route = (request: ModelRequest, signal: AbortSignal) => ProviderEvent[] | AsyncIterable<ProviderEvent> | Promise<ProviderEvent[]>;

/**
 * `count` identical steps that each answer through `route`, so whichever session asks first gets
 * the answer meant for its own prompt.
 */
export function routedSteps(count: number, route: Route): Step[] {
  const step: Step = async function* (request, signal) {
    const answer = await route(request, signal);
    if (Array.isArray(answer)) yield* answer;
    else yield* answer as AsyncIterable<ProviderEvent>;
  };
  return Array.from({ length: count }, () => step);
}

/** A promise and its resolver. */
export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A timer that does not keep the process alive (a barrier's give-up timer may outlive its test). */
export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());
