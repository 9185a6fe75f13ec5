// A raw node:http server for the provider plugins' tests: it answers each request with the next
// scripted response byte for byte, so a test can imitate a vendor's malformed or unusual stream
// (the scripted model server only speaks well-formed protocol).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** Send the body but never end the response (a server that stalls mid-stream). */
  hold?: boolean;
}

export interface RawVendorServer {
  url: string;
  /** The JSON bodies the server received, in order. */
  bodies: unknown[];
  /** The headers of each request, in order. */
  headers: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** One SSE body of `data:` lines, ending with `data: [DONE]` unless `done` is false. */
export function sse(chunks: readonly unknown[], done = true): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** Anthropic's event stream: `event: <type>` and its JSON data. */
export function anthropicSse(events: readonly ({ type: string } & Record<string, unknown>)[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** Answers request n with responses[n] (the last one repeats). */
export async function startRawVendorServer(responses: readonly RawResponse[]): Promise<RawVendorServer> {
  const bodies: unknown[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  let n = 0;
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      try {
        bodies.push(JSON.parse(text));
      } catch {
        bodies.push(text);
      }
      headers.push(request.headers);
      const next = responses[Math.min(n++, responses.length - 1)]!;
      response.writeHead(next.status ?? 200, next.headers ?? { 'content-type': 'text/event-stream' });
      if (next.hold) response.write(next.body);
      else response.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
