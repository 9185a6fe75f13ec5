/**
 * The `Response` that `createNodeFetch` answers with: the members both vendor SDKs read
 * (status, headers, a body with the web `ReadableStream` API, text/json/arrayBuffer/blob, clone,
 * bodyUsed), built on Node's `IncomingMessage` so undici is never initialised.
 */
import { Blob } from 'node:buffer';
import type { NodeBody } from './node-body.js';
import { WebHeaders } from './web-headers.js';

/** A `NodeBody` until `clone()` splits it into two web streams. */
type Body = NodeBody | ReadableStream<Uint8Array>;

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
  #body: Body | null;
  #used = false;

  constructor(init: FetchResponseInit, body: Body | null) {
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

  /** Typed as the standard's: a `NodeBody` has every member of `ReadableStream` the SDKs use. */
  get body(): ReadableStream<Uint8Array> | null {
    return this.#body as ReadableStream<Uint8Array> | null;
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
    for await (const chunk of this.#body as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}
