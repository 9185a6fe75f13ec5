/**
 * How glob and grep show a file's path: one line of text per file, distinct files never shown
 * alike. A name is bytes; most are valid UTF-8 and are shown as they are. Escaped, byte by byte,
 * as `\xNN`: a byte that is not part of valid UTF-8 (so `\xff.txt`, `\xfe.txt` and a real
 * `\uFFFD.txt` stay three names), and every control character (ASCII controls, DEL, the 0x80–0x9F controls, U+2028/U+2029 — a
 * newline in a name would otherwise forge result lines). A backslash is shown doubled, so the
 * escaping is reversible (`parseDisplayName`, `nameOfShownPath`: a shown name given back as a
 * path is found) and no real name can pass for an escaped one.
 */

/** Characters that make a valid-UTF-8 name need escaping. */
const NEEDS_ESCAPE = /[\u0000-\u001f\u007f-\u009f\\\u2028\u2029]/;

function hex(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** Length of the well-formed UTF-8 sequence at `i` (0 when the byte there starts none). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  let need = 0;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 1;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return 0;
  for (let k = 0; k < need; k++) {
    const c = bytes[i + 1 + k];
    if (c === undefined || c < (k === 0 ? lo : 0x80) || c > (k === 0 ? hi : 0xbf)) return 0;
  }
  return need + 1;
}

/**
 * The shown form of a path: `bytes` when the name is not valid UTF-8 (the walkers hand them over
 * then), else the string itself.
 */
export function displayName(rel: string, bytes?: Uint8Array): string {
  // A path that came in as a shown name carries its bytes as escaped characters (pathFromBytes).
  if (bytes === undefined && hasEscapedBytes(rel)) bytes = fsPath(rel) as Buffer;
  if (bytes === undefined && !NEEDS_ESCAPE.test(rel)) return rel;
  const raw = bytes ?? Buffer.from(rel, 'utf8');
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const length = sequenceLength(raw, i);
    if (length === 0) {
      out += hex(raw[i]!);
      i++;
      continue;
    }
    const char = Buffer.from(raw.subarray(i, i + length)).toString('utf8');
    if (char === '\\') out += '\\\\';
    else if (NEEDS_ESCAPE.test(char)) for (let k = 0; k < length; k++) out += hex(raw[i + k]!);
    else out += char;
    i += length;
  }
  return out;
}

/**
 * The bytes a shown path stands for, when it holds escapes (`\xNN`, `\\`); undefined when it
 * holds none (then the string is the name). A path the model copies from glob or grep can
 * thus be given back as `path`.
 */
export function parseDisplayName(shown: string): Buffer | undefined {
  if (!/\\(?:x[0-9a-fA-F]{2}|\\)/.test(shown)) return undefined;
  const parts: Buffer[] = [];
  let from = 0;
  const escape = /\\(?:x([0-9a-fA-F]{2})|\\)/g;
  for (let m = escape.exec(shown); m; m = escape.exec(shown)) {
    parts.push(Buffer.from(shown.slice(from, m.index), 'utf8'));
    parts.push(m[1] !== undefined ? Buffer.from([parseInt(m[1], 16)]) : Buffer.from('\\'));
    from = m.index + m[0].length;
  }
  parts.push(Buffer.from(shown.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * A name's bytes decoded for matching ignore rules as ripgrep matches them (on bytes): each byte
 * that is not part of valid UTF-8 becomes U+FFFF, one character to `?` and `*`, and unlike the
 * U+FFFD of a lossy decoding, never equal to a rule's character (rules are valid UTF-8, and
 * U+FFFF is a noncharacter no real rule holds).
 */
export function decodeForMatching(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += '\uFFFF';
      i++;
      continue;
    }
    out += Buffer.from(bytes.subarray(i, i + length)).toString('utf8');
    i += length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A shown name given back as a path. Node takes a path as a string (written as UTF-8) or as
// bytes; the tools, the permission rules and the sandbox work on strings. So a name's bytes that
// are not UTF-8 travel as a string in which each such byte 0xNN is the lone surrogate U+DCNN
// (Python's "surrogateescape"): no real name holds a lone surrogate (its UTF-8 form is itself not
// UTF-8, so it would be escaped), path.join and rule globs treat it as one character, and
// `fsPath` turns it back into the bytes at the file-system call.

const ESCAPED_BYTE = /[\uDC80-\uDCFF]/;

/** Whether a path string holds bytes that are not UTF-8 (then only `fsPath`'s bytes name it to the system). */
export function hasEscapedBytes(p: string): boolean {
  return ESCAPED_BYTE.test(p);
}

/** A name's bytes as a path string: valid UTF-8 as it is, each other byte as U+DC80–U+DCFF. */
export function pathFromBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]!);
      i++;
      continue;
    }
    out += Buffer.from(bytes.subarray(i, i + length)).toString('utf8');
    i += length;
  }
  return out;
}

/** What to hand Node's fs for a path string: the string itself, or its bytes when it holds escaped bytes (`pathFromBytes`). */
export function fsPath(p: string): string | Buffer {
  if (!ESCAPED_BYTE.test(p)) return p;
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < p.length; i++) {
    const code = p.charCodeAt(i);
    // A low surrogate after a high one is half of a real character, not an escaped byte.
    if (code < 0xdc80 || code > 0xdcff || (i > 0 && p.charCodeAt(i - 1) >= 0xd800 && p.charCodeAt(i - 1) <= 0xdbff)) continue;
    parts.push(Buffer.from(p.slice(from, i), 'utf8'), Buffer.from([code - 0xdc00]));
    from = i + 1;
  }
  parts.push(Buffer.from(p.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The name a path shown by glob or grep stands for (`\xNN` and `\\` decoded), as a path string
 * (`pathFromBytes`); undefined when it holds no escape. Whether to use it is the caller's: a real
 * file whose name is the shown text itself (a literal `\x41`) wins when it exists (shown-path.ts).
 */
export function nameOfShownPath(shown: string): string | undefined {
  const bytes = parseDisplayName(shown);
  return bytes === undefined ? undefined : pathFromBytes(bytes);
}
