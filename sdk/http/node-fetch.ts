/**
 * A `fetch` on `node:http`/`node:https` for the vendor SDKs (both accept a custom `fetch`).
 * Node's own `fetch` initialises its bundled undici on first use: ≈ 22 ms to load it and
 * ≈ 15–25 ms more on the first request (measured in BENCHMARKS.md), on every launch, while
 * `node:http` is already in memory. It also keeps its connections in a pool of its own; here
 * one keep-alive agent per protocol serves every provider of the process.
 *
 * Fetch semantics kept: redirects (follow | error | manual, at most 20, credentials dropped when
 * the origin changes), gzip/deflate/br bodies decoded, `signal` aborts with its reason at any
 * point (and its listener is removed when the body settles), network failures reject with
 * `TypeError('fetch failed', { cause })` and a body cut off mid-way errors with
 * `TypeError('terminated', { cause })`, as undici does, so the SDKs classify them the same way.
 * Added: a request on a reused keep-alive socket that the server had already closed is sent once
 * more on a fresh connection (Node's documented `reusedSocket` pattern).
 */
import type http from 'node:http';
import type https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import type zlib from 'node:zlib';
import { builtinOnFirstUse } from '../lazy-builtin.js';
import { FetchResponse } from './fetch-response.js';
import { NodeBody } from './node-body.js';
import { encodeRequestBody, type EncodedBody } from './request-body.js';
import { WebHeaders, type WebHeadersInit } from './web-headers.js';
import { proxyFor } from './proxy.js';

export interface NodeFetchOptions {
  /** Longest silence while waiting for the headers or between body bytes (undici's default). */
  readonly idleTimeoutMs?: number;
  readonly maxRedirects?: number;
  readonly httpAgent?: http.Agent;
  readonly httpsAgent?: https.Agent;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_REDIRECTS = 20;
/** Idle keep-alive sockets close after this (or earlier, when the server's Keep-Alive hint says so). */
const FREE_SOCKET_TIMEOUT_MS = 60_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** Dropped on a redirect to another origin, so a key never reaches a host it was not meant for. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Managed by Node's agent and the body encoding, never passed through. */
const HOP_HEADERS = new Set(['connection', 'content-length', 'keep-alive', 'transfer-encoding', 'host']);
/** Content codings the client undoes (anything else reaches the reader as sent). */
const DECODED_CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
/** The server closed a kept-alive socket just as it was reused. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

type RedirectMode = 'follow' | 'error' | 'manual';

interface Attempt {
  url: URL;
  method: string;
  readonly headers: WebHeaders;
  body: EncodedBody | undefined;
}

let shared: typeof fetch | undefined;

/**
 * Node's HTTP module loads at the first request, its TLS one at the first `https:` request, and
 * zlib at the first compressed body, not with the program: ≈ 11 ms the terminal UI's first frame
 * does without (it needs them only once a prompt is sent), and a local endpoint (`http:`) never
 * loads TLS (≈ 2 ms).
 */
type Protocol = 'http:' | 'https:';
// node:https has node:http's request()/Agent shape, with TLS.
const transports: Record<Protocol, () => typeof http> = { 'http:': builtinOnFirstUse('node:http'), 'https:': builtinOnFirstUse('node:https') };
const transportFor = (protocol: Protocol): typeof http => transports[protocol]();
const zlibModule = builtinOnFirstUse<typeof zlib>('node:zlib');

/** The process-wide instance: one connection pool for every provider. */
export function sharedNodeFetch(): typeof fetch {
  shared ??= createNodeFetch();
  return shared;
}

/**
 * Typed as the global `fetch` because that is what the SDKs take; the `Response` it resolves to
 * is a `FetchResponse`, which has every member the SDKs read (not `formData()`).
 */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const agents: Partial<Record<Protocol, http.Agent>> = { 'http:': options.httpAgent, 'https:': options.httpsAgent };
  const agentFor = (protocol: Protocol): http.Agent => (agents[protocol] ??= new (transportFor(protocol).Agent)({ keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS }));

  async function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<FetchResponse> {
    const request = typeof input === 'object' && !(input instanceof URL) ? input : undefined;
    const signal = init.signal ?? request?.signal ?? undefined;
    const redirect = (init.redirect ?? request?.redirect ?? 'follow') as RedirectMode;
    const attempt: Attempt = {
      url: parseUrl(request?.url ?? String(input)),
      method: (init.method ?? request?.method ?? 'GET').toUpperCase(),
      headers: new WebHeaders((init.headers ?? request?.headers) as WebHeadersInit | undefined),
      body: await encodeRequestBody(init.body ?? request?.body),
    };
    const link = new AbortLink(signal);
    try {
      link.throwIfAborted();
      for (let redirects = 0; ; redirects += 1) {
        // Behind a proxy (HTTPS_PROXY…, NO_PROXY), its agent; else the protocol's own. Per hop: a redirect may change it.
        const agent = (await proxyFor(attempt.url))?.agent ?? agentFor(attempt.url.protocol === 'https:' ? 'https:' : 'http:');
        const response = await send(attempt, agent, idleTimeoutMs, link);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (!REDIRECT_STATUSES.has(status) || location === undefined || redirect === 'manual') {
          return answer(response, attempt, redirects > 0, link);
        }
        response.resume(); // drained, so its socket goes back to the pool
        if (redirect === 'error') throw fetchFailed(new Error(`redirected to ${location} (redirect: "error")`));
        if (redirects >= maxRedirects) throw fetchFailed(new Error(`more than ${maxRedirects} redirects`));
        followRedirect(attempt, status, location);
      }
    } catch (error) {
      link.release();
      throw error;
    }
  }
  return nodeFetch as unknown as typeof fetch;
}

function parseUrl(text: string): URL {
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`fetch: the ${url.protocol} scheme is not supported (only http: and https:)`);
  }
  return url;
}

/** Rewrites the attempt as the Fetch standard's redirect steps do. */
function followRedirect(attempt: Attempt, status: number, location: string): void {
  const next = parseUrl(new URL(location, attempt.url).href);
  if ((status === 303 && attempt.method !== 'GET' && attempt.method !== 'HEAD') || ((status === 301 || status === 302) && attempt.method === 'POST')) {
    attempt.method = 'GET';
    attempt.body = undefined;
    for (const name of BODY_HEADERS) attempt.headers.delete(name);
  } else if (attempt.body?.chunks !== undefined) {
    throw fetchFailed(new Error(`a streamed request body cannot be sent again to ${next.href} (HTTP ${status})`));
  }
  if (next.origin !== attempt.url.origin) for (const name of CREDENTIAL_HEADERS) attempt.headers.delete(name);
  attempt.url = next;
}

function send(attempt: Attempt, agent: http.Agent, idleTimeoutMs: number, link: AbortLink, retried = false): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const protocol = attempt.url.protocol === 'https:' ? 'https:' : 'http:';
    let responded = false;
    const request = transportFor(protocol).request(attempt.url, { method: attempt.method, headers: outgoingHeaders(attempt), agent }, (response) => {
      responded = true;
      resolve(response);
    });
    link.track(request);
    request.setTimeout(idleTimeoutMs, () => request.destroy(link.timedOut(idleTimeout(idleTimeoutMs))));
    // `on`, not `once`: a socket can fail again after the response began; the body reports that.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (responded) return;
      const aborted = link.reason();
      if (aborted !== undefined) return reject(aborted);
      const replayable = attempt.body?.chunks === undefined;
      if (!retried && replayable && request.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '')) {
        return resolve(send(attempt, agent, idleTimeoutMs, link, true));
      }
      reject(fetchFailed(error));
    });
    writeBody(request, attempt.body).catch((error: unknown) => request.destroy(error instanceof Error ? error : new Error(String(error))));
  });
}

function outgoingHeaders(attempt: Attempt): Record<string, string> {
  const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' };
  for (const [name, value] of attempt.headers) if (!HOP_HEADERS.has(name)) headers[name] = value;
  const body = attempt.body;
  if (body?.contentType !== undefined && !attempt.headers.has('content-type')) headers['content-type'] = body.contentType;
  if (body?.bytes !== undefined) headers['content-length'] = String(body.bytes.byteLength);
  else if (body === undefined && ['POST', 'PUT', 'PATCH'].includes(attempt.method)) headers['content-length'] = '0';
  return headers;
}

async function writeBody(request: http.ClientRequest, body: EncodedBody | undefined): Promise<void> {
  if (body?.chunks === undefined) {
    request.end(body?.bytes);
    return;
  }
  for await (const chunk of body.chunks) {
    if (request.destroyed) return;
    if (!request.write(chunk)) await new Promise((resolve) => request.once('drain', resolve));
  }
  request.end();
}

function answer(response: http.IncomingMessage, attempt: Attempt, redirected: boolean, link: AbortLink): FetchResponse {
  const headers = new WebHeaders();
  const raw = response.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index] ?? '', raw[index + 1] ?? '');
    } catch {
      // a header the Fetch standard cannot represent; undici drops it the same way
    }
  }
  const init = { status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers, url: attempt.url.href, redirected };
  if (attempt.method === 'HEAD' || NULL_BODY_STATUSES.has(init.status)) {
    response.resume();
    link.release();
    return new FetchResponse(init, null);
  }
  // After the idle timeout destroyed the request, the body fails with a bare reset ("aborted",
  // ECONNRESET): the timeout is what happened, and is what the user is told.
  const failure = (error: Error): Error => link.reason() ?? terminated(link.idleTimeout ?? error);
  return new FetchResponse(init, new NodeBody(decoded(response, headers.get('content-encoding')), () => link.release(), failure));
}

/** Undoes Content-Encoding (applied in order, so decoded in reverse); unknown codings pass through. */
function decoded(response: http.IncomingMessage, contentEncoding: string | null): Readable {
  const codings = (contentEncoding ?? '').toLowerCase().split(',').map((coding) => coding.trim()).filter((coding) => coding !== '' && coding !== 'identity');
  const decoders = codings.reverse().map(decoderFor);
  if (decoders.length === 0 || decoders.includes(undefined)) return response;
  const streams = [response, ...(decoders as Readable[])] as [Readable, ...Readable[]];
  // pipeline destroys every stream when one fails, so a reset socket reaches the reader.
  pipeline(streams, () => {});
  return streams[streams.length - 1] as Readable;
}

function decoderFor(coding: string): Readable | undefined {
  // Flushing on every chunk lets a compressed event stream arrive event by event.
  if (!DECODED_CODINGS.has(coding)) return undefined;
  const zlib = zlibModule();
  if (coding === 'br') return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  return coding === 'deflate' ? zlib.createInflate(options) : zlib.createGunzip(options);
}

/**
 * One `abort` listener per fetch, for its whole life: the request, each redirect and the body.
 * Released when the body settles or the fetch fails, so a long-lived signal collects none.
 */
class AbortLink {
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: () => void;
  #request: http.ClientRequest | undefined;
  #idleTimeout: Error | undefined;

  constructor(signal: AbortSignal | null | undefined) {
    this.#signal = signal ?? undefined;
    this.#onAbort = () => this.#request?.destroy(this.reason());
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  track(request: http.ClientRequest): void {
    this.#request = request;
  }

  /** Notes that the idle timeout ended the request; returns its error. */
  timedOut(error: Error): Error {
    this.#idleTimeout = error;
    return error;
  }

  get idleTimeout(): Error | undefined {
    return this.#idleTimeout;
  }

  reason(): Error | undefined {
    if (this.#signal?.aborted !== true) return undefined;
    const reason: unknown = this.#signal.reason;
    return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
  }

  throwIfAborted(): void {
    const reason = this.reason();
    if (reason !== undefined) throw reason;
  }

  release(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }
}

function fetchFailed(cause: Error): TypeError {
  return new TypeError('fetch failed', { cause });
}

function terminated(cause: Error): TypeError {
  return new TypeError('terminated', { cause });
}

function idleTimeout(ms: number): Error {
  return Object.assign(new Error(`no data from the server for ${ms / 1000} s (idle timeout)`), { code: 'ETIMEDOUT' });
}
