// sdk/provider-retry.ts, the vendor-free classification and retry loop both provider plugins use.
// (Kept beside the provider tests: the provider plugins are its only users.)
import {
  MAX_RETRY_DELAY_MS,
  classifyHttpError,
  formatSeconds,
  kindForHttpStatus,
  retryAfterMsFromCause,
  retryAfterMsFromHeaders,
  retryDelayMs,
  withProviderRetry,
} from '../../sdk/provider-retry.js';
import { ProviderError } from '../../types/index.js';
import type { ProviderEvent } from '../../types/index.js';

async function drain(iterable: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of iterable) out.push(event);
  return out;
}

const done: ProviderEvent = { type: 'done', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' };

function httpFailure(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, headers: new Headers(headers) });
}

const classifyStatus = (error: unknown): ProviderError => {
  const status = (error as { status?: number }).status;
  return classifyHttpError({ label: 'Test API', status, vendorMessage: String((error as Error).message), cause: error });
};

describe('classification', () => {
  test.each([
    [429, 'rate_limit'],
    [529, 'overloaded'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [401, 'authentication'],
    [403, 'authentication'],
    [400, 'bad_request'],
    [404, 'bad_request'],
    [413, 'bad_request'],
  ] as const)('status %i → %s', (status, kind) => {
    expect(kindForHttpStatus(status)).toBe(kind);
  });

  test('prompt too long and overloaded come from the facts the plugin recognised, not from the status alone', () => {
    const tooLong = classifyHttpError({
      label: 'X',
      status: 400,
      vendorMessage: 'prompt is too long: 5 tokens > 4 maximum',
      promptTooLong: { model: 'm-1', contextWindow: 4 },
    });
    expect(tooLong.kind).toBe('prompt_too_long');
    expect(tooLong.message).toBe('Prompt is too long for the context window of m-1 (4 tokens): prompt is too long: 5 tokens > 4 maximum');
    expect(classifyHttpError({ label: 'X', status: 400, vendorMessage: 'prompt is too long' }).kind).toBe('bad_request');
    expect(classifyHttpError({ label: 'X', status: 500, vendorMessage: 'busy', overloaded: true }).kind).toBe('overloaded');
    expect(classifyHttpError({ label: 'X', status: undefined, vendorMessage: '?' }).kind).toBe('unknown');
  });
});

describe('delays', () => {
  test('exponential from the base with at most 20 % jitter, capped at 30 s', () => {
    expect(retryDelayMs(1, 500, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(2, 500, undefined, () => 0)).toBe(1000);
    expect(retryDelayMs(3, 500, undefined, () => 0.999)).toBeLessThanOrEqual(2400);
    expect(retryDelayMs(3, 500, undefined, () => 0.999)).toBeGreaterThan(2000);
    expect(retryDelayMs(20, 500, undefined, () => 0.5)).toBe(MAX_RETRY_DELAY_MS);
  });

  test('retry-after wins (seconds, HTTP date, retry-after-ms) and is capped the same way', () => {
    expect(retryDelayMs(1, 500, 2000)).toBe(2000);
    expect(retryDelayMs(1, 500, 120_000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMsFromHeaders(new Headers())).toBeUndefined();
    expect(retryAfterMsFromCause(new ProviderError('rate_limit', 'x', { cause: httpFailure(429, { 'retry-after': '2' }) }))).toBe(2000);
    expect(retryAfterMsFromCause(new ProviderError('rate_limit', 'x'))).toBeUndefined();
  });

  test('seconds are shown briefly and never as zero', () => {
    expect(formatSeconds(500)).toBe('0.5 s');
    expect(formatSeconds(480)).toBe('0.48 s');
    expect(formatSeconds(1)).toBe('0.001 s');
    expect(formatSeconds(12_345)).toBe('12.3 s');
  });
});

describe('withProviderRetry', () => {
  const base = { label: 'Test API', baseDelayMs: 1, classify: classifyStatus };

  test('retries a retryable failure with a notice, then passes the successful attempt through', async () => {
    let attempts = 0;
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 3,
        signal: new AbortController().signal,
        async *attempt(n) {
          attempts = n;
          if (n < 3) throw httpFailure(n === 1 ? 529 : 503);
          yield { type: 'text', text: 'ok' };
          yield done;
        },
      }),
    );
    expect(attempts).toBe(3);
    expect(events.map((e) => (e.type === 'notice' ? e.message.replace(/[\d.]+ s/, 'N s') : e.type))).toEqual([
      'Test API overloaded (529); retrying in N s (attempt 2 of 4)',
      'Test API server error (503); retrying in N s (attempt 3 of 4)',
      'text',
      'done',
    ]);
  });

  test('an error event from the attempt is treated like a throw', async () => {
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 0,
        signal: new AbortController().signal,
        async *attempt() {
          yield { type: 'error', error: new ProviderError('bad_request', 'nope') };
        },
      }),
    );
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'bad_request', message: 'nope' }) }]);
  });

  test('non-retryable kinds are not retried; maxRetries 0 means one attempt', async () => {
    let attempts = 0;
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 5,
        signal: new AbortController().signal,
        async *attempt() {
          attempts++;
          throw httpFailure(401);
        },
      }),
    );
    expect(attempts).toBe(1);
    expect(events).toMatchObject([{ type: 'error', error: { kind: 'authentication', status: 401 } }]);

    attempts = 0;
    await drain(
      withProviderRetry({
        ...base,
        maxRetries: 0,
        signal: new AbortController().signal,
        async *attempt() {
          attempts++;
          throw httpFailure(529);
        },
      }),
    );
    expect(attempts).toBe(1);
  });

  test('a failure after output is terminal, even when retryable', async () => {
    let attempts = 0;
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 3,
        signal: new AbortController().signal,
        async *attempt() {
          attempts++;
          yield { type: 'thinking', thinking: 'hmm' };
          throw httpFailure(529);
        },
      }),
    );
    expect(attempts).toBe(1);
    expect(events).toMatchObject([{ type: 'thinking' }, { type: 'error', error: { kind: 'overloaded' } }]);
  });

  test('an attempt that ends without done is an incomplete response, never a silent success', async () => {
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 0,
        signal: new AbortController().signal,
        async *attempt() {
          yield { type: 'text', text: 'half' };
        },
      }),
    );
    expect(events).toMatchObject([{ type: 'text' }, { type: 'error', error: { kind: 'network' } }]);
  });

  test('a throwing classify still ends with an error event, never a throw', async () => {
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 0,
        signal: new AbortController().signal,
        classify: () => {
          throw new Error('classifier bug');
        },
        async *attempt() {
          throw new Error('boom');
        },
      }),
    );
    expect(events).toMatchObject([{ type: 'error', error: { kind: 'unknown' } }]);
  });

  test('a done that arrives after the abort is reported as cancelled', async () => {
    const controller = new AbortController();
    const events = await drain(
      withProviderRetry({
        ...base,
        maxRetries: 0,
        signal: controller.signal,
        async *attempt() {
          controller.abort();
          yield done;
        },
      }),
    );
    expect(events).toMatchObject([{ type: 'error', error: { kind: 'cancelled' } }]);
  });

  test('an abort during the backoff wait ends promptly with cancelled', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const started = Date.now();
    const iterable = withProviderRetry({
      ...base,
      baseDelayMs: 10_000,
      maxRetries: 2,
      signal: controller.signal,
      async *attempt() {
        attempts++;
        throw httpFailure(500);
      },
    });
    const events: ProviderEvent[] = [];
    for await (const event of iterable) {
      events.push(event);
      if (event.type === 'notice') setTimeout(() => controller.abort(), 10);
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(attempts).toBe(1);
    expect(events).toMatchObject([{ type: 'notice' }, { type: 'error', error: { kind: 'cancelled' } }]);
  });
});
