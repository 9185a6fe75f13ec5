/**
 * Incoming messages over the size the ACP SDK reads (its line cap): the SDK ends the whole
 * connection on one, silently. Such a line is dropped here instead, before the SDK sees it: a
 * request among them is answered with a JSON-RPC error saying why (its id read from the line's
 * start), a notification is said on stderr, and the connection goes on.
 */

/** How much of a dropped line is kept to find its id (`"id"` comes first in every known client's lines). */
const HEAD_BYTES = 4096;
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
  /** Set while the current line is over the cap: its start (for the id) and its size so far. */
  let dropping: { head: Uint8Array; bytes: number } | undefined;

  const dropped = (line: { head: Uint8Array; bytes: number }): void => {
    const id = requestId(Buffer.from(line.head).toString('utf8'));
    const what = `an incoming message of ${line.bytes} bytes is over the ${options.maxBytes} bytes this agent reads`;
    options.warn(`mewcode: acp: ${what}; it was not read${id === undefined ? '' : ' (answered with an error)'}\n`);
    if (id !== undefined) {
      options.reply({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid request: ${what}; send less (a resource_link instead of a large embedded resource)` } });
    }
  };

  const take = (segment: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>, lineEnds: boolean): void => {
    if (dropping) {
      dropping.bytes += segment.byteLength;
    } else if (pendingBytes + segment.byteLength > options.maxBytes) {
      const whole = Buffer.concat([...pending, segment]);
      dropping = { head: whole.subarray(0, HEAD_BYTES), bytes: whole.byteLength };
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
      dropped(dropping);
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
        if (dropping) dropped(dropping);
        else for (const part of pending) controller.enqueue(part);
      },
    }),
  );
}

/** The `"id"` of a JSON-RPC message from its first bytes, when it is there (a request's). */
function requestId(head: string): number | string | undefined {
  const match = /^\s*\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!match) return undefined;
  const raw = match[1]!;
  try {
    return JSON.parse(raw) as number | string;
  } catch {
    return undefined;
  }
}
