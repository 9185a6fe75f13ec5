/**
 * File names as the kernel keeps them: bytes, any but `/` and NUL, not necessarily UTF-8. A
 * sandboxed command can name a directory `m\xff`; decoded the usual way (UTF-8 with U+FFFD for
 * what does not decode) that name is lost, and a path built from it leads somewhere else, or
 * nowhere. So the git sweep carries names and paths as "byte strings": a name that is valid UTF-8
 * is its ordinary string, and each byte that is not part of a valid UTF-8 sequence becomes the
 * lone surrogate U+DC00 + byte (Python's "surrogateescape"). No valid UTF-8 decodes to a lone
 * surrogate, so the mapping is exact both ways; `/` and `.` keep their meaning, so `node:path`
 * joins and splits byte strings correctly; ordinary paths (the roots, and what the sweep reports)
 * are unchanged. A byte string is turned back into bytes (`toBytes`) at every file system call
 * (byte-fs.ts): handed to `node:fs` as a string, Node would encode a surrogate as U+FFFD.
 */

/** Lone surrogates in U+DC80..U+DCFF (not the second half of a pair): the escaped bytes. */
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const ESCAPED_ALL = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;

/** Bytes that may follow a lead byte in a valid UTF-8 sequence (Unicode's table 3-7), by lead byte. */
function sequence(lead: number): { length: number; low: number; high: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { length: 2, low: 0x80, high: 0xbf };
  if (lead === 0xe0) return { length: 3, low: 0xa0, high: 0xbf };
  if ((lead >= 0xe1 && lead <= 0xec) || lead === 0xee || lead === 0xef) return { length: 3, low: 0x80, high: 0xbf };
  if (lead === 0xed) return { length: 3, low: 0x80, high: 0x9f }; // not the UTF-16 surrogates
  if (lead === 0xf0) return { length: 4, low: 0x90, high: 0xbf };
  if (lead >= 0xf1 && lead <= 0xf3) return { length: 4, low: 0x80, high: 0xbf };
  if (lead === 0xf4) return { length: 4, low: 0x80, high: 0x8f }; // up to U+10FFFF
  return undefined;
}

/** The byte string of `bytes` (a name, a path, or a file's text). */
export function fromBytes(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  // Anything that does not decode becomes U+FFFD: without one, every byte decoded.
  if (!text.includes('\uFFFD')) return text;
  let out = '';
  let at = 0;
  while (at < bytes.length) {
    const lead = bytes[at]!;
    if (lead < 0x80) {
      out += String.fromCharCode(lead);
      at += 1;
      continue;
    }
    const valid = sequence(lead);
    let length = 0;
    if (valid && at + valid.length <= bytes.length) {
      const second = bytes[at + 1]!;
      length = second >= valid.low && second <= valid.high ? valid.length : 0;
      for (let k = 2; k < length; k++) if (bytes[at + k]! < 0x80 || bytes[at + k]! > 0xbf) length = 0;
    }
    if (length > 0) {
      out += bytes.toString('utf8', at, at + length);
      at += length;
    } else {
      out += String.fromCharCode(0xdc00 + lead);
      at += 1;
    }
  }
  return out;
}

/** The bytes a byte string stands for (an ordinary string: its UTF-8). */
export function toBytes(text: string): Buffer {
  if (!ESCAPED.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(ESCAPED_ALL)) {
    parts.push(Buffer.from(text.slice(from, match.index), 'utf8'), Buffer.from([match[0].charCodeAt(0) - 0xdc00]));
    from = match.index! + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** The byte string holds only valid UTF-8 (it can be passed on as an ordinary string: a process argument, a variable). */
export const isText = (text: string): boolean => !ESCAPED.test(text);

/** A byte string for a message: each byte that is not UTF-8 shown as `\xNN`. */
export const printable = (text: string): string => text.replace(ESCAPED_ALL, (byte) => `\\x${(byte.charCodeAt(0) - 0xdc00).toString(16).padStart(2, '0')}`);
