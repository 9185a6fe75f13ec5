/**
 * What the sweep needs from a git index, read from the file itself: the submodules it registers
 * (entries of mode 160000, "gitlinks": an ordinary `git status` at the project root enters each
 * one, running what its configuration names), and what can hide a change from the user's review
 * (git-review.ts): the entries marked assume-unchanged or skip-worktree, the entries whose
 * recorded change time is recent (the stat data git compares instead of the contents), and the
 * cache extensions git trusts instead of looking (the untracked cache, the fsmonitor's).
 *
 * Read from the index file itself when it is one this reader reads exactly as git does (no git
 * process, which the sweep after every command could not afford): versions 2, 3 and 4
 * (prefix-compressed names), SHA-1 or SHA-256 object names, a name's length taken from its flags
 * as git takes it (the NUL searched for only when the length is 0xFFF), the extended-flags word
 * wherever the flag is set, and then extensions that git skips (TREE, REUC, UNTR, FSMN …) filling
 * the file exactly up to its trailing hash. Anything else leaves the reader unsure: fewer entries
 * than the header counts, a name not ended where its length says, bytes left over, a version it
 * does not know, a file over MAX_INDEX_BYTES, a split index (`link`: entries kept in a shared
 * index and replaced by position), a sparse index (`sdir`), an extension git must understand, or
 * the entry-offset tables git may load entries from instead of reading them in order (EOIE,
 * IEOT). Then git itself is asked (git-index-git.ts): the same reader the user's next git command
 * uses, so it cannot disagree with it. When git cannot answer either (it fails, or takes longer
 * than its time limit), `unread` says why and the sweep walks the directories it otherwise skips.
 * The answer is kept per index file and read again only when it (or a shared index) changed.
 */
import { constants } from 'node:fs';
import path from 'node:path';
import { entries, openFile, readRegularFile, stat } from './byte-fs.js';
import { fromBytes } from './byte-names.js';
import { ASSUME_UNCHANGED, emptyFacts, MAX_RECENT, noteUnsafe, SKIP_WORKTREE, type IndexFacts, type IndexRead } from './git-index-facts.js';
import { listedByGit } from './git-index-git.js';
import { commondirPath } from './git-pointers.js';

export { ASSUME_UNCHANGED, MAX_RECENT, SKIP_WORKTREE, type IndexFacts, type IndexRead, type RecentEntry } from './git-index-facts.js';

const GITLINK = 0o160000;
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;
export interface Gitlinks {
  /** Paths relative to the work tree, `/`-separated, as byte strings (byte-names.ts): a name's bytes, UTF-8 or not. */
  gitlinks: string[];
  /** Set when neither this reader nor git could list them: why. */
  unread?: string;
}

const cache = new Map<string, { stamp: string; result: IndexRead }>();

/** The gitlinks of `<gitDir>/index` for the work tree `workTree`; none when there is no index. */
export async function gitlinkPaths(gitDir: string, workTree: string): Promise<Gitlinks> {
  const read = await indexFacts(gitDir, workTree);
  return read.unread === undefined ? { gitlinks: read.gitlinks } : { gitlinks: read.gitlinks, unread: read.unread };
}

/**
 * What `<gitDir>/index` holds, with the entries recorded as changed at or after `recentSince` (ms;
 * none when Infinity); nothing when there is no index. The answer is the same object while the
 * index is unchanged (a caller may keep it as the state before a command).
 */
export async function indexFacts(gitDir: string, workTree: string, recentSince = Infinity): Promise<IndexRead> {
  const file = path.join(gitDir, 'index');
  let stamp: string;
  try {
    stamp = await stampOf(gitDir, file);
  } catch (error) {
    // No index: git starts from an empty one.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyFacts(recentSince);
    stamp = `unstattable:${Date.now()}`;
  }
  const cached = cache.get(file);
  // Recent entries are kept from the time asked for then: an earlier time needs another read.
  if (cached?.stamp === stamp && cached.result.recentSince <= recentSince) return cached.result;
  const hashBytes = await hashLength(gitDir);
  const read = await readIndex(file, hashBytes, recentSince);
  const result: IndexRead = 'unknown' in read ? await listedByGit(gitDir, workTree, read.unknown, recentSince) : read;
  cache.set(file, { stamp, result });
  return result;
}

/** The index's identity and times, and its shared indexes' (a split index reads one of them). */
export async function stampOf(gitDir: string, file: string): Promise<string> {
  const one = async (name: string): Promise<string> => {
    const info = await stat(name);
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  };
  const parts = [await one(file)];
  const shared = (await entries(gitDir).catch(() => []))
    .map((entry) => entry.name)
    .filter((name) => name.startsWith('sharedindex.'))
    .sort();
  for (const name of shared) parts.push(`${name}=${await one(path.join(gitDir, name)).catch(() => '-')}`);
  return parts.join(' ');
}

/**
 * `<gitDir>/index` as this reader reads it, never asking git (for a repository whose configuration
 * is not yet judged); unknown when it is not sure. `keep`: the entries whose path it accepts are
 * listed in `kept`.
 */
export async function readOwnIndex(gitDir: string, keep?: (name: string, mode: number) => boolean): Promise<ParsedIndex> {
  return readIndex(path.join(gitDir, 'index'), await hashLength(gitDir), Infinity, keep);
}

async function readIndex(file: string, hashBytes: number, recentSince: number, keep?: (name: string, mode: number) => boolean): Promise<ParsedIndex> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO planted at `index` cannot block the sweep.
    handle = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { unknown: `the index cannot be opened (${(error as NodeJS.ErrnoException).code})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { unknown: 'the index is not a regular file' };
    if (info.size > MAX_INDEX_BYTES) return { unknown: `the index is larger than ${MAX_INDEX_BYTES} bytes` };
    return parseIndex(await handle.readFile(), hashBytes, recentSince, keep);
  } catch (error) {
    return { unknown: `the index cannot be read (${(error as Error).message})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** 32 bytes for a SHA-256 repository (extensions.objectformat = sha256, in its own or its common dir's config), else 20. */
async function hashLength(gitDir: string): Promise<number> {
  const read = async (file: string): Promise<Buffer | undefined> => {
    const found = await readRegularFile(file, MAX_CONFIG_BYTES).catch(() => undefined);
    return found && 'bytes' in found ? found.bytes : undefined;
  };
  const configs = [path.join(gitDir, 'config')];
  const common = await read(path.join(gitDir, 'commondir'));
  if (common !== undefined) configs.push(path.join(path.resolve(gitDir, commondirPath(common)), 'config'));
  for (const config of configs) {
    const text = fromBytes((await read(config)) ?? Buffer.alloc(0));
    if (/^\s*objectformat\s*=\s*sha256\s*$/im.test(text)) return 32;
  }
  return 20;
}

/** A config file larger than this is not searched for the object format (the index then reads as unsure, and git is asked). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export type ParsedIndex = IndexFacts | { unknown: string };

/** Bits of the extended-flags word git knows (intent-to-add, skip-worktree); any other makes git refuse the entry. */
const KNOWN_EXTENDED_FLAGS = 0x6000;
const EXTENDED = 0x4000;
/** In the flags: assume-unchanged ("valid"). In the extended-flags word: skip-worktree. */
const VALID_FLAG = 0x8000;
const SKIP_WORKTREE_FLAG = 0x4000;
const NAME_MASK = 0xfff;
/** Cache extensions that make git skip looking at the work tree. */
const CACHES = new Set(['UNTR', 'FSMN']);

/** The gitlink paths of an index file's bytes (parseIndex), or why the reader is unsure. */
export function parseGitlinks(data: Buffer, hashBytes = 20): { gitlinks: string[] } | { unknown: string } {
  const parsed = parseIndex(data, hashBytes);
  return 'unknown' in parsed ? parsed : { gitlinks: parsed.gitlinks };
}

/**
 * What an index file's bytes hold, read as git's create_from_disk reads them, with the entries
 * recorded as changed at or after `recentSince` (ms); `unknown` (with why) for anything this
 * reader is not sure git reads the same way.
 */
export function parseIndex(data: Buffer, hashBytes = 20, recentSince = Infinity, keep?: (name: string, mode: number) => boolean): ParsedIndex {
  const unsure = (why: string): ParsedIndex => ({ unknown: why });
  if (data.length < 12 + hashBytes || data.toString('latin1', 0, 4) !== 'DIRC') return unsure('not an index file');
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return unsure(`index version ${version}`);
  const count = data.readUInt32BE(8);
  const end = data.length - hashBytes; // entries and extensions end where the trailing hash starts
  const facts = emptyFacts(recentSince);
  let at = 12;
  let previous: Buffer | undefined;
  for (let n = 0; n < count; n++) {
    const start = at;
    const flagsAt = at + 40 + hashBytes; // times, dev, ino, mode, uid, gid, size, object name
    if (flagsAt + 2 > end) return unsure(`entry ${n + 1} of ${count} is cut short`);
    const mode = data.readUInt32BE(at + 24);
    const flags = data.readUInt16BE(flagsAt);
    let extended = 0;
    let nameAt = flagsAt + 2;
    // git reads the extended-flags word whenever the flag is set, whatever the version says.
    if (flags & EXTENDED) {
      if (nameAt + 2 > end) return unsure(`entry ${n + 1} is cut short`);
      extended = data.readUInt16BE(nameAt);
      if (extended & ~KNOWN_EXTENDED_FLAGS) return unsure(`entry ${n + 1} has extended flags git does not know`);
      nameAt += 2;
    }
    let length = flags & NAME_MASK;
    let name: Buffer;
    if (version === 4) {
      // How many bytes to drop from the end of the previous name (a varint), then the rest of the name.
      const strip = readVarint(data, nameAt, end);
      if (strip === undefined) return unsure(`entry ${n + 1} has a malformed name field`);
      nameAt = strip.next;
      if (previous && strip.value > previous.length) return unsure(`entry ${n + 1} drops more than the previous name`);
      const copied = previous ? previous.length - strip.value : 0;
      if (length === NAME_MASK) {
        const nul = data.indexOf(0, nameAt);
        if (nul < 0 || nul >= end) return unsure(`entry ${n + 1} has an unterminated name`);
        length = nul - nameAt + copied;
      }
      const own = length - copied;
      if (own < 0 || nameAt + own >= end || data[nameAt + own] !== 0) return unsure(`entry ${n + 1}'s name does not end where its length says`);
      name = Buffer.concat([previous ? previous.subarray(0, copied) : Buffer.alloc(0), data.subarray(nameAt, nameAt + own)]);
      at = nameAt + own + 1;
    } else {
      if (length === NAME_MASK) {
        const nul = data.indexOf(0, nameAt);
        if (nul < 0 || nul >= end) return unsure(`entry ${n + 1} has an unterminated name`);
        length = nul - nameAt;
      }
      // git copies the name and the byte after it (its end), then pads the entry to 8 bytes.
      if (nameAt + length >= end || data[nameAt + length] !== 0) return unsure(`entry ${n + 1}'s name does not end where its length says`);
      name = data.subarray(nameAt, nameAt + length);
      at = start + ((nameAt - start + length + 8) & ~7);
      if (at > end) return unsure(`entry ${n + 1} is cut short`);
    }
    previous = name;
    // git uses the name as a C string: a NUL inside ends the path.
    const entryPath = (): string => fromBytes(name.subarray(0, name.includes(0) ? name.indexOf(0) : name.length));
    if ((mode & 0o170000) === GITLINK) facts.gitlinks.push(entryPath());
    noteUnsafe(facts, entryPath());
    if (keep?.(entryPath(), mode)) (facts.kept ??= new Map()).set(`${entryPath()}\0${(flags >> 12) & 3}`, { mode, oid: data.toString('hex', start + 40, start + 40 + hashBytes) });
    const marks = (flags & VALID_FLAG ? ASSUME_UNCHANGED : 0) | (extended & SKIP_WORKTREE_FLAG ? SKIP_WORKTREE : 0);
    if (marks !== 0) facts.marked.set(entryPath(), marks);
    const ctimeSec = data.readUInt32BE(start);
    const ctimeNsec = data.readUInt32BE(start + 4);
    if (ctimeSec * 1000 + ctimeNsec / 1e6 >= recentSince) {
      if (facts.recent.length === MAX_RECENT) facts.recentCut = true;
      else {
        facts.recent.push({
          name: entryPath(),
          mode,
          oid: data.toString('hex', start + 40, start + 40 + hashBytes),
          stage: (flags >> 12) & 3,
          ctimeSec,
          ctimeNsec,
          mtimeSec: data.readUInt32BE(start + 8),
          ino: data.readUInt32BE(start + 20),
          size: data.readUInt32BE(start + 36),
        });
      }
    }
  }
  // git looks for the end-of-index-entries extension at a fixed place before the hash, whatever
  // precedes it (the bytes could sit inside an entry or another extension here).
  const eoieAt = data.length - hashBytes - (8 + 4 + 20);
  if (eoieAt >= 12 && data.toString('latin1', eoieAt, eoieAt + 4) === 'EOIE') return unsure('the index has an entry offset table (EOIE)');
  while (at < end) {
    if (at + 8 > end) return unsure('bytes left over after the entries');
    const signature = data.toString('latin1', at, at + 4);
    const size = data.readUInt32BE(at + 4);
    if (at + 8 + size > end) return unsure(`the ${JSON.stringify(signature)} extension runs past the end`);
    if (signature === 'EOIE' || signature === 'IEOT') return unsure(`the index has an entry offset table (${signature})`);
    // An extension whose name starts with a capital is optional: git skips one it does not know.
    // Any other (`link`: a split index, `sdir`: a sparse one, or one this reader has never seen) changes what the entries mean.
    if (!(data[at]! >= 0x41 && data[at]! <= 0x5a)) return unsure(`the index has the ${JSON.stringify(signature)} extension`);
    if (CACHES.has(signature)) facts.caches.push(signature);
    at += 8 + size;
  }
  return facts;
}

/** git's decode_varint: 7 bits a byte, most significant first, each continuation adding one. */
function readVarint(data: Buffer, at: number, end: number): { value: number; next: number } | undefined {
  if (at >= end) return undefined;
  let byte = data[at++]!;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    value += 1;
    if (at >= end || value > 2 ** 40) return undefined; // git gives up on an overflowing one; no name is that long
    byte = data[at++]!;
    value = value * 128 + (byte & 0x7f);
  }
  return { value, next: at };
}
