// Anthropic Messages API wire format (streaming events and JSON bodies) as documented.
import { parseToolInput, planTurn, randomToken, type TurnPlan } from './turn-plan.js';
import type { ScriptedTurn } from './types.js';
import { sseFrame, type ErrorResponse, type ResponseContext, type WireProtocol } from './wire-protocol.js';

const ERROR_TYPES: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'Invalid request (scripted server)'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

const STATUS_BY_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

function errorTypeFor(status: number): [string, string] {
  return ERROR_TYPES[status] ?? (status >= 500 ? ERROR_TYPES[500]! : ERROR_TYPES[400]!);
}

function errorEnvelope(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function startUsage(plan: TurnPlan) {
  return {
    input_tokens: plan.usage.input,
    cache_creation_input_tokens: plan.usage.cacheWrite,
    cache_read_input_tokens: plan.usage.cacheRead,
    output_tokens: Math.min(1, plan.usage.output),
  };
}

function messageId(): string {
  return `msg_01${randomToken(22)}`;
}

function streamFrames(turn: ScriptedTurn, ctx: ResponseContext): string[] {
  const plan = planTurn('anthropic', turn);
  const frames: string[] = [];
  frames.push(
    sseFrame('message_start', {
      type: 'message_start',
      message: {
        id: messageId(),
        type: 'message',
        role: 'assistant',
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: startUsage(plan),
      },
    }),
  );
  let index = 0;
  let pinged = false;
  const ping = () => {
    if (!pinged) frames.push(sseFrame('ping', { type: 'ping' }));
    pinged = true;
  };
  const block = (contentBlock: unknown, deltas: unknown[]) => {
    frames.push(sseFrame('content_block_start', { type: 'content_block_start', index, content_block: contentBlock }));
    ping();
    for (const delta of deltas) {
      frames.push(sseFrame('content_block_delta', { type: 'content_block_delta', index, delta }));
    }
    frames.push(sseFrame('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  };

  if (plan.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...plan.thinking.deltas.map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: plan.thinking.signature },
    ]);
  }
  if (plan.textDeltas) {
    block(
      { type: 'text', text: '' },
      plan.textDeltas.map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const call of plan.toolCalls) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      call.fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  ping();
  frames.push(
    sseFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: plan.stopReason, stop_sequence: null, ...(plan.refusal ? { stop_details: { type: 'refusal', ...plan.refusal } } : {}) },
      usage: { output_tokens: plan.usage.output },
    }),
  );
  frames.push(sseFrame('message_stop', { type: 'message_stop' }));
  return frames;
}

function jsonResponse(turn: ScriptedTurn, ctx: ResponseContext): unknown {
  const plan = planTurn('anthropic', turn);
  const content: unknown[] = [];
  if (plan.thinking) {
    content.push({ type: 'thinking', thinking: plan.thinking.deltas.join(''), signature: plan.thinking.signature });
  }
  if (plan.textDeltas) content.push({ type: 'text', text: plan.textDeltas.join('') });
  for (const call of plan.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseToolInput(call.json) });
  }
  return {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: plan.stopReason,
    stop_sequence: null,
    usage: { ...startUsage(plan), output_tokens: plan.usage.output },
  };
}

function streamErrorBody(error: NonNullable<ScriptedTurn['streamError']>) {
  return errorEnvelope(error.type ?? 'overloaded_error', error.message ?? 'Overloaded');
}

export const anthropicProtocol: WireProtocol = {
  name: 'anthropic',
  requestHeaders: () => ({ 'request-id': `req_011${randomToken(21)}` }),
  streamFrames,
  streamTrailer: () => [],
  streamErrorFrame: (error) => sseFrame('error', streamErrorBody(error)),
  jsonResponse,
  errorBody(status, message) {
    const [type, defaultMessage] = errorTypeFor(status);
    return errorEnvelope(type, message ?? defaultMessage);
  },
  promptTooLong: (): ErrorResponse => ({
    status: 400,
    body: errorEnvelope('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
  }),
  streamErrorAsHttp(error): ErrorResponse {
    const body = streamErrorBody(error);
    return { status: STATUS_BY_ERROR_TYPE[body.error.type] ?? 500, body };
  },
};
