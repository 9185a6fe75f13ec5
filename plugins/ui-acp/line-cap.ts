/**
 * Incoming messages over the size the ACP SDK reads (its line cap): the SDK ends the whole
 * connection on one, silently. Such a line is dropped here instead, before the SDK sees it: a
 * request among them is answered with a JSON-RPC error saying why (its top-level id, wherever it
 * sits in the line: top-level-id.ts), a notification is said on stderr, and the connection goes on.
 *
 * A response among them (an id, a `result` or `error`, no `method`: the editor's answer to the agent's own request, a
 * huge buffer for fs/read_text_file) is never answered: a response to a response is no message
 * JSON-RPC has. The agent's request it answered would wait forever, so in its place the SDK is
 * handed a small error response under that id: the request fails, saying why.
 *
 * The line is never gathered: its parts go through the id scanner as they come, one pass.
 */
import { TopLevelIdScanner } from './top-level-id.js';

const NEWLINE = 0x0a;

export interface LineCapOptions {
  /** The longest line passed on, in bytes (without its line end). */
  maxBytes: number;
  /** Writes one JSON-RPC message (a line) to the editor. */
  reply(message: object): void;
  /** Says a problem on stderr. */
  warn(text: string): void;
}

export function capIncomingLines(input: ReadableStream<Uint8Array>, options: LineCapOptions): ReadableStream<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  /** Set while the current line is over the cap: its id as read so far, and its size so far. */
  let dropping: { id: TopLevelIdScanner; bytes: number } | undefined;

  const dropped = (line: { id: TopLevelIdScanner; bytes: number }, controller: TransformStreamDefaultController<Uint8Array>): void => {
    const id = line.id.id();
    const what = `an incoming message of ${line.bytes} bytes is over the ${options.maxBytes} bytes this agent reads`;
    if (id !== undefined && line.id.isResponse()) {
      options.warn(`mewcode: acp: ${what}; it was not read (an answer to the agent's request ${JSON.stringify(id)}, which fails)\n`);
      const message = `the editor's answer was over ${sizeName(options.maxBytes)} (${line.bytes} bytes), more than this agent reads; it was not read`;
      controller.enqueue(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } })}\n`, 'utf8'));
      return;
    }
    options.warn(`mewcode: acp: ${what}; it was not read${id === undefined ? '' : ' (answered with an error)'}\n`);
    if (id !== undefined) {
      options.reply({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid request: ${what}; send less (a resource_link instead of a large embedded resource)` } });
    }
  };

  const take = (segment: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>, lineEnds: boolean): void => {
    if (dropping) {
      dropping.bytes += segment.byteLength;
      dropping.id.feed(segment);
    } else if (pendingBytes + segment.byteLength > options.maxBytes) {
      dropping = { id: new TopLevelIdScanner(), bytes: pendingBytes + segment.byteLength };
      for (const part of pending) dropping.id.feed(part);
      dropping.id.feed(segment);
      pending = [];
      pendingBytes = 0;
    } else if (lineEnds) {
      for (const part of pending) controller.enqueue(part);
      controller.enqueue(segment);
      pending = [];
      pendingBytes = 0;
    } else {
      // Copied: the reader may reuse its chunk.
      pending.push(segment.slice());
      pendingBytes += segment.byteLength;
    }
    if (lineEnds && dropping) {
      dropped(dropping, controller);
      dropping = undefined;
    }
  };

  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let start = 0;
        for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
          // The line end itself goes on with the line (or with nothing, when the line was dropped).
          take(chunk.subarray(start, end + 1), controller, true);
          start = end + 1;
        }
        if (start < chunk.byteLength) take(chunk.subarray(start), controller, false);
      },
      flush(controller) {
        if (dropping) dropped(dropping, controller);
        else for (const part of pending) controller.enqueue(part);
      },
    }),
  );
}

/** A size as said to the editor: whole MiB when it is that large (the SDK's cap, less a margin, is "32 MiB"). */
function sizeName(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes >= mib ? `${Math.ceil(bytes / mib)} MiB` : `${bytes} bytes`;
}
