/**
 * A file's bytes as ripgrep searches them (its default `--encoding auto`): a byte-order mark at
 * the start decides the encoding, nothing else does.
 * - UTF-8 BOM (EF BB BF): removed; the rest is searched as it is (invalid bytes stay invalid).
 * - UTF-16LE (FF FE) or UTF-16BE (FE FF) BOM: the text is transcoded to UTF-8, a lone surrogate or
 *   a final odd byte becoming U+FFFD (the WHATWG decoder, as encoding_rs in ripgrep), so `^` holds
 *   on the first line and a UTF-16 file is text, not binary (a NUL character in it still makes it
 *   binary: the NUL test runs on the transcoded bytes).
 * - Anything else, UTF-16 without a BOM included, is read as it is (UTF-16 without a BOM has NUL
 *   bytes: binary, as in ripgrep).
 * Line numbers are unchanged; byte offsets are the transcoded stream's (as ripgrep's).
 */
import { readSync } from 'node:fs';

export type TextEncoding = 'plain' | 'utf8-bom' | 'utf16le' | 'utf16be';

export interface TextReader {
  readonly encoding: TextEncoding;
  /** Like readSync: up to `length` bytes of the (transcoded) text into `buffer` at `offset`; 0 at the end. */
  read(buffer: Buffer, offset: number, length: number): number;
}

const RAW_CHUNK = 64 * 1024;

/** The encoding a file's first bytes announce (`head`: at least its first 3 bytes, fewer when it is shorter). */
export function sniffEncoding(head: Uint8Array): TextEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8-bom';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return 'plain';
}

export function openTextReader(fd: number): TextReader {
  const head = Buffer.alloc(3);
  const got = readSync(fd, head, 0, 3, 0);
  const encoding = sniffEncoding(head.subarray(0, got));
  if (encoding === 'utf16le' || encoding === 'utf16be') return utf16Reader(fd, encoding);
  let position = encoding === 'utf8-bom' ? 3 : 0;
  return {
    encoding,
    read(buffer, offset, length) {
      const read = readSync(fd, buffer, offset, length, position);
      position += read;
      return read;
    },
  };
}

function utf16Reader(fd: number, encoding: 'utf16le' | 'utf16be'): TextReader {
  // One little-endian decoder for both: big-endian pairs are swapped first (no ICU needed).
  const decoder = new TextDecoder('utf-16le', { ignoreBOM: true });
  const raw = Buffer.allocUnsafe(RAW_CHUNK);
  let position = 2;
  let pending = Buffer.alloc(0);
  let at = 0;
  let ended = false;
  let oddByte: number | undefined; // big-endian: a byte whose pair is in the next chunk

  const fill = (): void => {
    const read = readSync(fd, raw, 0, raw.length, position);
    position += read;
    let text: string;
    if (read === 0) {
      ended = true;
      text = oddByte === undefined ? decoder.decode() : decoder.decode(Uint8Array.of(oddByte)) + decoder.decode();
      oddByte = undefined;
    } else if (encoding === 'utf16le') {
      text = decoder.decode(raw.subarray(0, read), { stream: true });
    } else {
      const bytes = oddByte === undefined ? Buffer.from(raw.subarray(0, read)) : Buffer.concat([Uint8Array.of(oddByte), raw.subarray(0, read)]);
      const even = bytes.length & ~1;
      oddByte = even < bytes.length ? bytes[even] : undefined;
      const swapped = bytes.subarray(0, even);
      swapped.swap16();
      text = decoder.decode(swapped, { stream: true });
    }
    pending = Buffer.from(text, 'utf8');
    at = 0;
  };

  return {
    encoding,
    read(buffer, offset, length) {
      while (at >= pending.length && !ended) fill();
      const count = Math.min(length, pending.length - at);
      pending.copy(buffer, offset, at, at + count);
      at += count;
      return count;
    },
  };
}
