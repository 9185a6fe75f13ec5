// createNodeFetch against real local HTTP servers: fetch semantics the SDKs rely on, and the
// failure shapes (fetch failed / terminated / the abort reason) they classify.
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { Blob } from 'node:buffer';
import { createNodeFetch, DEFAULT_MAX_REDIRECTS } from '../../sdk/http/node-fetch.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: Socket;
}

interface TestServer {
  url: string;
  received: Received[];
  connections: number;
  close(): Promise<void>;
}

const servers: TestServer[] = [];

async function serve(handler: (request: Received, response: http.ServerResponse) => void): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, socket: request.socket };
      received.push(entry);
      handler(entry, response);
    });
  });
  const result: TestServer = {
    url: '',
    received,
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket: Socket) => {
    result.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  result.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(result);
  return result;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const json = (response: http.ServerResponse, value: unknown, status = 200): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

async function rejection(promise: Promise<unknown>): Promise<Error & { cause?: NodeJS.ErrnoException }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { cause?: NodeJS.ErrnoException };
  }
  throw new Error('expected a rejection');
}

describe('createNodeFetch: requests and responses', () => {
  test('a JSON POST arrives whole and the answer reads as a Response', async () => {
    const server = await serve((_request, response) => {
      response.setHeader('x-request-id', 'req_1');
      json(response, { ok: true }, 201);
    });
    const fetch = createNodeFetch();
    const response = await fetch(`${server.url}/v1/messages`, { method: 'post', headers: { 'content-type': 'application/json', 'X-Api-Key': 'k' }, body: '{"a":1}' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe('Created');
    expect(response.url).toBe(`${server.url}/v1/messages`);
    expect(response.redirected).toBe(false);
    expect(response.headers.get('X-Request-Id')).toBe('req_1');
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    const [seen] = server.received;
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/messages', body: '{"a":1}' });
    expect(seen?.headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '7', 'x-api-key': 'k', accept: '*/*' });
  });

  test('sequential requests reuse one keep-alive connection', async () => {
    const server = await serve((_request, response) => json(response, {}));
    const fetch = createNodeFetch();
    for (let i = 0; i < 3; i++) await (await fetch(server.url, { method: 'POST', body: 'x' })).text();
    expect(server.connections).toBe(1);
    expect(new Set(server.received.map((entry) => entry.socket)).size).toBe(1);
  });

  test('each body type is sent with the Content-Type fetch gives it', async () => {
    const server = await serve((_request, response) => json(response, {}));
    const fetch = createNodeFetch();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('stre'));
        controller.enqueue(new TextEncoder().encode('amed'));
        controller.close();
      },
    });
    async function* iterable(): AsyncIterable<string> {
      yield 'it';
      yield 'erable';
    }
    const form = new FormData();
    form.set('field', 'value');
    const bodies: unknown[] = ['text', new TextEncoder().encode('bytes'), new URLSearchParams({ q: 'a b' }), new Blob(['blob'], { type: 'text/x-blob' }), stream, iterable(), form];
    for (const body of bodies) await (await fetch(server.url, { method: 'POST', body: body as RequestInit["body"] })).text();
    const seen = server.received.map((entry) => [entry.body, entry.headers['content-type'], entry.headers['transfer-encoding'] ?? entry.headers['content-length']]);
    expect(seen.slice(0, 6)).toEqual([
      ['text', 'text/plain;charset=UTF-8', '4'],
      ['bytes', undefined, '5'],
      ['q=a+b', 'application/x-www-form-urlencoded;charset=UTF-8', '5'],
      ['blob', 'text/x-blob', '4'],
      ['streamed', undefined, 'chunked'],
      ['iterable', undefined, 'chunked'],
    ]);
    expect(seen[6]?.[1]).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[6]?.[0]).toContain('name="field"\r\n\r\nvalue');
  });

  test('gzip, deflate and br bodies are decoded; an event stream arrives event by event', async () => {
    const text = 'decoded '.repeat(100);
    const server = await serve((request, response) => {
      const coding = request.url.slice(1);
      if (coding === 'sse') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        const gzip = zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
        gzip.pipe(response);
        gzip.write('data: first\n\n');
        // the second event is sent only once the client has read the first
        server.sendRest = () => gzip.end('data: second\n\n');
        return;
      }
      const encode = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync }[coding as 'gzip'];
      response.writeHead(200, { 'content-encoding': coding });
      response.end(encode(Buffer.from(text)));
    }) as TestServer & { sendRest?: () => void };
    const fetch = createNodeFetch();
    for (const coding of ['gzip', 'deflate', 'br']) expect(await (await fetch(`${server.url}/${coding}`)).text()).toBe(text);
    expect(server.received[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
    const reader = (await fetch(`${server.url}/sse`)).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    server.sendRest?.();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  test('HEAD and 204 answers have no body; clone() gives two readers', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/empty') return void response.writeHead(204).end();
      json(response, { n: 1 });
    });
    const fetch = createNodeFetch();
    expect((await fetch(`${server.url}/x`, { method: 'HEAD' })).body).toBeNull();
    const empty = await fetch(`${server.url}/empty`);
    expect(empty.body).toBeNull();
    expect(await empty.text()).toBe('');
    const original = await fetch(`${server.url}/x`);
    const copy = original.clone();
    expect(await copy.json()).toEqual({ n: 1 });
    expect(await original.text()).toBe('{"n":1}');
    await expect(original.text()).rejects.toThrow(TypeError);
    expect(() => original.clone()).toThrow(/already been read/);
  });

  test('a scheme other than http(s) is refused by name', async () => {
    await expect(createNodeFetch()('file:///etc/passwd')).rejects.toThrow('fetch: the file: scheme is not supported (only http: and https:)');
  });
});

describe('createNodeFetch: redirects', () => {
  test('303 and POST 301/302 become a GET without a body; 307/308 keep method and body', async () => {
    const server = await serve((request, response) => {
      const status = Number(request.url.slice(1));
      if (status >= 300) return void response.writeHead(status, { location: '/done' }).end();
      json(response, { method: request.method, body: request.body });
    });
    const fetch = createNodeFetch();
    for (const [status, expected] of [[303, { method: 'GET', body: '' }], [302, { method: 'GET', body: '' }], [301, { method: 'GET', body: '' }], [307, { method: 'POST', body: 'payload' }], [308, { method: 'POST', body: 'payload' }]] as const) {
      const response = await fetch(`${server.url}/${status}`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
      expect([status, await response.json()]).toEqual([status, expected]);
      expect(response.redirected).toBe(true);
      expect(response.url).toBe(`${server.url}/done`);
    }
    expect(server.received.find((entry) => entry.url === '/done' && entry.method === 'GET')?.headers['content-type']).toBeUndefined();
  });

  test('credentials are dropped when the redirect leaves the origin, kept when it does not', async () => {
    const other = await serve((request, response) => json(response, request.headers));
    const server = await serve((request, response) => {
      if (request.url === '/same') return void response.writeHead(302, { location: '/echo' }).end();
      if (request.url === '/echo') return json(response, request.headers);
      response.writeHead(302, { location: `${other.url}/echo` }).end();
    });
    const fetch = createNodeFetch();
    const headers = { authorization: 'Bearer secret', 'x-api-key': 'secret', 'api-key': 'secret', cookie: 'a=1', 'x-kept': 'yes' };
    const away = (await (await fetch(`${server.url}/away`, { headers })).json()) as Record<string, string>;
    expect(away['x-kept']).toBe('yes');
    for (const name of ['authorization', 'x-api-key', 'api-key', 'cookie']) expect(away[name]).toBeUndefined();
    const same = (await (await fetch(`${server.url}/same`, { headers })).json()) as Record<string, string>;
    expect(same).toMatchObject(headers);
  });

  test(`follows exactly ${DEFAULT_MAX_REDIRECTS} redirects and refuses one more`, async () => {
    const server = await serve((request, response) => {
      const left = Number(request.url.slice(1));
      if (left === 0) return json(response, { arrived: true });
      response.writeHead(302, { location: `/${left - 1}` }).end();
    });
    const fetch = createNodeFetch();
    expect(await (await fetch(`${server.url}/${DEFAULT_MAX_REDIRECTS}`)).json()).toEqual({ arrived: true });
    const error = await rejection(fetch(`${server.url}/${DEFAULT_MAX_REDIRECTS + 1}`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.message).toBe(`more than ${DEFAULT_MAX_REDIRECTS} redirects`);
  });

  test('redirect: "error" rejects, "manual" returns the redirect itself; a streamed body is not resent', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/target') return json(response, {});
      response.writeHead(307, { location: '/target' }).end();
    });
    const fetch = createNodeFetch();
    expect((await rejection(fetch(`${server.url}/r`, { redirect: 'error' }))).cause?.message).toBe('redirected to /target (redirect: "error")');
    const manual = await fetch(`${server.url}/r`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([307, '/target']);
    async function* body(): AsyncIterable<string> {
      yield 'once';
    }
    const streamed = await rejection(fetch(`${server.url}/r`, { method: 'POST', body: body() as unknown as RequestInit["body"] }));
    expect(streamed.cause?.message).toMatch(/a streamed request body cannot be sent again to .*\/target \(HTTP 307\)/);
  });
});

describe('createNodeFetch: failures and aborts', () => {
  test('a refused connection rejects with TypeError("fetch failed") and the socket error as cause', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    servers.length = 0;
    const error = await rejection(createNodeFetch()(url));
    expect([error.name, error.message, error.cause?.code]).toEqual(['TypeError', 'fetch failed', 'ECONNREFUSED']);
  });

  test('a body cut off mid-way errors the reader with TypeError("terminated")', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: partial\n\n', () => setTimeout(() => response.socket?.destroy(), 20));
    });
    const response = await createNodeFetch()(server.url);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: partial\n\n');
    const error = await rejection(reader.read());
    expect([error.name, error.message]).toEqual(['TypeError', 'terminated']);
    expect([error.cause?.code, error.cause?.message]).toEqual(['ECONNRESET', 'aborted']);
  });

  test('silence longer than the idle limit fails the request; an answer just inside it does not', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/slow') return; // never answers
      setTimeout(() => json(response, { ok: true }), 50);
    });
    const fetch = createNodeFetch({ idleTimeoutMs: 300 });
    expect(await (await fetch(`${server.url}/quick`)).json()).toEqual({ ok: true });
    const error = await rejection(fetch(`${server.url}/slow`));
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ETIMEDOUT');
    expect(error.cause?.message).toBe('no data from the server for 0.3 s (idle timeout)');
  });

  test('a kept-alive socket the server dropped is replaced once, transparently', async () => {
    let first: Socket | undefined;
    const server = await serve((request, response) => {
      // The server "forgets" the first connection: a request arriving on it is dropped unanswered.
      if (first === undefined) first = request.socket;
      else if (request.socket === first) return void request.socket.destroy();
      json(response, { n: server.received.length });
    });
    const fetch = createNodeFetch();
    await (await fetch(server.url, { method: 'POST', body: 'a' })).text();
    expect(await (await fetch(server.url, { method: 'POST', body: 'b' })).json()).toEqual({ n: 3 });
    expect(server.connections).toBe(2);
  });

  test('aborting before, while waiting for headers and while reading the body rejects with the reason', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/hang') return;
      response.writeHead(200);
      response.write('started');
    });
    const fetch = createNodeFetch();
    const before = new AbortController();
    before.abort();
    expect((await rejection(fetch(server.url, { signal: before.signal }))).name).toBe('AbortError');

    const waiting = new AbortController();
    const pending = fetch(`${server.url}/hang`, { signal: waiting.signal });
    setTimeout(() => waiting.abort(new Error('user pressed Esc')), 30);
    expect((await rejection(pending)).message).toBe('user pressed Esc');

    const reading = new AbortController();
    const reader = (await fetch(`${server.url}/body`, { signal: reading.signal })).body!.getReader();
    await reader.read();
    reading.abort();
    expect((await rejection(reader.read())).name).toBe('AbortError');
  });

  test('100 requests on one signal leave no abort listener behind and print no warning', async () => {
    const server = await serve((_request, response) => json(response, {}));
    const fetch = createNodeFetch();
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 100; i++) await (await fetch(server.url, { method: 'POST', body: String(i), signal: controller.signal })).text();
      const response = await fetch(server.url, { signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1); // this one's body is unread
      await response.text();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
