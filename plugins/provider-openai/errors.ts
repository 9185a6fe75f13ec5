/**
 * openai SDK errors → typed ProviderErrors (P6), from the HTTP status and the documented error
 * body `{"error":{"message","type","param","code"}}` (https://platform.openai.com/docs/guides/error-codes).
 */
import { ProviderError } from '../../types/index.js';
import { cancelledError, classifyHttpError, connectionFailure, isContextOverflowText, transportFailure } from '../../sdk/provider-retry.js';
import { NON_JSON_BODY_FIELD, NotAnEventStreamError } from '../../sdk/http/vendor-responses.js';
import type { OpenAISdk } from './sdk.js';

/**
 * A mid-stream error chunk has no status of its own (the response was 200); its documented code
 * or type stands in for one.
 */
const STATUS_OF_ERROR_CODE: Readonly<Record<string, number>> = {
  context_length_exceeded: 400,
  invalid_request_error: 400,
  invalid_api_key: 401,
  invalid_authentication: 401,
  authentication_error: 401,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  insufficient_quota: 429,
  server_error: 500,
};

/** Statuses compatible servers answer a context overflow with (400; 413 and 422 from some gateways). */
const OVERFLOW_STATUSES = new Set([400, 413, 422]);

export interface OpenAIErrorContext {
  label: string;
  /** The provider entry's name and the base URL its client talks to, for the hint of a 404. */
  providerName: string;
  baseUrl: string | undefined;
  model: string;
  contextWindow: number;
}

export function classifyOpenAIError(error: unknown, sdk: OpenAISdk | undefined, context: OpenAIErrorContext): ProviderError {
  const { label } = context;
  if (error instanceof ProviderError) return error;
  if (!sdk) return new ProviderError('unknown', `Could not load openai: ${describe(error)}`, { cause: error });
  if (error instanceof sdk.APIUserAbortError) return cancelledError(label, error);
  if (error instanceof sdk.APIConnectionError) {
    // a 200 that is no event stream: said as what the server sent, and not retried (sdk/http/vendor-responses.ts)
    if (error.cause instanceof NotAnEventStreamError) return new ProviderError('bad_request', `${label}: ${error.cause.message}`, { cause: error });
    return connectionFailure(label, error);
  }
  if (error instanceof sdk.APIError) {
    const body = (typeof error.error === 'object' && error.error !== null ? error.error : {}) as { message?: unknown; [NON_JSON_BODY_FIELD]?: unknown };
    const vendorMessage = typeof body.message === 'string' ? body.message : error.message;
    const code = typeof error.code === 'string' ? error.code : undefined;
    const type = typeof error.type === 'string' ? error.type : undefined;
    // OpenRouter's mid-stream errors carry the upstream HTTP status as a numeric code.
    const numericCode = typeof error.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined;
    const statusFromResponse = error.status !== undefined;
    const status =
      error.status ??
      numericCode ??
      (code !== undefined ? STATUS_OF_ERROR_CODE[code] : undefined) ??
      (type !== undefined ? STATUS_OF_ERROR_CODE[type] : undefined);
    if (code === 'insufficient_quota' || type === 'insufficient_quota') {
      // A 429 that waiting cannot fix: the account is out of quota. Not retried. Real bodies often
      // carry it only as the type, with `code: null`.
      return new ProviderError('bad_request', `${label} quota exhausted (insufficient_quota): ${vendorMessage} Check the plan and billing of this API key.`, {
        status: status ?? 429,
        cause: error,
      });
    }
    const promptTooLong = status !== undefined && OVERFLOW_STATUSES.has(status) && (code === 'context_length_exceeded' || isContextOverflowText(vendorMessage));
    return classifyHttpError({
      label,
      status,
      statusFromResponse,
      vendorMessage,
      promptTooLong: promptTooLong ? { model: context.model, contextWindow: context.contextWindow } : undefined,
      authenticationHint: 'Check the API key: set OPENAI_API_KEY or api_key in the provider configuration',
      htmlBody: body[NON_JSON_BODY_FIELD] === 'html',
      notFoundHint: notFoundHint(context.providerName, context.baseUrl, context.model, 'chat/completions'),
      cause: error,
    });
  }
  return transportFailure(label, error) ?? new ProviderError('unknown', `${label} error: ${describe(error)}`, { cause: error });
}

/** A 404 is most often a gateway's base URL missing (or repeating) a path segment, else an unknown model. */
export function notFoundHint(providerName: string, baseUrl: string | undefined, model: string, endpoint: string): string {
  const url = baseUrl === undefined ? '' : ` (${baseUrl})`;
  return `Check \`base_url\` of provider "${providerName}"${url}: requests go to it + /${endpoint}, so for a gateway it usually ends with /v1; and check its \`model\` ("${model}").`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
