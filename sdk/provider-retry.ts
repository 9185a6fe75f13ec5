/**
 * Provider error classification and retry (P6), shared by every provider plugin.
 *
 * Deliberately vendor-free: no SDK is imported here. A plugin recognises its vendor's documented
 * error bodies (prompt too long, overloaded) and hands this module plain facts; this module maps
 * HTTP statuses to `ProviderErrorKind`s, decides what is retryable and runs the backoff loop.
 */
import { ProviderError } from '../types/index.js';
import type { ProviderErrorKind, ProviderEvent, Usage } from '../types/index.js';

/** Upper bound of any single wait, whether from backoff or from a `retry-after` header. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** Kinds worth another attempt: the same request may well succeed a moment later. */
const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'network']);

export function isRetryableKind(kind: ProviderErrorKind): boolean {
  return RETRYABLE_KINDS.has(kind);
}

/** The kind an HTTP status means on its own, before any vendor-specific body is considered. */
export function kindForHttpStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403) return 'authentication';
  if (status >= 500) return 'server';
  if (status >= 400) return 'bad_request';
  return 'unknown';
}

/** What a plugin learned from one failed HTTP exchange (or from a mid-stream error event). */
export interface HttpErrorFacts {
  /** Shown in messages, e.g. "Anthropic API". */
  label: string;
  /** HTTP status; for a mid-stream error event, the status the vendor documents for its error type. */
  status: number | undefined;
  /** The vendor's own error text (the body's message), not the SDK's decorated one. */
  vendorMessage: string;
  /** The plugin recognised the vendor's DOCUMENTED prompt-too-long body. */
  promptTooLong?: { model: string; contextWindow: number };
  /** The plugin recognised the vendor's documented "overloaded" body (any status). */
  overloaded?: boolean;
  /** Appended to the message of an authentication failure: what the user should set. */
  authenticationHint?: string;
  /**
   * The body was an HTML page (sdk/http/vendor-responses.ts): a proxy, CDN or login page answered,
   * not the API, so a 401/403 is not the API key's fault.
   */
  htmlBody?: boolean;
  /** Appended to the message of a 404: which provider entry's `base_url` and `model` to check. */
  notFoundHint?: string;
  /** Is `status` a real HTTP status (false for a status derived from a mid-stream error type)? */
  statusFromResponse?: boolean;
  cause?: unknown;
}

export function promptTooLongMessage(model: string, contextWindow: number, vendorMessage: string): string {
  const message = `Prompt is too long for the context window of ${model} (${contextWindow} tokens): ${vendorMessage}`;
  // A server serving the model with a smaller window than configured (vLLM's --max-model-len,
  // Ollama's num_ctx): compaction aims at context_window, so only a smaller one helps.
  const limit = serverContextLimit(vendorMessage);
  if (limit === undefined || limit >= contextWindow) return message;
  return `${message.replace(/[.\s]+$/, '')}. The server's limit (${limit} tokens) is below the configured context_window (${contextWindow}): set context_window: ${limit} (or less) in this provider entry so compaction starts in time.`;
}

/**
 * The context-overflow texts of compatible servers beside the vendors' documented codes: vLLM and
 * DeepSeek (OpenAI's wording), Mistral, Gemini, llama.cpp, Groq, Together, LiteLLM.
 */
const CONTEXT_OVERFLOW_TEXTS = [
  /maximum context length is \d+/i,
  /\bmaximum context length\b/i,
  /exceeds? the (maximum|max) (number of )?tokens allowed/i,
  /exceeds? the available context size/i,
  /context (length|window) (exceeded|is exceeded)/i,
  /too large for model with \d+ maximum context length/i,
  /input (token count|length) .*exceeds/i,
  /reduce the length of the (messages|input)/i,
  /prompt is too long/i,
];

export function isContextOverflowText(message: string): boolean {
  return CONTEXT_OVERFLOW_TEXTS.some((pattern) => pattern.test(message));
}

/** The token limit a server states in its overflow message ("maximum context length is 4096 tokens"). */
export function serverContextLimit(message: string): number | undefined {
  const match =
    /maximum context length is (\d[\d,]*)/i.exec(message) ??
    /(\d[\d,]*) maximum context length/i.exec(message) ??
    /maximum number of tokens allowed \((\d[\d,]*)\)/i.exec(message) ??
    /context (?:size|window|length) (?:of |is )?\(?(\d[\d,]*)/i.exec(message) ??
    /> (\d[\d,]*) maximum/i.exec(message);
  if (!match) return undefined;
  const n = Number(match[1]!.replace(/,/g, ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Turns the facts about a failed request into a typed ProviderError with a readable message. */
export function classifyHttpError(facts: HttpErrorFacts): ProviderError {
  const { label, status, vendorMessage, cause } = facts;
  const reportedStatus = facts.statusFromResponse === false ? undefined : status;
  if (facts.promptTooLong) {
    const { model, contextWindow } = facts.promptTooLong;
    return new ProviderError('prompt_too_long', promptTooLongMessage(model, contextWindow, vendorMessage), {
      status: reportedStatus,
      cause,
    });
  }
  let kind: ProviderErrorKind = status === undefined ? 'unknown' : kindForHttpStatus(status);
  if (facts.overloaded) kind = 'overloaded';
  // A proxy's or CDN's page is not the API refusing the credentials.
  const proxyPage = kind === 'authentication' && facts.htmlBody === true;
  if (proxyPage) kind = 'bad_request';
  const where = reportedStatus === undefined ? '' : ` (${reportedStatus})`;
  let message = `${label} ${describeKind(kind)}${where}: ${withoutStatusPrefix(vendorMessage, reportedStatus)}`;
  if (proxyPage) {
    message = `${withoutFinalStop(message)}. The answer is a web page, not the API's: a proxy, CDN, firewall or login page in front of the server refused the request; check base_url and the network's proxy settings`;
  } else if (kind === 'authentication' && facts.authenticationHint) message = `${withoutFinalStop(message)}. ${facts.authenticationHint}`;
  if (reportedStatus === 404 && facts.notFoundHint) message = `${withoutFinalStop(message)}. ${facts.notFoundHint}`;
  return new ProviderError(kind, message, { status: reportedStatus, cause });
}

/**
 * The SDKs put the status before a body they could not parse ("404 404 page not found" for a
 * gateway's plain-text 404); the message already says the status once.
 */
function withoutStatusPrefix(vendorMessage: string, status: number | undefined): string {
  return status !== undefined && vendorMessage.startsWith(`${status} `) ? vendorMessage.slice(`${status} `.length) : vendorMessage;
}

/** A vendor text that ends with a full stop (or a URL's last dot) before a hint is appended. */
function withoutFinalStop(text: string): string {
  return text.replace(/[.\s]+$/, '');
}

export function cancelledError(label: string, cause?: unknown): ProviderError {
  return new ProviderError('cancelled', `${label} request was cancelled`, { cause });
}

/** Socket-level failures: the connection failed, not the API. */
const TRANSPORT_ERROR_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
]);
/** How deep a cause chain is followed. */
const MAX_CAUSE_DEPTH = 5;

/**
 * A connection that failed underneath the SDK, which passes such errors through unwrapped when
 * they happen while the body is read: fetch's documented `TypeError('terminated')` or
 * `TypeError('fetch failed')` (Node's and sdk/http/node-fetch.ts's), or a socket error code
 * anywhere in the cause chain. A `network` error is retried while nothing has been shown.
 */
export function transportFailure(label: string, error: unknown): ProviderError | undefined {
  const refused = proxyRefusal(label, error);
  if (refused) return refused;
  const chain = causeChain(error);
  const transport = chain.some(
    (link) => (link.name === 'TypeError' && (link.message === 'terminated' || link.message === 'fetch failed')) || (link.code !== undefined && TRANSPORT_ERROR_CODES.has(link.code)),
  );
  if (!transport) return undefined;
  return connectionFailure(label, error);
}

/**
 * The proxy variables name a proxy MewCode cannot use (sdk/http/proxy.ts): not a network error
 * worth retrying (every attempt fails alike, ≈ 8 s of backoff before the message): said at once.
 */
function proxyRefusal(label: string, error: unknown): ProviderError | undefined {
  const link = causeChain(error).find((entry) => entry.code === 'ERR_MEWCODE_PROXY_REFUSED');
  return link && new ProviderError('unknown', `${label}: ${link.message}`, { cause: error });
}

/**
 * A `network` error that says what failed underneath: the SDKs' own "Connection error." names no
 * host or code, its cause chain does ("fetch failed: connect ECONNREFUSED 127.0.0.1:8080").
 */
export function connectionFailure(label: string, error: unknown): ProviderError {
  const refused = proxyRefusal(label, error);
  if (refused) return refused;
  const detail = causeChain(error)
    .map((link) => {
      const message = link.message.replace(/\.$/, ''); // "Connection error." reads as one step of the chain
      return link.code === undefined || message.includes(link.code) ? message : `${message} (${link.code})`;
    })
    .filter((message, index, all) => message !== '' && all.indexOf(message) === index)
    .join(': ');
  return new ProviderError('network', `${label} connection failed: ${detail}`, { cause: error });
}

interface ErrorLink {
  readonly name: string;
  readonly message: string;
  readonly code: string | undefined;
}

/** Duck-typed, since socket errors may come from another realm than the SDK's. */
function causeChain(error: unknown): ErrorLink[] {
  const chain: ErrorLink[] = [];
  for (let link = error; typeof link === 'object' && link !== null && chain.length < MAX_CAUSE_DEPTH; link = (link as { cause?: unknown }).cause) {
    const { name, message, code } = link as { name?: unknown; message?: unknown; code?: unknown };
    chain.push({ name: String(name ?? ''), message: String(message ?? ''), code: typeof code === 'string' ? code : undefined });
  }
  return chain;
}

/** A phrase that reads after the API's label: "Anthropic API overloaded", "OpenAI API rate limited". */
export function describeKind(kind: ProviderErrorKind): string {
  switch (kind) {
    case 'prompt_too_long':
      return 'prompt too long';
    case 'rate_limit':
      return 'rate limited';
    case 'overloaded':
      return 'overloaded';
    case 'server':
      return 'server error';
    case 'authentication':
      return 'authentication failed';
    case 'bad_request':
      return 'rejected the request';
    case 'network':
      return 'connection failed';
    case 'cancelled':
      return 'request cancelled';
    case 'unknown':
      return 'error';
  }
}

interface HeaderSource {
  get(name: string): string | null;
}

function isHeaderSource(value: unknown): value is HeaderSource {
  return typeof value === 'object' && value !== null && typeof (value as HeaderSource).get === 'function';
}

/**
 * The wait a response asked for, in ms: `retry-after-ms` (sent by OpenAI), else `retry-after` in
 * seconds or as an HTTP date. Undefined when absent or unparsable.
 */
export function retryAfterMsFromHeaders(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Default lookup of `retry-after` for an error: both official SDKs put the response's Fetch
 * `Headers` on their APIError as `headers`, and the plugins keep that APIError as the cause.
 */
export function retryAfterMsFromCause(error: ProviderError): number | undefined {
  const cause: unknown = error.cause;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const headers: unknown = (cause as { headers?: unknown }).headers;
  return isHeaderSource(headers) ? retryAfterMsFromHeaders(headers) : undefined;
}

/**
 * Wait before retry number `retry` (1-based): base × 2^(retry−1) plus up to 20 % jitter, or the
 * server's `retry-after` when given; both capped at MAX_RETRY_DELAY_MS.
 */
export function retryDelayMs(
  retry: number,
  baseDelayMs: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, retryAfterMs));
  const exponential = Math.max(0, baseDelayMs) * 2 ** Math.max(0, retry - 1);
  const jittered = exponential * (1 + 0.2 * random());
  return Math.round(Math.min(MAX_RETRY_DELAY_MS, jittered));
}

/** "0.5 s", "0.48 s", "12.3 s", "0.005 s": short and never rounded down to zero. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  if (seconds === 0) return '0 s';
  const digits = seconds < 0.1 ? 3 : seconds < 10 ? 2 : 1;
  return `${Number(seconds.toFixed(digits))} s`;
}

export function retryNotice(error: ProviderError, label: string, delayMs: number, nextAttempt: number, totalAttempts: number): string {
  const status = error.status === undefined ? '' : ` (${error.status})`;
  return `${label} ${describeKind(error.kind)}${status}; retrying in ${formatSeconds(delayMs)} (attempt ${nextAttempt} of ${totalAttempts})`;
}

/**
 * A signal for one request that follows the run's. A vendor SDK may add an `abort` listener to
 * the signal it is given and never remove it (openai 6 does, once per request: a
 * MaxListenersExceededWarning after 11 requests of a run); given this one, the listener dies with
 * the request. Call `release()` when the request is over.
 */
export function requestSignal(run: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const forward = (): void => controller.abort(run.reason);
  if (run.aborted) forward();
  else run.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, release: () => run.removeEventListener('abort', forward) };
}

/**
 * A response's events; when they fail, the usage the server had counted (input tokens arrive
 * first and are billed) is yielded before the error propagates, so a failed turn's cost is not
 * lost. A retried attempt's usage is replaced by the next attempt's.
 */
export async function* keepingPartialUsage(
  events: AsyncIterable<ProviderEvent>,
  counted: { usageSoFar(): Usage | undefined },
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent, void, undefined> {
  try {
    yield* events;
  } catch (error) {
    const usage = counted.usageSoFar();
    if (usage !== undefined && !signal.aborted) yield { type: 'usage', usage };
    throw error;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ProviderRetryOptions {
  /** Shown in notices and errors, e.g. "Anthropic API". */
  label: string;
  /** Retries after the first attempt (settings.maxRetries). */
  maxRetries: number;
  /** settings.retryBaseDelayMs */
  baseDelayMs: number;
  signal: AbortSignal;
  /**
   * One request. Yields text/thinking deltas, then tool_calls, usage and done. It may throw (an
   * SDK error) or yield an `error` event; either way `classify` decides what happened.
   */
  attempt: (attemptNumber: number) => AsyncIterable<ProviderEvent>;
  /** Maps anything thrown by `attempt` to a ProviderError; must not throw. */
  classify: (error: unknown) => ProviderError;
  /** Defaults to reading `retry-after` from the headers of the error's cause. */
  retryAfterMs?: (error: ProviderError) => number | undefined;
  /** Test seam for the jitter. */
  random?: () => number;
}

/**
 * Runs `attempt` with retries and turns every failure into a terminal `error` event: the result
 * never throws. A request is retried only while nothing of it reached the caller: once a delta
 * was yielded, a failure is final (the caller cannot take text back). Before each wait a
 * `notice` is yielded; an abort during the wait ends promptly with `cancelled`.
 */
export async function* withProviderRetry(options: ProviderRetryOptions): AsyncGenerator<ProviderEvent, void, undefined> {
  const { label, signal } = options;
  const totalAttempts = Math.max(0, Math.floor(options.maxRetries)) + 1;
  const retryAfter = options.retryAfterMs ?? retryAfterMsFromCause;
  const classify = (error: unknown): ProviderError => {
    if (signal.aborted) return cancelledError(label, error);
    if (error instanceof ProviderError) return error;
    try {
      return options.classify(error);
    } catch (classifyFailure) {
      return new ProviderError('unknown', `${label} error: ${String(error)}`, { cause: classifyFailure });
    }
  };

  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) {
      yield { type: 'error', error: cancelledError(label) };
      return;
    }
    let yieldedOutput = false;
    let failure: ProviderError | undefined;
    try {
      for await (const event of options.attempt(attempt)) {
        if (event.type === 'error') {
          failure = classify(event.error);
          break;
        }
        // SDK streams may end quietly when aborted: never report a cut-off response as done.
        if (event.type === 'done' && signal.aborted) {
          failure = cancelledError(label);
          break;
        }
        // A notice or the usage of a failed attempt shows the user nothing to take back.
        if (event.type !== 'notice' && event.type !== 'usage') yieldedOutput = true;
        yield event;
        if (event.type === 'done') return;
      }
      failure ??= signal.aborted
        ? cancelledError(label)
        : new ProviderError('network', `${label} stream ended before the response was complete`);
    } catch (error) {
      failure = classify(error);
    }
    if (signal.aborted && failure.kind !== 'cancelled') failure = cancelledError(label, failure);

    if (yieldedOutput || !isRetryableKind(failure.kind) || attempt >= totalAttempts) {
      yield { type: 'error', error: failure };
      return;
    }
    const delay = retryDelayMs(attempt, options.baseDelayMs, safeRetryAfter(retryAfter, failure), options.random);
    yield { type: 'notice', message: retryNotice(failure, label, delay, attempt + 1, totalAttempts) };
    if (!(await sleepUnlessAborted(delay, signal))) {
      yield { type: 'error', error: cancelledError(label) };
      return;
    }
  }
}

function safeRetryAfter(lookup: (error: ProviderError) => number | undefined, error: ProviderError): number | undefined {
  try {
    const value = lookup(error);
    return value !== undefined && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
