/**
 * How glob and grep show a file's path: one line of text per file, distinct files never shown
 * alike. A name is bytes; most are valid UTF-8 and are shown as they are. Escaped, byte by byte,
 * as `\xNN`: a byte that is not part of valid UTF-8 (so `\xff.txt`, `\xfe.txt` and a real
 * `\uFFFD.txt` stay three names), and every control character (ASCII controls, DEL, the 0x80–0x9F controls, U+2028/U+2029 — a
 * newline in a name would otherwise forge result lines). A backslash is shown doubled, so the
 * escaping is reversible (`parseDisplayName`) and no real name can pass for an escaped one.
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
