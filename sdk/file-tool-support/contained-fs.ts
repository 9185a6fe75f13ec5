/**
 * File access that stays inside the allowed directories even while the tree changes under it
 * (A15). The permission sandbox (A3) checks a path before the call; a symlink swapped
 * between that check and the open would otherwise let a tool read or write outside. So every
 * check here is made on what was actually opened:
 *
 * - Linux: `/proc/self/fd/N` names the object behind descriptor N. Its link text is the real
 *   path of the opened file (checked against the allowed roots), and a path *through* it
 *   (`/proc/self/fd/N/name`) resolves `name` inside that very directory — openat(2), mkdirat,
 *   renameat without native code. A write opens its directory once, verifies it, and from then on
 *   names everything relative to that descriptor: a later swap of any ancestor changes nothing.
 * - Elsewhere (macOS: F_GETPATH is not reachable from Node): the real path is opened with
 *   O_NOFOLLOW, every ancestor is lstat'ed (no symlink on the way) and the descriptor's
 *   device/inode must equal the path's after that walk; a write re-walks its directory before
 *   each step (open, temporary file, rename). This narrows the window to the gap between a
 *   walk and the next system call; only descriptor paths close it. Both paths are tested.
 *
 * Writes never go through a link and never change an inode in place when it has other hard links
 * (which may live outside): a temporary file is created with O_EXCL|O_NOFOLLOW in the verified
 * directory and renamed over the name, which replaces whatever entry is there (a planted symlink
 * included) without following it. See `replaceEntry` for the in-place exceptions.
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { constants, existsSync, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { expandHome, isWithin, resolveRealSync } from '../path-containment.js';
import { fsPath, pathFromBytes } from '../search-common/display-name.js';

// Paths are strings here; a name's bytes that are not UTF-8 travel as escaped characters and
// become bytes only at the system call (display-name.ts `fsPath`), so such a file (a name copied
// from glob's output) is opened, checked and written as any other.
const open = (p: string, flags: number, mode?: number): Promise<FileHandle> => fsp.open(fsPath(p), flags, mode);
const lstat = (p: string): Promise<Stats> => fsp.lstat(fsPath(p));
const mkdir = (p: string): Promise<void> => fsp.mkdir(fsPath(p));
const access = (p: string, mode: number): Promise<void> => fsp.access(fsPath(p), mode);
const rename = (from: string, to: string): Promise<void> => fsp.rename(fsPath(from), fsPath(to));
const unlink = (p: string): Promise<void> => fsp.unlink(fsPath(p));
const readlink = async (p: string): Promise<string> => pathFromBytes(await fsp.readlink(fsPath(p), { encoding: 'buffer' }));
const realpath = async (p: string): Promise<string> => pathFromBytes(await fsp.realpath(fsPath(p), { encoding: 'buffer' }));

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/** Where file tools may read and write: real paths of the project root and the additional directories. */
export interface FileScope {
  readonly roots: readonly string[];
}

/**
 * The scope of one call. Additional directories (`permissions.additional_directories`, as written:
 * absolute, `~`-relative or relative to the project root) that cannot be resolved allow nothing.
 */
export function fileScope(projectRoot: string, homeDir: string, additionalDirectories: readonly string[] = []): FileScope {
  const roots = [resolveRealSync(projectRoot)];
  for (const dir of additionalDirectories) {
    if (typeof dir !== 'string' || dir === '' || dir.includes('\0')) continue;
    try {
      roots.push(resolveRealSync(path.resolve(projectRoot, expandHome(dir, homeDir))));
    } catch {
      // unresolvable: allows nothing
    }
  }
  return { roots };
}

export function insideScope(scope: FileScope, realPath: string): boolean {
  return scope.roots.some((root) => isWithin(root, realPath));
}

/**
 * Thrown (as an errno-style error) when an opened object lies outside the scope (`EOUTSIDE`),
 * or when a name that was a file or directory became a symlink during the operation (`ERACE`).
 */
export class ContainmentError extends Error {
  constructor(
    readonly code: 'EOUTSIDE' | 'ERACE',
    readonly realPath: string,
    message: string,
  ) {
    super(message);
  }
}

export function containmentCode(error: unknown): 'EOUTSIDE' | 'ERACE' | undefined {
  return error instanceof ContainmentError ? error.code : undefined;
}

let descriptorPaths: boolean | undefined;

/**
 * Whether `/proc/self/fd` is used. Tests force the portable path with `false` and restore the
 * detected answer with `null`.
 */
export function useDescriptorPaths(value?: boolean | null): boolean {
  if (value !== undefined) descriptorPaths = value ?? undefined;
  descriptorPaths ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return descriptorPaths;
}

const fdPath = (fd: number): string => `/proc/self/fd/${fd}`;
const DESCRIPTOR_BASE = /^\/proc\/self\/fd\/\d+\/$/;

/** The real path of what descriptor `fd` refers to; ENOENT when it has been deleted since. */
async function descriptorRealPath(fd: number): Promise<string> {
  const target = await readlink(fdPath(fd));
  if (target.endsWith(' (deleted)') || !path.isAbsolute(target)) {
    throw Object.assign(new Error(`ENOENT: the file was removed while it was opened`), { code: 'ENOENT' });
  }
  return target;
}

function outside(realPath: string): ContainmentError {
  return new ContainmentError('EOUTSIDE', realPath, `${realPath} is outside the allowed directories`);
}

function raced(realPath: string): ContainmentError {
  return new ContainmentError('ERACE', realPath, `${realPath} changed (a symbolic link appeared) while it was being opened`);
}

/** Portable check: no symlink on the way to `realPath`, and it still names the opened object. */
async function verifyByWalk(realPath: string, handle: FileHandle): Promise<void> {
  const parts = realPath.split(path.sep).filter((part) => part !== '');
  let current = path.parse(realPath).root;
  for (const part of parts) {
    current = path.join(current, part);
    if ((await lstat(current)).isSymbolicLink()) throw raced(realPath);
  }
  const [opened, named] = await Promise.all([handle.stat(), lstat(realPath)]);
  if (opened.dev !== named.dev || opened.ino !== named.ino) throw raced(realPath);
}

async function isSymlink(file: string): Promise<boolean> {
  return lstat(file).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
}

async function closeQuietly(handle: FileHandle | undefined): Promise<void> {
  await handle?.close().catch(() => undefined);
}

/**
 * Open a file (or directory, FIFO…) for reading, links followed as the model named it, and
 * check that the opened object lies in the scope. O_NONBLOCK: opening a FIFO does not wait for
 * a writer (no effect on regular files). Returns the real path of the opened object.
 */
export async function openForRead(absolute: string, scope: FileScope): Promise<{ handle: FileHandle; realPath: string }> {
  if (useDescriptorPaths()) {
    const handle = await open(absolute, O_RDONLY | O_NONBLOCK);
    try {
      const realPath = await descriptorRealPath(handle.fd);
      if (!insideScope(scope, realPath)) throw outside(realPath);
      return { handle, realPath };
    } catch (error) {
      await closeQuietly(handle);
      throw error;
    }
  }
  const realPath = await realpath(absolute);
  if (!insideScope(scope, realPath)) throw outside(realPath);
  let handle: FileHandle | undefined;
  try {
    handle = await open(realPath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    await verifyByWalk(realPath, handle);
    return { handle, realPath };
  } catch (error) {
    await closeQuietly(handle);
    throw (error as NodeJS.ErrnoException).code === 'ELOOP' ? raced(realPath) : error;
  }
}

/** A directory opened and verified in the scope; names inside it are reached through it. */
export interface ContainedDir {
  readonly realPath: string;
  /** A path naming `name` (one path segment) inside this very directory. */
  entry(name: string): string;
  /**
   * Throws ERACE when the directory's path no longer leads to it. Always passes with descriptor
   * paths (names are resolved through the descriptor); the fallback re-walks the path.
   */
  verify(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Open the directory a file is written to (its real path: the caller resolved the model's path,
 * links included), creating missing levels when `create` is set. Each created level is made and
 * opened through its verified parent (O_NOFOLLOW), so a link planted meanwhile is refused
 * rather than followed.
 */
export async function openDirectory(realDir: string, scope: FileScope, options: { create: boolean }): Promise<ContainedDir> {
  if (!insideScope(scope, realDir)) throw outside(realDir);
  const missing: string[] = [];
  let current = realDir;
  let handle: FileHandle | undefined;
  for (;;) {
    try {
      handle = await open(current, O_RDONLY | O_DIRECTORY | (useDescriptorPaths() ? 0 : O_NOFOLLOW));
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(current);
      if (code === 'ELOOP' || (code === 'ENOTDIR' && !useDescriptorPaths() && (await isSymlink(current)))) throw raced(current);
      if (code !== 'ENOENT' || !options.create || parent === current) throw error;
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
  let dir: ContainedDir;
  try {
    dir = await verifiedDir(handle, current, scope);
  } catch (error) {
    await closeQuietly(handle);
    throw error;
  }
  for (const name of missing) {
    try {
      await mkdir(dir.entry(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        await dir.close();
        throw error;
      }
    }
    let child: FileHandle;
    try {
      child = await open(dir.entry(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      await dir.close();
      throw (error as NodeJS.ErrnoException).code === 'ELOOP' ? raced(path.join(dir.realPath, name)) : error;
    }
    const parentPath = dir.realPath;
    await dir.close();
    try {
      dir = await verifiedDir(child, path.join(parentPath, name), scope);
    } catch (error) {
      await closeQuietly(child);
      throw error;
    }
  }
  return dir;
}

async function verifiedDir(handle: FileHandle, expected: string, scope: FileScope): Promise<ContainedDir> {
  if (useDescriptorPaths()) {
    const realPath = await descriptorRealPath(handle.fd);
    if (!insideScope(scope, realPath)) throw outside(realPath);
    const base = fdPath(handle.fd);
    return { realPath, entry: (name) => `${base}/${name}`, verify: async () => undefined, close: () => closeQuietly(handle) };
  }
  await verifyByWalk(expected, handle);
  if (!insideScope(scope, expected)) throw outside(expected);
  return { realPath: expected, entry: (name) => path.join(expected, name), verify: () => verifyByWalk(expected, handle), close: () => closeQuietly(handle) };
}

/**
 * Open `name` in `dir` for reading without following a link (a link there now was planted
 * after the caller resolved the path: ERACE). Undefined when nothing has that name.
 */
export async function openEntry(dir: ContainedDir, name: string): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  return withRealNames(dir, () => openEntryNamed(dir, name));
}

async function openEntryNamed(dir: ContainedDir, name: string): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  await dir.verify();
  let handle: FileHandle;
  try {
    handle = await open(dir.entry(name), O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw raced(path.join(dir.realPath, name));
    throw error;
  }
  try {
    return { handle, stats: await handle.stat() };
  } catch (error) {
    await closeQuietly(handle);
    throw error;
  }
}

/**
 * Replace the content of `name` in `dir` so that a crash or a concurrent reader never sees it
 * half-written: a temporary file in the same directory (same filesystem, so the rename is
 * atomic), given the old file's mode, fsynced, renamed over the name. A new file gets the
 * default mode (0o666 minus the umask). Returns the stats of the file written (its mtime is what
 * the read tracker records).
 *
 * `existing` is the current file (from `openEntry`). A read-only file stays protected: renaming
 * over it needs only the directory's permission, so its own write permission is checked first.
 * The inode is changed in place (truncate + write through a descriptor opened O_NOFOLLOW, after
 * checking it is still the same inode with one link) only when it has exactly one link — so it
 * is the project's own — and either belongs to another user (a rename would make us its owner)
 * or the directory refuses the temporary file. A file with other hard links is always replaced by
 * the rename: its other names, which may lie outside the project, keep the old content.
 */
export async function replaceEntry(dir: ContainedDir, name: string, data: string | Uint8Array, existing: Stats | undefined): Promise<Stats> {
  return withRealNames(dir, () => replaceEntryNamed(dir, name, data, existing));
}

async function replaceEntryNamed(dir: ContainedDir, name: string, data: string | Uint8Array, existing: Stats | undefined): Promise<Stats> {
  await dir.verify();
  if (existing) await access(dir.entry(name), constants.W_OK);
  const ownOnly = existing !== undefined && existing.nlink === 1;
  if (ownOnly && !ownedByUs(existing)) return writeInPlace(dir, name, data, existing);
  const temp = temporaryName(name);
  let handle: FileHandle;
  try {
    handle = await open(dir.entry(temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, existing ? 0o600 : 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (ownOnly && (code === 'EACCES' || code === 'EPERM')) return writeInPlace(dir, name, data, existing);
    throw error;
  }
  try {
    await handle.writeFile(data);
    if (existing) await handle.chmod(existing.mode & 0o7777);
    await handle.sync();
    const written = await handle.stat();
    await handle.close();
    await dir.verify();
    await rename(dir.entry(temp), dir.entry(name));
    return written;
  } catch (error) {
    await closeQuietly(handle);
    await unlink(dir.entry(temp)).catch(() => undefined);
    throw error;
  }
}

/**
 * Whether `now` is still `existing` (the file the checks saw) and has no other name: the condition
 * for changing a file in place, where its other hard links (which may lie outside the project)
 * would change with it.
 */
export function isSameOnlyFile(now: Stats, existing: Stats): boolean {
  return now.ino === existing.ino && now.dev === existing.dev && now.nlink === 1 && now.isFile();
}

async function writeInPlace(dir: ContainedDir, name: string, data: string | Uint8Array, existing: Stats): Promise<Stats> {
  await dir.verify();
  const handle = await open(dir.entry(name), O_WRONLY | O_NOFOLLOW | O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? raced(path.join(dir.realPath, name)) : error;
  });
  try {
    const now = await handle.stat();
    // Another inode, or a hard link made since: never change it in place.
    if (!isSameOnlyFile(now, existing)) throw raced(path.join(dir.realPath, name));
    await handle.truncate(0);
    await handle.writeFile(data); // a fresh descriptor writes from offset 0
    await handle.sync();
    return await handle.stat();
  } finally {
    await closeQuietly(handle);
  }
}

/**
 * An operation on `dir`'s entries whose error names the directory's real path: a failing open
 * through a descriptor path says `open '/proc/self/fd/26/sock'`, which tells the model and the
 * user nothing about which file it was.
 */
async function withRealNames<T>(dir: ContainedDir, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const base = dir.entry('');
    // Not `instanceof Error`: Node's fs errors come from another realm under a test runner's VM.
    if (!DESCRIPTOR_BASE.test(base) || typeof (error as { message?: unknown } | null)?.message !== 'string') throw error;
    const named = error as NodeJS.ErrnoException & { dest?: unknown };
    const rename = (text: string): string => text.split(base).join(dir.realPath === '/' ? '/' : `${dir.realPath}/`);
    named.message = rename(named.message);
    if (typeof named.path === 'string') named.path = rename(named.path);
    if (typeof named.dest === 'string') named.dest = rename(named.dest);
    throw error;
  }
}

function ownedByUs(info: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || uid === info.uid;
}

/** Hidden, unique, and short enough for NAME_MAX even when the target's own name is long. */
function temporaryName(name: string): string {
  return `.${name.slice(0, 100)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.mewcode-tmp`;
}
