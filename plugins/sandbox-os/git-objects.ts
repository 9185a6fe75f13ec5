/**
 * After each sandboxed command (from git-history.ts): objects the command changed under their old
 * names. Git trusts an object's name: it never hashes a tree or a blob it reads. A command that
 * stages a change and then rewrites, in place, the tree HEAD names (so that it names the staged
 * blob) makes `git status` and `git diff --cached` show nothing; one that rewrites a blob HEAD
 * names makes `git diff` and the next commit's diff show nothing for a file it changed. Packs
 * are trusted the same way (a `.pack` or `.idx` rewritten, a new pack holding another content for
 * an object that exists: git searches the newest pack first, a multi-pack-index mapping a name
 * to another object), and `objects/info/alternates` makes git take objects from another
 * directory (`http-alternates`, from another server when the repository is served).
 *
 * Compared with the state before the command, in the git directory holding the objects:
 * - a loose object that existed before and whose size, times or inode changed is hashed (git
 *   freshens an object's time when it writes it again, so a change of time alone is common): one
 *   whose content no longer has its name is set aside (renamed: git then reports it missing,
 *   loudly, instead of showing it as the old one) and named; when a pack that was there before is
 *   gone, every loose object made during the command is hashed too (an object the pack held may
 *   now be loose with other content), and one past the bytes hashed is set aside;
 * - a `.pack` or `.idx` that existed before and changed has its trailing checksum compared with
 *   the one from before and with its content: one that differs is set aside with the rest of its
 *   pack and named;
 * - a new pack is checked by the host's git (`git verify-pack`, which hashes every object it
 *   holds), a new or changed multi-pack-index by `git multi-pack-index verify`: what fails is set
 *   aside and named, what cannot be checked in time or is too large to hash is named;
 * - `objects/info/alternates` or `http-alternates` made or changed is set aside and named.
 * Without the state from before (a sweep for a command MewCode died during), loose objects and
 * packs changed during the command are checked the same way and named, not set aside.
 *
 * Cost: the state before a command is the previous one's, kept per objects directory; only a
 * fan-out directory whose own times changed is listed again (its files stat'ed). After the command
 * each loose object that existed before is stat'ed once (synchronously: several times faster per
 * file than through the thread pool), and only what changed is read.
 */
import { constants, type Stats } from 'node:fs';
import path from 'node:path';
import type * as zlib from 'node:zlib';
import { builtinOnFirstUse, nodeCrypto } from '../../types/lazy-builtin.js';
import { lstatNow, namesNow, openFile, readRegularFile, tailNow } from './byte-fs.js';
import { runHostGit } from './git-run.js';
import { setAsideEntry, shownPath } from './sweep-paths.js';

/** zlib loads at the first object this check reads, never with the program (a run that starts no command needs none). */
const nodeZlib = builtinOnFirstUse<typeof zlib>('node:zlib');

interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** A pack directory file and its trailing checksum (packs and indexes end with the hash of what precedes). */
interface PackFile {
  stamp: Stamp;
  trailer: Buffer | undefined;
}

/** The objects directory as it was before a command. */
export interface ObjectsState {
  /** Per fan-out directory (`ab`): its own stamp and its loose objects' (`cdef…`). */
  loose: Map<string, { stamp: Stamp; files: Map<string, Stamp> }>;
  packDir: Stamp | undefined;
  /** `pack/<name>` files by name. */
  packs: Map<string, PackFile>;
  /** `info/alternates` and `info/http-alternates`: undefined when missing. */
  redirections: Map<string, Stamp | undefined>;
}

/** What a git directory made during the command has: nothing from before that could have changed. */
export const NEW_OBJECTS = 'new';

interface Found {
  notices: string[];
  unchecked: string[];
}

const FANOUT = /^[0-9a-f]{2}$/;
const LOOSE = /^(?:[0-9a-f]{38}|[0-9a-f]{62})$/;
/**
 * What git looks objects up with: every `*.idx` in the pack folder and its `.pack`, whatever the
 * name before (`pack-Z.idx` too: a red team's); a `.rev`, `.bitmap` or `.mtimes` changes no object git shows.
 */
const LOOKED_UP = /\.(?:pack|idx)$/;
const REDIRECTIONS = ['info/alternates', 'info/http-alternates'];
/** Bytes hashed per check at most; past that, what is left is named as not checked. */
const MAX_HASHED_BYTES = 256 * 1024 * 1024;
/** A new pack larger than this is not handed to `git verify-pack` (named instead). */
const MAX_VERIFIED_PACK = 256 * 1024 * 1024;

const stampOf = (info: Stats): Stamp => ({ ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs });
const same = (a: Stamp | undefined, b: Stamp | undefined): boolean => a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** The last state taken per objects directory: a command's "before" is the previous one's, refreshed where times moved. */
const kept = new Map<string, ObjectsState>();

/** Before a command: the objects in `commonDir`. Never throws. */
export function objectsState(commonDir: string): ObjectsState {
  const dir = path.join(commonDir, 'objects');
  const earlier = kept.get(dir);
  const state: ObjectsState = { loose: new Map(), packDir: undefined, packs: new Map(), redirections: new Map() };
  for (const name of namesNow(dir) ?? []) {
    if (!FANOUT.test(name)) continue;
    const sub = path.join(dir, name);
    const info = lstatNow(sub);
    if (!info?.isDirectory()) continue;
    const stamp = stampOf(info);
    const known = earlier?.loose.get(name);
    // Its entries are as they were while its own stamp is (a name added, removed or renamed changes it).
    if (known !== undefined && same(known.stamp, stamp)) {
      state.loose.set(name, known);
      continue;
    }
    const files = new Map<string, Stamp>();
    for (const file of namesNow(sub) ?? []) {
      if (!LOOSE.test(file)) continue;
      const fileInfo = lstatNow(path.join(sub, file));
      if (fileInfo?.isFile()) files.set(file, stampOf(fileInfo));
    }
    state.loose.set(name, { stamp, files });
  }
  const packDir = path.join(dir, 'pack');
  const packInfo = lstatNow(packDir);
  state.packDir = packInfo?.isDirectory() ? stampOf(packInfo) : undefined;
  if (state.packDir !== undefined && earlier !== undefined && same(earlier.packDir, state.packDir)) state.packs = earlier.packs;
  else if (state.packDir !== undefined) {
    const hashLength = hashLengthOf(commonDir);
    for (const name of namesNow(packDir) ?? []) {
      if (!LOOKED_UP.test(name)) continue;
      const file = path.join(packDir, name);
      const info = lstatNow(file);
      if (info?.isFile()) state.packs.set(name, { stamp: stampOf(info), trailer: tailNow(file, hashLength) });
    }
  }
  for (const name of REDIRECTIONS) {
    const info = lstatNow(path.join(dir, name));
    state.redirections.set(name, info ? stampOf(info) : undefined);
  }
  kept.set(dir, state);
  return state;
}

/** The length of the repository's hashes: 32 bytes with `extensions.objectFormat = sha256`, else 20. */
function hashLengthOf(commonDir: string): number {
  const file = path.join(commonDir, 'config');
  // Its last 64 KiB (the whole of any ordinary one), read only when a pack directory changed.
  const config = tailNow(file, Math.min(lstatNow(file)?.size ?? 0, 64 * 1024))?.toString('latin1') ?? '';
  return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
}

/** Whether the loose object `file` (named `oid`) holds content with that name; undefined when it cannot be read or is past the budget. */
async function looseMatches(file: string, oid: string, budget: { left: number }): Promise<boolean | undefined> {
  const read = await readRegularFile(file, budget.left);
  if (read === undefined || 'tooLarge' in read) return undefined;
  budget.left -= read.bytes.length;
  let content: Buffer;
  try {
    content = nodeZlib().inflateSync(read.bytes, { maxOutputLength: Math.max(budget.left, 1) });
  } catch {
    return false; // not an object git can read: git reports it, but it is no longer what the name says
  }
  budget.left -= content.length;
  return nodeCrypto().createHash(oid.length === 64 ? 'sha256' : 'sha1').update(content).digest('hex') === oid;
}

/** Whether the file's content before its last `hashLength` bytes hashes to them (git's checksum of a pack or index). */
async function checksumHolds(file: string, hashLength: number, budget: { left: number }): Promise<boolean | undefined> {
  let handle;
  try {
    handle = await openFile(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const size = (await handle.stat()).size;
    if (size < hashLength || size > budget.left) return undefined;
    budget.left -= size;
    const hash = nodeCrypto().createHash(hashLength === 32 ? 'sha256' : 'sha1');
    const chunk = Buffer.alloc(1024 * 1024);
    let at = 0;
    const body = size - hashLength;
    while (at < body) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, body - at), at);
      if (bytesRead === 0) return undefined;
      hash.update(chunk.subarray(0, bytesRead));
      at += bytesRead;
    }
    const trailer = Buffer.alloc(hashLength);
    await handle.read(trailer, 0, hashLength, body);
    return hash.digest().equals(trailer);
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Sets aside `files` (absolute), returning what could not be. */
function setAsideAll(files: readonly string[], roots: readonly string[]): { moved: string[]; refused: string[] } {
  const moved: string[] = [];
  const refused: string[] = [];
  for (const file of files) {
    const result = setAsideEntry(file, roots);
    if (result === undefined) continue;
    if ('movedTo' in result) moved.push(result.movedTo);
    else refused.push(result.refused);
  }
  return { moved, refused };
}

const shown = (file: string): string => JSON.stringify(shownPath(file));
const TRUST = 'git trusts an object’s name and never hashes what it reads, so git status, git diff and git log show the rewritten content as the old';

/**
 * After a command that started at `since`: the objects of `commonDir` (its work tree shown as
 * `where`) against `before` (undefined: unknown; NEW_OBJECTS: a git directory the command made).
 */
export async function checkObjects(commonDir: string, gitDir: string, workTree: string, where: string, roots: readonly string[], since: number, before: ObjectsState | typeof NEW_OBJECTS | undefined, result: Found): Promise<void> {
  if (before === NEW_OBJECTS) return;
  const dir = path.join(commonDir, 'objects');
  const apply = before !== undefined;
  const budget = { left: MAX_HASHED_BYTES };
  const tooMuch: string[] = [];
  // Loose objects: those that existed before (all of them, changed during the command, when that is unknown).
  const rewritten: string[] = [];
  const candidates: [string, string][] = [];
  // A pack that was there before and is gone: an object it held may now be loose under the same
  // name with other content (git looks in packs first, so only then): every loose object made
  // during the command is hashed too (a red team's: a hook's blob unpacked and rewritten).
  const packDir = path.join(dir, 'pack');
  const packGone = before !== undefined && [...before.packs.keys()].some((name) => lstatNow(path.join(packDir, name)) === undefined);
  if (before !== undefined) {
    for (const [fan, { files }] of before.loose) {
      for (const [name, stamp] of files) {
        const file = path.join(dir, fan, name);
        const info = lstatNow(file);
        if (info === undefined) continue; // gone: git reports a missing object itself
        const now = stampOf(info);
        if (same(stamp, now) && now.ctimeMs < since) continue;
        files.set(name, now); // the next command's "before"
        candidates.push([file, fan + name]);
      }
    }
    if (packGone) {
      for (const fan of namesNow(dir) ?? []) {
        if (!FANOUT.test(fan)) continue;
        const known = before.loose.get(fan)?.files;
        for (const name of namesNow(path.join(dir, fan)) ?? []) {
          if (!LOOSE.test(name) || known?.has(name)) continue;
          const info = lstatNow(path.join(dir, fan, name));
          if (info?.isFile() && info.ctimeMs >= since) candidates.push([path.join(dir, fan, name), fan + name]);
        }
      }
    }
  } else {
    for (const fan of namesNow(dir) ?? []) {
      if (!FANOUT.test(fan)) continue;
      for (const name of namesNow(path.join(dir, fan)) ?? []) {
        const info = LOOSE.test(name) ? lstatNow(path.join(dir, fan, name)) : undefined;
        if (info?.isFile() && info.ctimeMs >= since) candidates.push([path.join(dir, fan, name), fan + name]);
      }
    }
  }
  for (const [file, oid] of candidates) {
    const matches = await looseMatches(file, oid, budget);
    if (matches === false) rewritten.push(file);
    // Past the bytes hashed, after a pack went: not left unhashed where it may stand for another object.
    else if (matches === undefined && (lstatNow(file)?.isFile() ?? false)) (packGone ? rewritten : tooMuch).push(file);
  }
  if (rewritten.length > 0) {
    const oids = rewritten.map((file) => path.basename(path.dirname(file)) + path.basename(file));
    const what = `the command rewrote ${oids.length === 1 ? `the object ${oids[0]}` : `${oids.length} objects (${oids.slice(0, 3).join(', ')}${oids.length > 3 ? '…' : ''})`} of ${where} under ${oids.length === 1 ? 'its old name' : 'their old names'} (the content no longer has that name); ${TRUST}`;
    if (!apply) result.notices.push(`${what}: \`git fsck\` names ${oids.length === 1 ? 'it' : 'them'}; remove ${oids.length === 1 ? 'it' : 'them'} and fetch again from a remote before you review`);
    else {
      const aside = setAsideAll(rewritten, roots);
      result.notices.push(
        aside.refused.length === 0
          ? `${what}. MewCode set ${oids.length === 1 ? 'it' : 'them'} aside (renamed to *.quarantined-by-mewcode), so git reports ${oids.length === 1 ? 'it' : 'them'} missing instead: \`git fsck\` names what is missing; fetch it again from a remote, or rename it back once reviewed`
          : `${what}, and MewCode could not set ${oids.length === 1 ? 'it' : 'them all'} aside (${aside.refused.join('; ')}): run \`git fsck\` before you review`,
      );
    }
  }
  await checkPacks(commonDir, gitDir, workTree, where, roots, since, before, budget, tooMuch, result);
  if (before !== undefined) {
    for (const name of REDIRECTIONS) {
      const file = path.join(dir, name);
      const info = lstatNow(file);
      if (info === undefined) continue;
      const earlier = before.redirections.get(name);
      if (earlier !== undefined && same(earlier, stampOf(info)) && info.ctimeMs < since) continue;
      const aside = setAsideEntry(file, roots);
      const what = `${shown(file)} was ${earlier === undefined ? 'made' : 'changed'} during the command: it makes git take objects of ${where} from another ${name === 'info/alternates' ? 'directory' : 'server'}, where they can hold other content under the same names`;
      result.notices.push(aside !== undefined && 'movedTo' in aside ? `${what}. MewCode set it aside to ${shown(aside.movedTo)}` : `${what}, and MewCode could not set it aside${aside === undefined ? '' : ` (${aside.refused})`}: remove it before you review`);
    }
  }
  if (tooMuch.length > 0) result.unchecked.push(`${tooMuch.length === 1 ? `${shown(tooMuch[0]!)} was` : `${tooMuch.length} object files of ${where} (${tooMuch.slice(0, 3).map(shown).join(', ')}…) were`} changed during the command and could not be read or hashed in the time allowed, so MewCode could not check that they still hold what their names say: \`git fsck\` checks`);
  kept.delete(dir); // taken again (cheaply: unchanged fan-out directories are reused) before the next command
  if (before !== undefined) kept.set(dir, before);
}

/** The pack's files (`pack-<hash>.*`) that git reads with its index. */
const packGroup = (packDir: string, name: string): string[] => ['.pack', '.idx', '.rev', '.bitmap', '.mtimes'].map((ext) => path.join(packDir, name.replace(/\.(?:pack|idx)$/, ext))).filter((file) => lstatNow(file) !== undefined);

async function checkPacks(commonDir: string, gitDir: string, workTree: string, where: string, roots: readonly string[], since: number, before: ObjectsState | undefined, budget: { left: number }, tooMuch: string[], result: Found): Promise<void> {
  const packDir = path.join(commonDir, 'objects', 'pack');
  const info = lstatNow(packDir);
  if (!info?.isDirectory()) return;
  const hashLength = hashLengthOf(commonDir);
  const names = namesNow(packDir) ?? [];
  const bad = new Map<string, string>(); // pack base → why
  for (const name of names) {
    if (!LOOKED_UP.test(name)) continue;
    const file = path.join(packDir, name);
    const now = lstatNow(file);
    if (now === undefined) continue;
    const earlier = before?.packs.get(name);
    const base = name.replace(/\.(?:pack|idx)$/, '');
    // git follows a link there (and reads a pack through it); a link or anything but a file made during the command is set aside whole.
    if (!now.isFile()) {
      if (now.ctimeMs >= since || earlier === undefined) bad.set(base, `${name} is ${now.isSymbolicLink() ? 'a link' : 'not a file'} where git reads a pack (a pack read through it is never checked)`);
      continue;
    }
    if (earlier !== undefined) {
      if (same(earlier.stamp, stampOf(now)) && now.ctimeMs < since) continue;
      // Git never writes another content under a pack's name (the name is its checksum): the
      // same trailer, over the same content, is git freshening its time.
      const trailer = tailNow(file, hashLength);
      const holds = trailer !== undefined && earlier.trailer !== undefined && trailer.equals(earlier.trailer) ? await checksumHolds(file, hashLength, budget) : false;
      if (holds === false) bad.set(base, `${name} was rewritten in place`);
      else if (holds === undefined) tooMuch.push(file);
      else before!.packs.set(name, { stamp: stampOf(now), trailer });
      continue;
    }
    // New (or, without the state from before, changed during the command): git checks it.
    if (!name.endsWith('.idx') || (before === undefined && now.ctimeMs < since)) continue;
    const pack = path.join(packDir, `${base}.pack`);
    const size = lstatNow(pack)?.size ?? 0;
    if (size > MAX_VERIFIED_PACK) {
      tooMuch.push(pack);
      continue;
    }
    const run = await runHostGit(gitDir, workTree, ['verify-pack', file]);
    if (!run.ok) {
      if (run.why.startsWith('no answer')) tooMuch.push(pack);
      else bad.set(base, `the new pack ${base}.pack does not hold what its index names (\`git verify-pack\`: ${run.why})`);
    }
  }
  const midx = path.join(packDir, 'multi-pack-index');
  const midxInfo = lstatNow(midx);
  if (midxInfo !== undefined && midxInfo.ctimeMs >= since && !midxInfo.isFile()) bad.set('multi-pack-index', 'the multi-pack-index (which git looks objects up in first) is a link or not a file, made during the command');
  else if (midxInfo !== undefined && midxInfo.ctimeMs >= since) {
    const run = await runHostGit(gitDir, workTree, ['multi-pack-index', 'verify']);
    if (!run.ok) bad.set('multi-pack-index', `the multi-pack-index (which git looks objects up in first) was written during the command and does not match the packs (\`git multi-pack-index verify\`: ${run.why})`);
  }
  for (const [base, why] of bad) {
    const what = `in ${where}, ${why}; ${TRUST}`;
    if (before === undefined) {
      result.notices.push(`${what}: \`git fsck\` checks; remove it before you review`);
      continue;
    }
    const files = base === 'multi-pack-index' ? [midx] : packGroup(packDir, `${base}.pack`);
    const aside = setAsideAll(files, roots);
    result.notices.push(
      aside.refused.length === 0
        ? `${what}. MewCode set it aside (${aside.moved.map(shown).join(', ')})${base === 'multi-pack-index' ? ': git reads the packs themselves without it' : ': `git fsck` names the objects now missing; fetch them again from a remote, or rename it back once reviewed'}`
        : `${what}, and MewCode could not set it aside (${aside.refused.join('; ')}): run \`git fsck\` before you review`,
    );
  }
}
