/**
 * Test helper: reads the entries of an index git wrote (version 2 or 3, SHA-1) and writes them
 * back in any version, with the changes a hostile command could make (a NUL inside a name with
 * the length field covering it, an extended-flags word in version 2, bytes after the entries).
 * git itself (`git ls-files --stage`) is the judge of what the result means.
 */
import { createHash } from 'node:crypto';

export interface IndexEntry {
  /** ctime, mtime, dev, ino, mode, uid, gid, size: 40 bytes. */
  stat: Buffer;
  oid: Buffer;
  /** The flags' stage and assume-valid bits (the length and extended bits are written from the rest). */
  flags: number;
  /** The extended-flags word, written (and the flag set) when defined. */
  extended?: number;
  name: Buffer;
}

export function readEntries(data: Buffer): IndexEntry[] {
  const count = data.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let n = 0; n < count; n++) {
    const flags = data.readUInt16BE(at + 60);
    const extendedFlag = (flags & 0x4000) !== 0;
    const nameAt = at + 62 + (extendedFlag ? 2 : 0);
    const length = flags & 0xfff;
    entries.push({
      stat: data.subarray(at, at + 40),
      oid: data.subarray(at + 40, at + 60),
      flags: flags & 0xb000,
      extended: extendedFlag ? data.readUInt16BE(at + 62) : undefined,
      name: data.subarray(nameAt, nameAt + length),
    });
    at += (nameAt - at + length + 8) & ~7;
  }
  return entries;
}

function varint(value: number): Buffer {
  // git's encode_varint
  const bytes = [value & 127];
  while ((value = Math.floor(value / 128)) > 0) {
    value -= 1;
    bytes.unshift(128 | (value & 127));
  }
  return Buffer.from(bytes);
}

const u16 = (value: number): Buffer => {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
};

export function writeIndex(version: number, entries: readonly IndexEntry[], options: { extensions?: Buffer; count?: number } = {}): Buffer {
  const header = Buffer.alloc(12);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(version, 4);
  header.writeUInt32BE(options.count ?? entries.length, 8);
  const parts: Buffer[] = [header];
  let previous: Buffer = Buffer.alloc(0);
  for (const entry of entries) {
    const length = Math.min(entry.name.length, 0xfff);
    const flags = entry.flags | (entry.extended !== undefined ? 0x4000 : 0) | length;
    const fixed = Buffer.concat([entry.stat, entry.oid, u16(flags), entry.extended !== undefined ? u16(entry.extended) : Buffer.alloc(0)]);
    if (version === 4) {
      let common = 0;
      while (common < previous.length && common < entry.name.length && previous[common] === entry.name[common]) common++;
      parts.push(fixed, varint(previous.length - common), entry.name.subarray(common), Buffer.alloc(1));
      previous = entry.name;
    } else {
      const size = (fixed.length + entry.name.length + 8) & ~7;
      parts.push(fixed, entry.name, Buffer.alloc(size - fixed.length - entry.name.length));
    }
  }
  if (options.extensions) parts.push(options.extensions);
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

/** An extension: signature, size, content. */
export function extension(signature: string, content: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(8);
  head.write(signature, 0, 'latin1');
  head.writeUInt32BE(content.length, 4);
  return Buffer.concat([head, content]);
}

/** The first entry's name given a NUL and more bytes inside its recorded length (the audit's planted index). */
export function withNulInFirstName(entries: readonly IndexEntry[]): IndexEntry[] {
  const [first, ...rest] = entries;
  return [{ ...first!, name: Buffer.concat([first!.name, Buffer.from('\0bbbbbbbb', 'latin1')]) }, ...rest];
}
