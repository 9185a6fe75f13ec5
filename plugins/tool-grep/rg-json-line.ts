/**
 * One line of `rg --json` output, parsed with its line text cut short first.
 *
 * ripgrep's JSON printer always prints a matching or context line whole (`--max-columns` does
 * not apply to it), and a minified file's line is hundreds of kilobytes: parsing it, and turning
 * its text into bytes, was most of the engine's own time on a tree with bundled code. The engine
 * keeps only a line's first `keepBytes` bytes, so before parsing, the `lines` string is cut to a
 * prefix that decodes to at least that many (base64 at a four-character boundary).
 * The cut never splits an escape, a UTF-8 sequence or an escaped surrogate pair, so the kept
 * prefix is byte for byte the line's own, as the file check needs.
 * A message without such a field, or a short one, is parsed as it is. The cut is made on the bytes,
 * before decoding: a long line is never turned into a string whole.
 */

/** Below this many bytes a message is parsed whole (cutting would not pay). */
const SHORT_MESSAGE = 16 * 1024;
const TEXT_FIELD = Buffer.from('"lines":{"text":"');
const BYTES_FIELD = Buffer.from('"lines":{"bytes":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One line of ripgrep's JSON output (UTF-8 bytes, no newline), parsed. */
export function parseRipgrepMessage(line: Buffer, keepBytes: number): unknown {
  return JSON.parse((line.length > SHORT_MESSAGE ? cutLineText(line, keepBytes) : line).toString('utf8'));
}

/** `json` with its `lines` string shortened to a prefix of at least `keepBytes` bytes (when longer). */
export function cutLineText(json: Buffer, keepBytes: number): Buffer {
  // Outside a JSON string a quote is never escaped, and inside one it always is: the first
  // unescaped occurrence of the field's spelling is the field.
  let start = json.indexOf(TEXT_FIELD);
  let base64 = false;
  if (start === -1) {
    start = json.indexOf(BYTES_FIELD);
    if (start === -1) return json;
    base64 = true;
  }
  const from = start + (base64 ? BYTES_FIELD.length : TEXT_FIELD.length);
  const end = endOfString(json, from);
  if (end === -1) return json;
  const cut = base64 ? from + 4 * Math.ceil(keepBytes / 3) : prefixEnd(json, from, end, keepBytes);
  if (cut >= end) return json;
  return Buffer.concat([json.subarray(0, cut), json.subarray(end)]);
}

/** Index of the quote closing the string that starts at `from` (-1: none). */
function endOfString(json: Buffer, from: number): number {
  let quote = json.indexOf(QUOTE, from);
  while (quote !== -1) {
    let slashes = 0;
    while (json[quote - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    quote = json.indexOf(QUOTE, quote + 1);
  }
  return -1;
}

/**
 * Where a prefix of the string from `from` to its closing quote at `end` ends that decodes to at
 * least `bytes` bytes: between escapes every byte is the line's own, and an escape decodes to at
 * least one (so the loop steps from escape to escape, not byte by byte). Never inside an escape
 * or a UTF-8 sequence, and an escaped high surrogate keeps its escaped partner (a lone half would
 * decode to U+FFFD, bytes the line does not have).
 */
function prefixEnd(json: Buffer, from: number, end: number, bytes: number): number {
  let at = from;
  let kept = 0;
  while (at < end) {
    const slash = json.indexOf(BACKSLASH, at);
    const plain = (slash === -1 || slash > end ? end : slash) - at;
    if (kept + plain >= bytes) {
      let cut = at + (bytes - kept);
      while (cut < end && (json[cut]! & 0xc0) === 0x80) cut++; // a UTF-8 continuation byte
      return cut;
    }
    kept += plain;
    at += plain;
    if (at >= end) break;
    let length = 2; // \X
    if (json[at + 1] === 0x75) {
      const unit = Number.parseInt(json.toString('latin1', at + 2, at + 6), 16);
      length = unit >= 0xd800 && unit <= 0xdbff && json[at + 6] === BACKSLASH ? 12 : 6;
    }
    at += length;
    kept++;
    if (kept >= bytes) return at;
  }
  return end;
}
