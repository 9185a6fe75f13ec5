// OpenAI Chat Completions wire format (chat.completion.chunk stream and JSON bodies) as documented.
import { planTurn, randomToken, type TurnPlan } from './turn-plan.js';
import type { ScriptedTurn } from './types.js';
import { sseFrame, type ErrorResponse, type ResponseContext, type WireProtocol } from './wire-protocol.js';

const SYSTEM_FINGERPRINT = 'fp_5cr1pt3d00';

interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

function errorObjectFor(status: number, model: string): OpenAIErrorObject {
  switch (status) {
    case 400:
      return { message: 'Invalid request (scripted server)', type: 'invalid_request_error', param: null, code: null };
    case 401:
      return {
        message:
          'Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      };
    case 403:
      return { message: 'Project does not have access to this model.', type: 'invalid_request_error', param: null, code: 'model_not_found' };
    case 404:
      return {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      };
    case 429:
      return {
        message: `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      };
    case 503:
      return { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null };
    default:
      return status >= 500
        ? { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null }
        : { message: `Request failed with status ${status} (scripted server)`, type: 'invalid_request_error', param: null, code: null };
  }
}

function usageObject(plan: TurnPlan) {
  const prompt = plan.usage.input + plan.usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: plan.usage.output,
    total_tokens: prompt + plan.usage.output,
    prompt_tokens_details: { cached_tokens: plan.usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function completionId(): string {
  return `chatcmpl-${randomToken(29)}`;
}

function streamFrames(turn: ScriptedTurn, ctx: ResponseContext): string[] {
  const plan = planTurn('openai', turn);
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], usage: unknown = null) =>
    sseFrame(null, {
      id,
      object: 'chat.completion.chunk',
      created,
      model: ctx.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
      ...(ctx.includeUsage ? { usage } : {}),
    });
  const filter = turn.contentFilterResults ? { content_filter_results: turn.contentFilterResults } : {};
  const delta = (deltaBody: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: deltaBody, logprobs: null, finish_reason: finishReason, ...filter }]);

  const frames: string[] = [];
  const toolsOnly = plan.toolCalls.length > 0 && !plan.textDeltas && !plan.thinking;
  // Like the real API: a tool-only answer carries the role on the first tool-call chunk.
  if (!toolsOnly) frames.push(delta({ role: 'assistant', content: '', refusal: null }));
  for (const reasoning of plan.thinking?.deltas ?? []) frames.push(delta({ reasoning_content: reasoning }));
  for (const content of plan.textDeltas ?? []) frames.push(delta({ content }));
  if (plan.refusal?.explanation) frames.push(delta({ refusal: plan.refusal.explanation }));
  plan.toolCalls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    const role = toolsOnly && index === 0 ? { role: 'assistant', content: null, refusal: null } : {};
    frames.push(delta({ ...role, tool_calls: [head] }));
    for (const fragment of call.fragments) {
      frames.push(delta({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  frames.push(delta({}, plan.stopReason));
  if (ctx.includeUsage) frames.push(chunk([], usageObject(plan)));
  return frames;
}

function jsonResponse(turn: ScriptedTurn, ctx: ResponseContext): unknown {
  const plan = planTurn('openai', turn);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.textDeltas ? plan.textDeltas.join('') : null,
    refusal: null,
  };
  if (plan.thinking) message.reasoning_content = plan.thinking.deltas.join('');
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.json },
    }));
  }
  return {
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.stopReason }],
    usage: usageObject(plan),
  };
}

function streamErrorObject(error: NonNullable<ScriptedTurn['streamError']>): OpenAIErrorObject {
  const fallback = errorObjectFor(500, '');
  return { ...fallback, type: error.type ?? fallback.type, message: error.message ?? fallback.message };
}

export const openaiProtocol: WireProtocol = {
  name: 'openai',
  requestHeaders: () => ({ 'x-request-id': `req_${randomToken(32)}` }),
  streamFrames,
  streamTrailer: () => [sseFrame(null, '[DONE]')],
  streamErrorFrame: (error) => sseFrame(null, { error: streamErrorObject(error) }),
  jsonResponse,
  errorBody(status, message, ctx) {
    const error = errorObjectFor(status, ctx?.model ?? 'unknown');
    return { error: message === undefined ? error : { ...error, message } };
  },
  promptTooLong: (): ErrorResponse => ({
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  }),
  streamErrorAsHttp: (error): ErrorResponse => ({ status: 500, body: { error: streamErrorObject(error) } }),
};
