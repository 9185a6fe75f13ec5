/**
 * The `Response` that `createNodeFetch` answers with: the members both vendor SDKs read
 * (status, headers, a web `ReadableStream` body, text/json/arrayBuffer/blob, clone, bodyUsed),
 * built on Node's `IncomingMessage` so undici is never initialised.
 */
import { Blob } from 'node:buffer';
import type { Readable } from 'node:stream';
import { WebHeaders } from './web-headers.js';

/** Chunks buffered ahead of the reader before the socket is paused. */
const BODY_HIGH_WATER_MARK = 16;

export interface FetchResponseInit {
  readonly status: number;
  readonly statusText: string;
  readonly headers: WebHeaders;
  readonly url: string;
  readonly redirected: boolean;
}

export class FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: WebHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic';
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(init: FetchResponseInit, body: ReadableStream<Uint8Array> | null) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
    this.redirected = init.redirected;
    this.#body = body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    // TextDecoder drops a leading BOM, as fetch's text() does.
    return new TextDecoder('utf-8').decode(await this.#consume());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.#consume()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): FetchResponse {
    if (this.#used || this.#body?.locked === true) throw new TypeError('Response.clone: the body has already been read');
    const init = { status: this.status, statusText: this.statusText, headers: new WebHeaders(this.headers), url: this.url, redirected: this.redirected };
    if (this.#body === null) return new FetchResponse(init, null);
    const [mine, theirs] = this.#body.tee();
    this.#body = mine;
    return new FetchResponse(init, theirs);
  }

  async #consume(): Promise<Uint8Array> {
    if (this.#used || this.#body?.locked === true) throw new TypeError('Response: the body has already been read');
    this.#used = true;
    if (this.#body === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.#body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  }
}

/**
 * A web stream over a Node stream, with backpressure (the source is paused while the reader is
 * BODY_HIGH_WATER_MARK chunks behind). `settle` runs once, when the body ends, fails or is
 * cancelled; `failure` turns a source error into the error the reader sees.
 */
export function webStreamOf(source: Readable, settle: () => void, failure: (error: Error) => Error): ReadableStream<Uint8Array> {
  let settled = false;
  const finish = (): void => {
    if (settled) return;
    settled = true;
    settle();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (settled) return;
          finish();
          controller.close();
        });
        source.on('error', (error: Error) => {
          if (settled) return;
          finish();
          controller.error(failure(error));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finish();
        source.destroy();
      },
    },
    { highWaterMark: BODY_HIGH_WATER_MARK },
  );
}
