/**
 * The body of a `FetchResponse`, read straight from Node's stream.
 *
 * Both vendor SDKs read a body by async iteration (`response.body[Symbol.asyncIterator]`), which
 * needs none of Node's web streams. Loading those (≈ 3 ms) and the first end of a web stream
 * (≈ 2 ms: releasing its reader builds an error in a fresh vm context) were paid once per
 * process, and with a fast first answer they fell between that answer and the next request.
 *
 * Whoever asks for the rest of the web stream API (`getReader`, `tee`, `pipeThrough`, `pipeTo`:
 * the MCP SDK, `clone()`) gets a real `ReadableStream` over the same chunks, built on first use.
 * Locking follows the standard: one reader at a time, whichever face it uses.
 *
 * Unlike a web stream, chunks already received are still read before a failure is reported, so a
 * stream cut off mid-way loses none of what arrived.
 */
import type { Readable } from 'node:stream';
import type { ReadableWritablePair, StreamPipeOptions } from 'node:stream/web';

/** Chunks buffered ahead of the reader before the source is paused. */
export const BODY_HIGH_WATER_MARK = 16;

type Chunk = IteratorResult<Uint8Array, undefined>;

const DONE: Chunk = Object.freeze({ done: true, value: undefined });

function lockedError(): TypeError {
  return new TypeError('Invalid state: ReadableStream is locked');
}

export class NodeBody implements AsyncIterable<Uint8Array> {
  readonly #source: Readable;
  readonly #settle: () => void;
  readonly #queue: Uint8Array[] = [];
  #ended = false;
  #error: Error | undefined;
  #waiting: { resolve: (chunk: Chunk) => void; reject: (error: Error) => void } | undefined;
  #settled = false;
  #iterating = false;
  #web: ReadableStream<Uint8Array> | undefined;

  /**
   * `settle` runs once, when the body ends, fails or is cancelled; `failure` turns a source
   * error into the error the reader sees.
   */
  constructor(source: Readable, settle: () => void, failure: (error: Error) => Error) {
    this.#source = source;
    this.#settle = settle;
    source.on('data', (chunk: Buffer) => this.#push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    source.once('end', () => this.#end());
    source.on('error', (error: Error) => this.#fail(failure(error)));
  }

  get locked(): boolean {
    return this.#iterating || this.#web?.locked === true;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this.values();
  }

  /** The web stream's `values()`: `return()` cancels the body unless `preventCancel`. */
  values(options: { preventCancel?: boolean } = {}): AsyncIterableIterator<Uint8Array> {
    if (this.#web !== undefined) return (this.#web as unknown as { values(o: object): AsyncIterableIterator<Uint8Array> }).values(options);
    if (this.#iterating) throw lockedError();
    this.#iterating = true;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#iterating = false;
    };
    const iterator: AsyncIterableIterator<Uint8Array> = {
      next: async () => {
        if (released) return DONE;
        try {
          const chunk = await this.#read();
          if (chunk.done === true) release();
          return chunk;
        } catch (error) {
          release();
          throw error;
        }
      },
      return: async () => {
        if (!released) {
          release();
          if (options.preventCancel !== true) this.#cancel();
        }
        return DONE;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    return this.#webStream().getReader();
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.#webStream().tee();
  }

  pipeThrough<T>(transform: ReadableWritablePair<T, Uint8Array>, options?: StreamPipeOptions): ReadableStream<T> {
    return this.#webStream().pipeThrough(transform, options);
  }

  pipeTo(destination: WritableStream<Uint8Array>, options?: StreamPipeOptions): Promise<void> {
    return this.#webStream().pipeTo(destination, options);
  }

  async cancel(reason?: unknown): Promise<void> {
    if (this.#web !== undefined) return this.#web.cancel(reason);
    if (this.#iterating) throw lockedError();
    this.#cancel();
  }

  /** The web stream face: a pull source over the same queue, so nothing is read twice. */
  #webStream(): ReadableStream<Uint8Array> {
    if (this.#web !== undefined) return this.#web;
    if (this.#iterating) throw lockedError();
    this.#web = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            const chunk = await this.#read();
            if (chunk.done === true) controller.close();
            else controller.enqueue(chunk.value);
          } catch (error) {
            controller.error(error);
          }
        },
        cancel: () => this.#cancel(),
      },
      // The queue above is the buffer: the web stream pulls only when read.
      { highWaterMark: 0 },
    );
    return this.#web;
  }

  #read(): Promise<Chunk> {
    const value = this.#queue.shift();
    if (value !== undefined) {
      if (this.#queue.length < BODY_HIGH_WATER_MARK && this.#source.isPaused()) this.#source.resume();
      return Promise.resolve({ done: false, value });
    }
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  #push(value: Uint8Array): void {
    if (this.#ended) return;
    const waiting = this.#takeWaiting();
    if (waiting !== undefined) return waiting.resolve({ done: false, value });
    this.#queue.push(value);
    if (this.#queue.length >= BODY_HIGH_WATER_MARK) this.#source.pause();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#finish();
    this.#takeWaiting()?.resolve(DONE);
  }

  #fail(error: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#finish();
    this.#takeWaiting()?.reject(error);
  }

  /** Nothing more is read: queued chunks are dropped and the connection closed. */
  #cancel(): void {
    this.#queue.length = 0;
    const wasEnded = this.#ended;
    this.#ended = true;
    this.#error = undefined;
    this.#finish();
    this.#takeWaiting()?.resolve(DONE);
    if (!wasEnded) this.#source.destroy();
  }

  #takeWaiting(): { resolve: (chunk: Chunk) => void; reject: (error: Error) => void } | undefined {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    return waiting;
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settle();
  }
}
