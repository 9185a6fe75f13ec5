/**
 * The top-level `"id"` member of one JSON-RPC message, read as its bytes stream by, wherever the
 * member sits: JSON leaves key order to the client, and a request whose `"id"` comes after a
 * 32 MiB `params` must still be answered. Only the top-level object's member counts: an `"id"`
 * nested in `params` (a tool call's, a resource's) is another thing, and answering under it would
 * answer a request the client never sent. The scan keeps a few counters and the id's own bytes,
 * never the line.
 *
 * Its top-level `"method"`, `"result"` and `"error"` members tell a response from a request: a
 * dropped response must never be answered (line-cap.ts).
 *
 * One pass, whatever the line holds: the bulk of a large line is one string (a file's text), and
 * its next quote and next backslash are each looked for once, natively, from where the last look
 * left off (looking again for both at every escape was quadratic on a text full of `\n`).
 *
 * When the line is not one JSON object (a batch, garbage, a line cut short) no id is found: a
 * wrong answer is worse than none (the client's own timeout still ends its wait). A duplicated
 * top-level `"id"` gives the last one, as JSON.parse does.
 */

/** An id longer than this is no id a client uses; not answered. */
const MAX_ID_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * The next quote or backslash of one chunk, from a position that only moves forward: each kind is
 * looked for again only once the position has passed the one found, so the chunk is read once.
 */
class SpecialBytes {
  private quote = -1;
  private backslash = -1;
  private quoteSearched = false;
  private backslashSearched = false;

  constructor(private readonly bytes: Uint8Array) {}

  /** Where the next quote or backslash at or after `from` is (the chunk's length: none). */
  next(from: number): number {
    const end = this.bytes.length;
    if (!this.quoteSearched || (this.quote < from && this.quote !== end)) {
      const at = this.bytes.indexOf(QUOTE, from);
      this.quote = at < 0 ? end : at;
      this.quoteSearched = true;
    }
    if (!this.backslashSearched || (this.backslash < from && this.backslash !== end)) {
      const at = this.bytes.indexOf(BACKSLASH, from);
      this.backslash = at < 0 ? end : at;
      this.backslashSearched = true;
    }
    return Math.min(this.quote, this.backslash);
  }
}

export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Whether the message is (so far) one object: its first byte was `{` and it did not end before its last. */
  private wellFormed = true;
  private started = false;
  private ended = false;
  /** At the top level: expecting a key, reading one, or past the key (its value). */
  private place: 'key' | 'in-key' | 'value' = 'key';
  /** The top-level key being read (only whether it is `id` or `method` matters: capped). */
  private key = '';
  /** The raw bytes of the top-level `id` value being read, undefined when it is not being read. */
  private value: number[] | undefined;
  private found: number | string | undefined;
  /** Which of `method`, `result`, `error` the top-level object has. */
  private readonly members = new Set<string>();

  feed(bytes: Uint8Array): void {
    const special = new SpecialBytes(bytes);
    let i = 0;
    while (i < bytes.length) {
      // The bulk of a large line is one string (a resource's text): skipped to its next quote or
      // backslash natively, not byte by byte.
      if (this.inString && !this.escaped && !this.value && this.place !== 'in-key') {
        i = special.next(i);
        if (i >= bytes.length) return;
      }
      this.step(bytes[i]!);
      i += 1;
    }
  }

  /** The id, once the whole message was fed (undefined when there is none or the line is not one object). */
  id(): number | string | undefined {
    return this.wellFormed && this.ended ? this.found : undefined;
  }

  /**
   * Whether the whole message was one object shaped as a response: a top-level `"result"` or
   * `"error"` and no `"method"` (one with neither is an invalid request, answered as a request).
   */
  isResponse(): boolean {
    return this.wellFormed && this.ended && !this.members.has('method') && (this.members.has('result') || this.members.has('error'));
  }

  private step(byte: number): void {
    if (!this.wellFormed) return;
    if (!this.started) {
      if (isSpace(byte)) return;
      this.started = true;
      if (byte !== OPEN_OBJECT) this.wellFormed = false;
      else this.depth = 1;
      return;
    }
    if (this.ended) {
      if (!isSpace(byte)) this.wellFormed = false;
      return;
    }
    if (this.value && this.depth >= 1) this.keepValueByte(byte);
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        if (this.depth === 1 && this.place === 'in-key') {
          this.place = 'value';
          if (this.key === 'method' || this.key === 'result' || this.key === 'error') this.members.add(this.key);
        }
      } else if (this.depth === 1 && this.place === 'in-key' && this.key.length < 7) this.key += String.fromCharCode(byte);
      return;
    }
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.place === 'key') {
          this.place = 'in-key';
          this.key = '';
        }
        return;
      case COLON:
        if (this.depth === 1 && this.place === 'value' && this.key === 'id' && !this.value) this.value = [];
        return;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.depth += 1;
        return;
      case CLOSE_ARRAY:
        this.depth -= 1;
        return;
      case CLOSE_OBJECT:
        this.depth -= 1;
        if (this.depth === 0) {
          this.endMember();
          this.ended = true;
        }
        return;
      case COMMA:
        if (this.depth === 1) {
          this.endMember();
          this.place = 'key';
        }
        return;
      default:
        return;
    }
  }

  /** The value's bytes, up to the `,` or `}` that ends it at the top level (not kept). */
  private keepValueByte(byte: number): void {
    const value = this.value!;
    const endsIt = !this.inString && this.depth === 1 && (byte === COMMA || byte === CLOSE_OBJECT);
    if (endsIt) return;
    if (value.length >= MAX_ID_BYTES) {
      value.length = MAX_ID_BYTES + 1; // marks it as too long
      return;
    }
    value.push(byte);
  }

  private endMember(): void {
    const value = this.value;
    this.value = undefined;
    if (!value) return;
    let parsed: unknown;
    try {
      parsed = value.length > MAX_ID_BYTES ? undefined : JSON.parse(Buffer.from(value).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    this.found = typeof parsed === 'number' || typeof parsed === 'string' ? parsed : undefined;
  }
}
