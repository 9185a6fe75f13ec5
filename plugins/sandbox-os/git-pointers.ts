/**
 * The path git takes from a pointer file a command may write: a `.git` file (`gitdir: <path>`,
 * setup.c read_gitfile_gently) and a git directory's `commondir` (get_common_dir_noenv). Read
 * from the file's bytes exactly as git reads them, since a pointer read any other way leads the
 * sweep somewhere git does not go:
 *
 * - line ends (CR and LF, any number) are dropped from the end of the whole file, nothing else:
 *   spaces stay part of the path, and so does a line end before a NUL;
 * - then the path ends at the first NUL (git hands it on as a C string): `gitdir: ../x\0junk` is
 *   `../x`;
 * - its bytes are the name's bytes, UTF-8 or not (a byte string, byte-names.ts);
 * - a relative path is taken from the directory holding the `.git` file, or from the git
 *   directory holding `commondir` (the caller resolves it).
 */
import path from 'node:path';
import { readRegularFile, realpath, stat } from './byte-fs.js';
import { fromBytes } from './byte-names.js';

const GITDIR = Buffer.from('gitdir: ');
const LF = 0x0a;
const CR = 0x0d;

function trimmed(bytes: Buffer, from: number): string {
  let end = bytes.length;
  while (end > from && (bytes[end - 1] === LF || bytes[end - 1] === CR)) end--;
  const nul = bytes.indexOf(0, from);
  return fromBytes(bytes.subarray(from, nul >= 0 && nul < end ? nul : end));
}

/**
 * The path in a `.git` file's bytes; undefined when git takes the file for no pointer (it then
 * stops with "invalid gitfile format" or "no path in gitfile", and reads nothing through it).
 */
export function gitfilePath(bytes: Buffer): string | undefined {
  if (bytes.length < GITDIR.length || !bytes.subarray(0, GITDIR.length).equals(GITDIR)) return undefined;
  let end = bytes.length;
  while (bytes[end - 1] === LF || bytes[end - 1] === CR) end--;
  if (end <= GITDIR.length) return undefined;
  return trimmed(bytes, GITDIR.length);
}

/** The path in a `commondir` file's bytes (empty: the git directory itself). */
export const commondirPath = (bytes: Buffer): string => trimmed(bytes, 0);

/** Larger than any `.git` file git writes: one line holding a path. */
const MAX_GITFILE_BYTES = 64 * 1024;

/** The real path of the directory the `.git` file `dotGitFile` names, as git reads it; undefined when it names none. */
export async function gitFileTarget(dotGitFile: string): Promise<string | undefined> {
  const read = await readRegularFile(dotGitFile, MAX_GITFILE_BYTES);
  const pointer = read && 'bytes' in read ? gitfilePath(read.bytes) : undefined;
  if (pointer === undefined) return undefined;
  try {
    const real = await realpath(path.resolve(path.dirname(dotGitFile), pointer));
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The real path of the git directory a `.git` file or link leads to (a link to a directory: where it leads; to a file: the pointer in it); undefined when none. */
export async function dotGitTarget(dotGit: string): Promise<string | undefined> {
  try {
    const info = await stat(dotGit);
    if (info.isDirectory()) return await realpath(dotGit);
    return info.isFile() ? await gitFileTarget(dotGit) : undefined;
  } catch {
    return undefined;
  }
}

/** The real path of the directory a git directory's `commondir` names; undefined when it has none. */
export async function commonDirTarget(gitDir: string): Promise<string | undefined> {
  const read = await readRegularFile(path.join(gitDir, 'commondir'), MAX_GITFILE_BYTES);
  if (!read || !('bytes' in read)) return undefined;
  try {
    const real = await realpath(path.resolve(gitDir, commondirPath(read.bytes)));
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
