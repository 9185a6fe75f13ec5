/**
 * Layer 2's model call: the rendered conversation plus the nine-section prompt, sent (through
 * preModelRequest, like every request) to the provider the session's next request goes to, retried without the oldest turns while the
 * provider says it is too long (C7). Its usage does not move the session's anchor (C8).
 */
import type { Message } from '../../types/messages.js';
import type { ModelRequest, ProviderEvent } from '../../types/provider.js';
import { turnStarts, turnsToDrop } from './ptl-retry.js';
import { extractSummary, renderTranscript, summaryInstructions, SUMMARY_SYSTEM_PROMPT } from './summary-prompt.js';

export const TOO_LONG = Symbol('prompt too long');

/** Sends one summary request for these messages: the answer's text, or TOO_LONG. Throws on any other failure. */
export type AskModel = (messages: readonly Message[]) => Promise<string | typeof TOO_LONG>;

export interface Summary {
  text: string;
  /** How many of the oldest messages were left out of the request to make it fit. */
  leftOut: number;
}

/** Even the latest turn alone is too long for a summary request (the emergency path then moves texts out instead). */
export class SummaryTooLongError extends Error {
  constructor() {
    super('the summary request is too long for the context window even with only the latest turn');
  }
}

export async function summarise(messages: readonly Message[], ask: AskModel): Promise<Summary> {
  const starts = turnStarts(messages);
  let from = 0;
  for (let retry = 1; ; retry++) {
    const leftOut = starts[from] as number;
    const answer = await ask(messages.slice(leftOut));
    if (answer !== TOO_LONG) {
      const text = extractSummary(answer);
      if (text === '') throw new Error('the model answered the summary request with no text');
      return { text, leftOut };
    }
    const drop = turnsToDrop(retry, starts.length - from);
    if (drop === 0) throw new SummaryTooLongError();
    from += drop;
  }
}

/** How the summary request is sent: the kernel's sendModelRequest, so preModelRequest (DLP, model allowlists) sees it like every request. */
export type SendRequest = (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ProviderEvent>;

/** The AskModel of a real provider, reached through `send`. */
export function providerAsk(send: SendRequest, focus: string | undefined, signal: AbortSignal): AskModel {
  return async (messages) => {
    const request: ModelRequest = {
      system: { stable: SUMMARY_SYSTEM_PROMPT, environment: '' },
      messages: [{ role: 'user', content: [{ type: 'text', text: `${renderTranscript(messages)}\n\n${summaryInstructions(focus)}` }] }],
      tools: [],
    };
    let text = '';
    for await (const event of send(request, signal)) {
      if (event.type === 'text') text += event.text;
      else if (event.type === 'error') {
        if (event.error.kind === 'prompt_too_long') return TOO_LONG;
        throw new Error(`the summary request failed: ${event.error.message}`);
      }
    }
    if (signal.aborted) throw new Error('the summary request was cancelled');
    return text;
  };
}
