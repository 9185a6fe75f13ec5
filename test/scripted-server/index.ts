// Scripted model server: answers Anthropic Messages and OpenAI Chat Completions requests from a
// queue of scripted turns, so the real SDKs (and the real CLI) can be tested without a model.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicProtocol } from './anthropic-protocol.js';
import { openaiProtocol } from './openai-protocol.js';
import type { LoggedRequest, ScriptedServer, ScriptedServerOptions, ScriptedTurn } from './types.js';
import type { ErrorResponse, ResponseContext, WireProtocol } from './wire-protocol.js';
import { sleepUnlessAborted as sleep } from '../../sdk/provider-retry.js';

export type {
  LoggedRequest,
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedToolCall,
  ScriptedTurn,
  WireProtocolName,
} from './types.js';

const DEFAULT_STREAM_ERROR_AFTER = 2;
const RETRY_FAST_STATUSES = new Set([429, 529]);

function route(method: string | undefined, path: string): WireProtocol | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/messages') return anthropicProtocol;
  if (path === '/v1/chat/completions' || path === '/chat/completions') return openaiProtocol;
  return undefined;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}


function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  return Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name);
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function httpErrorResponse(protocol: WireProtocol, turn: ScriptedTurn, ctx: ResponseContext): ErrorResponse {
  if (turn.promptTooLong) return protocol.promptTooLong();
  const { status, body, headers } = turn.httpError!;
  const retryHeaders: Record<string, string> =
    RETRY_FAST_STATUSES.has(status) && !hasHeader(headers, 'retry-after') && !hasHeader(headers, 'retry-after-ms')
      ? // Anthropic SDK 1.x ignores a zero retry-after and backs off 0.5 s; retry-after-ms 1 keeps retries fast.
        { 'retry-after': '0', 'retry-after-ms': '1' }
      : {};
  return {
    status,
    body: body === undefined ? protocol.errorBody(status, undefined, ctx) : body,
    headers: { ...retryHeaders, ...headers },
  };
}

async function writeStream(
  res: http.ServerResponse,
  protocol: WireProtocol,
  turn: ScriptedTurn,
  ctx: ResponseContext,
  signal: AbortSignal,
): Promise<void> {
  let frames = protocol.streamFrames(turn, ctx);
  if (turn.connectionReset) {
    frames = frames.slice(0, Math.max(0, turn.connectionReset.afterEvents ?? DEFAULT_STREAM_ERROR_AFTER));
  } else if (turn.endEarly) {
    // A proxy that closes the body cleanly mid-stream: no error, no stop reason, no trailer.
    frames = frames.slice(0, Math.max(0, turn.endEarly.afterEvents ?? DEFAULT_STREAM_ERROR_AFTER));
  } else if (turn.streamError) {
    const after = Math.max(0, turn.streamError.afterEvents ?? DEFAULT_STREAM_ERROR_AFTER);
    frames = [...frames.slice(0, after), protocol.streamErrorFrame(turn.streamError)];
  } else {
    frames = [...frames, ...protocol.streamTrailer()];
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...protocol.requestHeaders(),
  });
  res.flushHeaders();
  for (let i = 0; i < frames.length; i++) {
    if (i > 0 && turn.chunkDelayMs) {
      if (!(await sleep(turn.chunkDelayMs, signal))) return;
    }
    if (signal.aborted || res.destroyed) return;
    res.write(frames[i]);
  }
  if (turn.connectionReset) {
    // Once the frames are on the wire, the connection drops without the terminating chunk.
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    res.socket?.destroy();
    return;
  }
  res.end();
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const queue: ScriptedTurn[] = [...(options.turns ?? [])];
  const requests: LoggedRequest[] = [];
  const shutdown = new AbortController();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://scripted.invalid').pathname;
    const rawBody = await readBody(req);
    const protocol = route(req.method, path);
    if (!protocol) {
      sendJson(res, 404, anthropicProtocol.errorBody(404, `scripted server: no route for ${req.method} ${path}`), {
        'x-should-retry': 'false',
      });
      return;
    }

    let body: any = null;
    let bodyIsJson = true;
    try {
      body = rawBody === '' ? null : JSON.parse(rawBody);
    } catch {
      bodyIsJson = false;
    }
    const logged: LoggedRequest = {
      protocol: protocol.name,
      method: req.method ?? 'POST',
      path,
      headers: flattenHeaders(req.headers),
      body,
      rawBody,
      receivedAt: Date.now(),
    };
    requests.push(logged);
    options.onRequest?.(logged);
    const requestNumber = requests.length;
    const ctx: ResponseContext = {
      model: typeof body?.model === 'string' ? body.model : 'scripted-model',
      includeUsage: body?.stream_options?.include_usage === true,
    };
    const baseHeaders = protocol.requestHeaders();

    if (!bodyIsJson) {
      const message = 'scripted server: request body is not valid JSON';
      sendJson(res, 400, protocol.errorBody(400, message, ctx), { ...baseHeaders, 'x-should-retry': 'false' });
      return;
    }
    const turn = queue.shift();
    if (!turn) {
      const message = `scripted server: no scripted turn left for request #${requestNumber}`;
      sendJson(res, 500, protocol.errorBody(500, message, ctx), { ...baseHeaders, 'x-should-retry': 'false' });
      return;
    }

    const requestAbort = new AbortController();
    const abort = () => requestAbort.abort();
    shutdown.signal.addEventListener('abort', abort, { once: true });
    res.once('close', abort);
    try {
      if (turn.delayMs && !(await sleep(turn.delayMs, requestAbort.signal))) return;
      if (turn.httpError || turn.promptTooLong) {
        const error = httpErrorResponse(protocol, turn, ctx);
        sendJson(res, error.status, error.body, { ...baseHeaders, ...error.headers });
      } else if (body?.stream === true) {
        await writeStream(res, protocol, turn, ctx, requestAbort.signal);
      } else if (turn.streamError) {
        const error = protocol.streamErrorAsHttp(turn.streamError);
        sendJson(res, error.status, error.body, baseHeaders);
      } else {
        sendJson(res, 200, protocol.jsonResponse(turn, ctx), baseHeaders);
      }
    } finally {
      shutdown.signal.removeEventListener('abort', abort);
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the server itself: make it loud in the client instead of hanging.
      if (!res.headersSent) {
        sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `scripted server crashed: ${String(error)}` } });
      } else {
        res.destroy();
      }
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    requests,
    push: (...turns) => {
      queue.push(...turns);
    },
    remaining: () => queue.length,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        shutdown.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
