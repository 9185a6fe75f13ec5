/**
 * Anthropic SDK errors → typed ProviderErrors (P6), from the HTTP status and the documented
 * error body `{"type":"error","error":{"type":…,"message":…}}`
 * (https://docs.anthropic.com/en/api/errors). Never a substring guess on an arbitrary error.
 */
import { ProviderError } from '../../types/index.js';
import { cancelledError, classifyHttpError, connectionFailure, isContextOverflowText, transportFailure } from '../../sdk/provider-retry.js';
import { NON_JSON_BODY_FIELD, NotAnEventStreamError } from '../../sdk/http/vendor-responses.js';
import type { AnthropicSdk } from './sdk.js';

export const ANTHROPIC_LABEL = 'Anthropic API';

/**
 * The HTTP status Anthropic documents for each error type. A mid-stream `error` event has no
 * status of its own (the response was 200), so its body type stands in for one.
 */
const STATUS_OF_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** Documented: "prompt is too long: 208310 tokens > 200000 maximum" (400 invalid_request_error). */
const PROMPT_TOO_LONG_PREFIX = 'prompt is too long';
/** Documented too: "input length and `max_tokens` exceed context limit: 197202 + 8192 > 200000". */
const CONTEXT_LIMIT_PREFIX = 'input length and `max_tokens` exceed context limit';

export interface AnthropicErrorContext {
  model: string;
  contextWindow: number;
  /** The provider entry's name and the base URL its client talks to, for the hint of a 404. */
  providerName: string;
  baseUrl: string | undefined;
}

export function classifyAnthropicError(
  error: unknown,
  sdk: AnthropicSdk | undefined,
  context: AnthropicErrorContext,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!sdk) {
    return new ProviderError('unknown', `Could not load @anthropic-ai/sdk: ${describe(error)}`, { cause: error });
  }
  if (error instanceof sdk.APIUserAbortError) return cancelledError(ANTHROPIC_LABEL, error);
  if (error instanceof sdk.APIConnectionError) {
    // a 200 that is no event stream: said as what the server sent, and not retried (sdk/http/vendor-responses.ts)
    if (error.cause instanceof NotAnEventStreamError) return new ProviderError('bad_request', `${ANTHROPIC_LABEL}: ${error.cause.message}`, { cause: error });
    return connectionFailure(ANTHROPIC_LABEL, error);
  }
  if (error instanceof sdk.APIError) {
    const type = error.type ?? undefined;
    const statusFromResponse = error.status !== undefined;
    const status = error.status ?? (type === undefined ? undefined : STATUS_OF_ERROR_TYPE[type]);
    const vendorMessage = error.apiMessage ?? error.message;
    // Anthropic's documented texts; a gateway in front of another model may word it its own way.
    const promptTooLong =
      status === 400 &&
      ((type === 'invalid_request_error' && [PROMPT_TOO_LONG_PREFIX, CONTEXT_LIMIT_PREFIX].some((prefix) => vendorMessage.trimStart().toLowerCase().startsWith(prefix))) ||
        isContextOverflowText(vendorMessage));
    const inner = (error.error as { error?: Record<string, unknown> } | undefined)?.error;
    return classifyHttpError({
      label: ANTHROPIC_LABEL,
      status,
      statusFromResponse,
      vendorMessage,
      promptTooLong: promptTooLong ? { model: context.model, contextWindow: context.contextWindow } : undefined,
      overloaded: type === 'overloaded_error',
      authenticationHint: 'Check the API key: set ANTHROPIC_API_KEY or api_key in the provider configuration',
      htmlBody: inner?.[NON_JSON_BODY_FIELD] === 'html',
      notFoundHint: notFoundHint(context.providerName, context.baseUrl, context.model),
      cause: error,
    });
  }
  return transportFailure(ANTHROPIC_LABEL, error) ?? new ProviderError('unknown', `${ANTHROPIC_LABEL} error: ${describe(error)}`, { cause: error });
}

/** A 404 is most often a gateway's base URL with a path segment too many (the SDK adds /v1/messages), else an unknown model. */
function notFoundHint(providerName: string, baseUrl: string | undefined, model: string): string {
  const url = baseUrl === undefined ? '' : ` (${baseUrl})`;
  return `Check \`base_url\` of provider "${providerName}"${url}: requests go to it + /v1/messages, so it ends before /v1; and check its \`model\` ("${model}").`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
