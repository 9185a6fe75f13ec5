/**
 * Is this text? Looks only at the start of the file (T2: the first 8 KiB), so the answer costs
 * one small read however large the file is. A NUL byte means binary (no text encoding we show uses
 * NUL; UTF-16 files land here too, which is fine: we only show UTF-8). Otherwise, a high share of
 * bytes that are not valid UTF-8 means binary or a legacy 8-bit encoding we would show as noise;
 * a few invalid bytes (a Latin-1 "é" in a comment) are shown as U+FFFD instead.
 */
export const SNIFF_BYTES = 8 * 1024;
/** Share of invalid bytes above which a file is not shown. */
const MAX_INVALID_SHARE = 0.3;

export type Sniff = { binary: false } | { binary: true; reason: string };

/** `sample` starts at the file's first byte; only its first SNIFF_BYTES are looked at. */
export function sniffBinary(sample: Uint8Array, atEndOfFile: boolean): Sniff {
  const end = Math.min(sample.length, SNIFF_BYTES);
  if (sample.subarray(0, end).includes(0)) return { binary: true, reason: 'it contains NUL bytes' };
  // A sequence cut by the 8 KiB window is not invalid, unless the file really ends there.
  const invalid = invalidUtf8Bytes(sample.subarray(0, end), !atEndOfFile || end < sample.length);
  if (end > 0 && invalid / end > MAX_INVALID_SHARE) {
    return { binary: true, reason: `${Math.round((invalid / end) * 100)}% of its first bytes are not valid UTF-8` };
  }
  return { binary: false };
}

/** Bytes that belong to no valid UTF-8 sequence (overlongs and surrogates count as invalid). */
export function invalidUtf8Bytes(bytes: Uint8Array, tailMayContinue: boolean): number {
  let invalid = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) {
      invalid++;
      i++;
      continue;
    }
    if (i + length > bytes.length && tailMayContinue && continuationsUpTo(bytes, i + 1, bytes.length)) break;
    if (i + length > bytes.length || !continuationsUpTo(bytes, i + 1, i + length) || !inRange(lead, bytes[i + 1] as number)) {
      invalid++;
      i++;
      continue;
    }
    i += length;
  }
  return invalid;
}

function continuationsUpTo(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (((bytes[k] as number) & 0xc0) !== 0x80) return false;
  return true;
}

/** The second byte's range excludes overlong forms, surrogates and code points above U+10FFFF. */
function inRange(lead: number, second: number): boolean {
  if (lead === 0xe0) return second >= 0xa0;
  if (lead === 0xed) return second <= 0x9f;
  if (lead === 0xf0) return second >= 0x90;
  if (lead === 0xf4) return second <= 0x8f;
  return true;
}

/**
 * The sniff of an open file's first bytes on disk. A file tool whose text comes from somewhere
 * else (an editor's buffer, TOKENS.WorkspaceFiles) still refuses what is binary on disk.
 */
export async function sniffFileHead(handle: { read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> }): Promise<Sniff> {
  const head = Buffer.allocUnsafe(SNIFF_BYTES);
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
  return sniffBinary(head.subarray(0, bytesRead), bytesRead < SNIFF_BYTES);
}
