/**
 * Turns a `fetch` body (string, bytes, URLSearchParams, Blob, FormData, ReadableStream or async
 * iterable) into what `http.request` can send, with the Content-Type the Fetch standard gives it.
 * Buffered bodies carry a length and can be sent again after a 307/308 redirect; streams cannot.
 */
import { Blob } from 'node:buffer';

export interface EncodedBody {
  /** the whole body, or chunks to stream (sent chunked) */
  readonly bytes?: Uint8Array;
  readonly chunks?: AsyncIterable<Uint8Array>;
  /** the Content-Type to use when the caller set none */
  readonly contentType?: string;
}

export async function encodeRequestBody(body: unknown): Promise<EncodedBody | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8'), contentType: 'text/plain;charset=UTF-8' };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body) };
  if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof URLSearchParams) {
    return { bytes: Buffer.from(body.toString(), 'utf8'), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  if (body instanceof Blob) {
    return { bytes: new Uint8Array(await body.arrayBuffer()), ...(body.type === '' ? {} : { contentType: body.type }) };
  }
  if (tagOf(body) === 'FormData') return encodeFormData(body);
  if (isReadableStream(body)) return { chunks: readableChunks(body) };
  if (isAsyncIterable(body)) return { chunks: byteChunks(body) };
  // What fetch does with any other object: its string form.
  return { bytes: Buffer.from(String(body), 'utf8'), contentType: 'text/plain;charset=UTF-8' };
}

/**
 * Multipart bodies (file uploads) are rare and their encoding is long; the real `Response`
 * writes them, so undici is loaded only by a run that uploads a form.
 */
function encodeFormData(form: unknown): EncodedBody {
  const encoded = new globalThis.Response(form as FormData);
  const contentType = encoded.headers.get('content-type') ?? undefined;
  const stream = encoded.body;
  const content = stream ? { chunks: readableChunks(stream) } : { bytes: new Uint8Array(0) };
  return { ...content, ...(contentType === undefined ? {} : { contentType }) };
}

function tagOf(value: unknown): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

function isReadableStream(value: unknown): value is ReadableStream<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function* readableChunks(stream: ReadableStream<unknown>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield toBytes(value);
    }
  } finally {
    reader.releaseLock();
  }
}

async function* byteChunks(iterable: AsyncIterable<unknown>): AsyncIterable<Uint8Array> {
  for await (const chunk of iterable) yield toBytes(chunk);
}

function toBytes(chunk: unknown): Uint8Array {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError(`fetch: a streamed request body yielded a ${tagOf(chunk)}, not bytes or a string`);
}
