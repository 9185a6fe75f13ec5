/**
 * The file system calls of the git sweep, on byte strings (byte-names.ts): every path is handed
 * to `node:fs` as the bytes it stands for, and every name or path read back (a directory's
 * entries, a link's target, a real path) is decoded without loss. The sweep's modules reach the
 * file system only through here, so a name that is not UTF-8 is never looked up as another.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, renameSync, type Dirent, type Stats } from 'node:fs';
import { access, lstat as lstatBytes, open, readdir, readlink as readlinkBytes, realpath as realpathBytes, stat as statBytes, type FileHandle } from 'node:fs/promises';
import { fromBytes, toBytes } from './byte-names.js';

export const lstat = (file: string): Promise<Stats> => lstatBytes(toBytes(file));

/** stat: follows a link at `file` (what git does reading its index). */
export const stat = (file: string): Promise<Stats> => statBytes(toBytes(file));

export const openFile = (file: string, flags: number): Promise<FileHandle> => open(toBytes(file), flags);

export const realpath = async (file: string): Promise<string> => fromBytes(await realpathBytes(toBytes(file), { encoding: 'buffer' }));

export const readlink = async (file: string): Promise<string> => fromBytes(await readlinkBytes(toBytes(file), { encoding: 'buffer' }));

/** The process may search `dir` (enter it, reach names below it). */
export const searchable = (dir: string): Promise<boolean> =>
  access(toBytes(dir), constants.X_OK).then(
    () => true,
    () => false,
  );

export interface Entry {
  name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A directory's entries, names as byte strings, kinds as the directory records them (no link followed). */
export async function entries(dir: string): Promise<Entry[]> {
  const listed: Dirent<Buffer>[] = await readdir(toBytes(dir), { withFileTypes: true, encoding: 'buffer' });
  return listed.map((child) => ({ name: fromBytes(child.name), isDirectory: () => child.isDirectory(), isSymbolicLink: () => child.isSymbolicLink() }));
}

/**
 * Synchronous forms for walks over many small files (a repository's loose objects): one call
 * each without the thread pool's round trip, several times faster per file. Never throw.
 */
export const lstatNow = (file: string): Stats | undefined => {
  try {
    return lstatSync(toBytes(file), { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
};

/** A directory's names (byte strings); undefined when it cannot be listed. */
export function namesNow(dir: string): string[] | undefined {
  try {
    return readdirSync(toBytes(dir), { encoding: 'buffer' }).map((name) => fromBytes(name));
  } catch {
    return undefined;
  }
}

/** The last `count` bytes of the regular file `file` (opened without following a link); undefined when it cannot be read. */
export function tailNow(file: string, count: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(toBytes(file), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile() || info.size < count) return undefined;
    const size = info.size;
    const tail = Buffer.alloc(count);
    return readSync(fd, tail, 0, count, size - count) === count ? tail : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Cuts the regular file `file` (opened without following a link) back to `size` bytes when it is
 * that file still (`ino`) and at least that long; whether it did.
 */
export function truncateNow(file: string, ino: number, size: number): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(toBytes(file), constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile() || info.ino !== ino || info.size < size) return false;
    ftruncateSync(fd, size);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export type Bytes = { bytes: Buffer } | { tooLarge: true } | undefined;

/**
 * `read` of the regular file `file`, opened without following a link and without blocking (a FIFO
 * planted there cannot stall the caller); undefined when it is not a regular file, cannot be
 * opened or read.
 */
async function withRegularFile<T>(file: string, read: (handle: FileHandle, info: Stats) => Promise<T>): Promise<T | undefined> {
  let handle;
  try {
    handle = await open(toBytes(file), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    return info.isFile() ? await read(handle, info) : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The bytes of the regular file `file` (withRegularFile); `tooLarge` above `limit` bytes. */
export const readRegularFile = (file: string, limit: number): Promise<Bytes> => withRegularFile(file, async (handle, info) => (info.size > limit ? { tooLarge: true as const } : { bytes: await handle.readFile() }));

/** The first `count` bytes of the regular file `file` (withRegularFile) and its size. */
export const headOf = (file: string, count: number): Promise<{ bytes: Buffer; size: number } | undefined> =>
  withRegularFile(file, async (handle, info) => {
    const bytes = Buffer.alloc(Math.min(count, info.size));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return { bytes: bytes.subarray(0, bytesRead), size: info.size };
  });

const { O_DIRECTORY, O_NOFOLLOW, O_RDONLY } = constants;
const PROC_FD = '/proc/self/fd';
let procAvailable: boolean | undefined;

/** A directory held open; names in it are reached through the descriptor. */
export interface HeldDirectory {
  /** Its real path (a byte string). */
  real: string;
  lstat(name: string): Stats | undefined;
  rename(from: string, to: string): void;
  close(): void;
}

/**
 * Opens `<root>/<names…>` one name at a time from `root` without following a link (on Linux
 * through `/proc/self/fd/N/name`, Node's stand-in for openat, so a directory swapped for a link
 * between two steps redirects nothing; elsewhere each name is checked with lstat, and the real
 * path compared at the end). Undefined when a name is missing; throws for a link or a
 * non-directory on the way.
 */
export function openBelow(root: string, names: readonly string[]): HeldDirectory | undefined {
  const at = (base: string, name: string): Buffer => Buffer.concat([toBytes(base), Buffer.from('/'), toBytes(name)]);
  procAvailable ??= lstatSync(PROC_FD, { throwIfNoEntry: false })?.isDirectory() === true;
  if (!procAvailable) {
    let dir = root;
    for (const name of names) {
      dir = `${dir}/${name}`;
      const info = lstatSync(toBytes(dir), { throwIfNoEntry: false });
      if (info === undefined) return undefined;
      if (!info.isDirectory()) throw new Error(`${dir} is ${info.isSymbolicLink() ? 'a link' : 'not a directory'}`);
    }
    const found = dir;
    return {
      real: fromBytes(realpathSync.native(toBytes(found), { encoding: 'buffer' })),
      lstat: (name) => lstatSync(at(found, name), { throwIfNoEntry: false }),
      rename: (from, to) => renameSync(at(found, from), at(found, to)),
      close: () => undefined,
    };
  }
  let fd = openSync(toBytes(root), O_RDONLY | O_DIRECTORY);
  try {
    for (const name of names) {
      let child: number;
      try {
        child = openSync(at(`${PROC_FD}/${fd}`, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          closeSync(fd);
          return undefined;
        }
        throw new Error(code === 'ELOOP' || code === 'ENOTDIR' ? `${name} on the way is a link or not a directory` : (error as Error).message);
      }
      closeSync(fd);
      fd = child;
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const held = fd;
  const base = `${PROC_FD}/${held}`;
  let real: string;
  try {
    real = fromBytes(readlinkSync(base, { encoding: 'buffer' }));
  } catch (error) {
    closeSync(held);
    throw error;
  }
  return {
    real,
    lstat: (name) => lstatSync(at(base, name), { throwIfNoEntry: false }),
    rename: (from, to) => renameSync(at(base, from), at(base, to)),
    close: () => closeSync(held),
  };
}
