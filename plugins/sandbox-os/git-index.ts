/**
 * The submodules a git index registers (entries of mode 160000, "gitlinks"), read from the index
 * file itself: no git process, which the sweep after every command could not afford. Versions 2,
 * 3 and 4 (prefix-compressed paths) of the format, SHA-1 or SHA-256 object names, split indexes
 * included. The list is kept per index file and read again only when the file changed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const GITLINK = 0o160000;
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

const cache = new Map<string, { stamp: string; paths: string[] }>();

/**
 * Paths (relative to the work tree, `/`-separated) of the gitlinks in `<gitDir>/index`, and in the
 * shared indexes a split index keeps its entries in (`sharedindex.<hash>`: every one present is
 * read, which can only list more); empty when there is none or it cannot be read.
 */
export async function gitlinkPaths(gitDir: string): Promise<string[]> {
  let shared: string[] = [];
  try {
    shared = (await readdir(gitDir)).filter((name) => name.startsWith('sharedindex.'));
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const name of ['index', ...shared]) for (const link of await indexGitlinks(gitDir, path.join(gitDir, name))) found.add(link);
  return [...found];
}

async function indexGitlinks(gitDir: string, file: string): Promise<string[]> {
  let stamp: string;
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MAX_INDEX_BYTES) return [];
    stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  } catch {
    return [];
  }
  const cached = cache.get(file);
  if (cached?.stamp === stamp) return cached.paths;
  let paths: string[] = [];
  try {
    paths = parseGitlinks(await readFile(file), await hashLength(gitDir));
  } catch {
    paths = [];
  }
  cache.set(file, { stamp, paths });
  return paths;
}

/** 32 bytes for a SHA-256 repository (extensions.objectformat = sha256), else 20. */
async function hashLength(gitDir: string): Promise<number> {
  try {
    return /^\s*objectformat\s*=\s*sha256\s*$/im.test(await readFile(path.join(gitDir, 'config'), 'utf8')) ? 32 : 20;
  } catch {
    return 20;
  }
}

/** The gitlink paths of an index file's bytes (a malformed file yields what was read before the damage). */
export function parseGitlinks(data: Buffer, hashBytes = 20): string[] {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return [];
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return [];
  const count = data.readUInt32BE(8);
  const found: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    const start = at;
    const fixed = 40 + hashBytes + 2; // times, dev, ino, mode, uid, gid, size; the name; flags
    if (at + fixed > data.length) break;
    const mode = data.readUInt32BE(at + 24);
    const flags = data.readUInt16BE(at + 40 + hashBytes);
    at += fixed;
    if (version >= 3 && flags & 0x4000) at += 2; // extended flags
    let name: Buffer;
    if (version === 4) {
      // A varint: how many bytes of the previous path to drop, then the rest, NUL-terminated.
      let drop = 0;
      let byte: number;
      do {
        if (at >= data.length) return found;
        byte = data[at++]!;
        drop = (drop << 7) | (byte & 0x7f);
        if (byte & 0x80) drop += 1;
      } while (byte & 0x80);
      const end = data.indexOf(0, at);
      if (end < 0 || drop > previous.length) return found;
      name = Buffer.concat([previous.subarray(0, previous.length - drop), data.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = data.indexOf(0, at);
      if (end < 0) return found;
      name = data.subarray(at, end);
      // Padded with 1–8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    if ((mode & 0o170000) === GITLINK) found.push(name.toString('utf8'));
  }
  return found;
}
