/**
 * The one way MewCode reads a file a project supplies to steer it — instruction files, its
 * configuration and settings, skills, agent definitions, hook rule files, `.mcp.json` — and the
 * one check for a script a project's hook names. A repository controls these names, so what it
 * commits must not reach anything but its own plain files:
 *
 * - **Inside the project, by real path.** The real path (every link on the way resolved, a chain
 *   of them included) must lie in the project root's real path: a link to `~/.ssh/id_rsa`, to
 *   `/proc/self/environ` or through `/proc/self/root/…` is refused. A link that stays inside is
 *   followed (`CLAUDE.md -> AGENTS.md` is a common convention) when its target has the same
 *   extension as the name, so a link cannot turn `.env` into instructions.
 * - **A regular file.** lstat of the real path, then an open with O_NOFOLLOW|O_NONBLOCK|O_NOCTTY
 *   (a FIFO swapped in meanwhile never blocks), then fstat of the descriptor: a FIFO, device,
 *   socket or directory is refused, and the descriptor must be the inode that was checked. On
 *   Linux the descriptor's own path (/proc/self/fd/N) is checked against the root as well, so a
 *   directory swapped for a link between the check and the open is caught.
 * - **Never /proc, /sys or /dev**, whatever the root (a project at `/` included).
 * - **One link only.** A file with more than one hard link has another name that may be outside
 *   the project, and that name cannot be found cheaply: it is refused (a copy or a symbolic link
 *   inside the project works).
 * - **Bounded.** At most `maxBytes` are read, whatever fstat says (a file that grows is caught):
 *   over the limit the file is refused, or cut at a character boundary when `oversize: 'truncate'`.
 *
 * The user's own files (`~/.mewcode`, `~/.claude`) are read without `root`: a dotfile manager
 * often links them elsewhere, and that is the user's choice. They must still be regular files
 * within the size limit (a FIFO there would hang every start too).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../types/path-within.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
/** The first read of a file whose fstat size is 0 or small (a /proc file reports 0). */
const MIN_READ_BYTES = 4096;

export interface ProjectFileOptions {
  /**
   * The project root: the file is the project's and must really lie inside it. Leave it out
   * for the user's own files, whose links are followed anywhere.
   */
  root?: string;
  /** The most bytes read. */
  maxBytes: number;
  /** Over `maxBytes`: refuse the file (default), or keep its first `maxBytes` bytes. */
  oversize?: 'refuse' | 'truncate';
  /**
   * Refuse a file that is not text: one holding a NUL byte, or bytes that are not UTF-8 (default:
   * decoded leniently, an invalid byte read as U+FFFD).
   */
  strictText?: boolean;
}

export type ProjectFileRead =
  | { ok: true; text: string; truncated: boolean; realPath: string }
  /** `missing`: nothing by that name (not a problem to report); otherwise `reason` says why it was refused. */
  | { ok: false; missing: boolean; reason: string };

const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

const KINDS: [(info: Stats) => boolean, string][] = [
  [(info) => info.isDirectory(), 'a directory'],
  [(info) => info.isFIFO(), 'a FIFO'],
  [(info) => info.isCharacterDevice(), 'a character device'],
  [(info) => info.isBlockDevice(), 'a block device'],
  [(info) => info.isSocket(), 'a socket'],
];

function kindOf(info: Stats): string {
  return KINDS.find(([test]) => test(info))?.[1] ?? 'not a regular file';
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

const refused = (reason: string): ProjectFileRead => ({ ok: false, missing: false, reason });
const missing: ProjectFileRead = { ok: false, missing: true, reason: 'it does not exist' };

/** Whether `realPath` is a system tree no definition file may come from (Linux and macOS paths). */
function inSystemTree(realPath: string): boolean {
  return SYSTEM_TREES.some((tree) => isPathWithin(tree, realPath));
}

/**
 * Where `file` really is, and whether the project may use it: undefined reason when it may.
 * Shared by the reader and the hook-script check (which never reads the script).
 */
function placeOf(file: string, root: string | undefined, sameKind = true): { realPath: string; reason?: undefined; missing?: undefined } | { reason: string; missing: boolean } {
  let realPath: string;
  try {
    realPath = realpathSync.native(file);
  } catch (error) {
    const failure = code(error);
    if (failure === 'ENOENT' || failure === 'ENOTDIR') {
      // A link to nothing is not "no file": say so (its target may appear later, outside).
      const info = (() => {
        try {
          return lstatSync(file);
        } catch {
          return undefined;
        }
      })();
      return info?.isSymbolicLink() ? { reason: 'it is a link to a file that does not exist', missing: false } : { reason: 'it does not exist', missing: true };
    }
    if (failure === 'ELOOP') return { reason: 'it is a loop of symbolic links', missing: false };
    return { reason: `it cannot be read (${failure ?? String(error)})`, missing: false };
  }
  if (inSystemTree(realPath)) return { reason: `it leads to ${realPath}, a system file`, missing: false };
  if (root === undefined) return { realPath };
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (error) {
    return { reason: `the project root cannot be resolved (${code(error) ?? String(error)})`, missing: false };
  }
  if (!isPathWithin(realRoot, realPath)) return { reason: `it is a link to ${realPath}, outside the project; a project's file may not lead out of it`, missing: false };
  if (sameKind && path.extname(realPath).toLowerCase() !== path.extname(file).toLowerCase()) {
    return { reason: `it is a link to ${path.relative(realRoot, realPath) || realPath}, a file of another kind; a link inside the project must keep the extension`, missing: false };
  }
  return { realPath };
}

/**
 * Directories package managers fill with hard links to their stores: pnpm, bun and npm's
 * `node_modules` (a pnpm store under ~/.local/share/pnpm), uv's `site-packages` in a `.venv`
 * (linked from ~/.cache/uv), Debian's `dist-packages`. A file with several links is expected there.
 * Frozen: the `mewcode` entry hands it to plugins, and read_file's hard-link refusal checks it.
 */
export const PACKAGE_DIRECTORIES: readonly string[] = Object.freeze(['node_modules', 'site-packages', 'dist-packages']);

/**
 * Whether a (real) path lies in a package directory: one of its directories below `root` (the
 * real project root; every directory when absent) has such a name.
 */
export function inPackageDirectory(realPath: string, root?: string): boolean {
  const dir = path.dirname(realPath);
  const below = root === undefined ? dir : path.relative(root, dir);
  return below.split(path.sep).some((part) => PACKAGE_DIRECTORIES.includes(part));
}

/** The refusal of a file with more than one hard link, the same words everywhere. */
export function hardLinks(count: number): string {
  return `it has ${count} hard links, so it is also a file elsewhere, possibly outside the project (only files in ${PACKAGE_DIRECTORIES.join(', ')} may have several); use a copy or a symbolic link inside the project instead`;
}

/** The path the kernel holds for descriptor `fd` (Linux), or undefined where there is none. */
function descriptorPath(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** Read a project's (or, without `root`, the user's) definition file; never throws, never blocks on a FIFO. */
export function readProjectTextFile(file: string, options: ProjectFileOptions): ProjectFileRead {
  const place = placeOf(file, options.root);
  if (place.reason !== undefined) return place.missing ? missing : refused(place.reason);
  const { realPath } = place;
  let before: Stats;
  try {
    before = lstatSync(realPath);
  } catch (error) {
    return code(error) === 'ENOENT' ? missing : refused(`it cannot be read (${code(error) ?? String(error)})`);
  }
  // Checked before the open: opening some devices has effects of its own.
  if (!before.isFile()) return refused(`it is ${kindOf(before)}, not a regular file`);
  let fd: number;
  try {
    fd = openSync(realPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    if (code(error) === 'ELOOP') return refused('it changed into a link while it was being opened');
    return code(error) === 'ENOENT' ? missing : refused(`it cannot be read (${code(error) ?? String(error)})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return refused(`it is ${kindOf(info)}, not a regular file`);
    if (info.dev !== before.dev || info.ino !== before.ino) return refused('it changed while it was being opened');
    if (options.root !== undefined) {
      const opened = descriptorPath(fd);
      if (opened !== undefined && !isPathWithin(realpathSync.native(options.root), opened)) return refused(`it changed while it was being opened (now ${opened}, outside the project)`);
      if (info.nlink > 1 && !inPackageDirectory(realPath, realpathSync.native(options.root))) return refused(hardLinks(info.nlink));
    }
    const truncate = options.oversize === 'truncate';
    if (!truncate && info.size > options.maxBytes) return refused(`it is ${info.size} bytes, over the ${options.maxBytes}-byte limit`);
    // Up to one byte more than allowed is read: a file that grew since fstat (or whose size lies,
    // as /proc's do) is caught too.
    const bytes = readUpTo(fd, options.maxBytes + 1, info.size);
    const length = bytes.length;
    const over = length > options.maxBytes;
    if (over && !truncate) return refused(`it is over the ${options.maxBytes}-byte limit`);
    // `stream: true` holds back an incomplete trailing sequence, so a cut never splits a character.
    const kept = bytes.subarray(0, Math.min(length, options.maxBytes));
    if (options.strictText && kept.includes(0)) return refused('it is a binary file');
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: options.strictText === true }).decode(kept, { stream: over });
    } catch {
      return refused('it is not UTF-8 text');
    }
    return { ok: true, text, truncated: over, realPath };
  } catch (error) {
    return refused(`it cannot be read (${code(error) ?? String(error)})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of `fd` from its start, at most `limit` of them. The buffer starts at the size fstat
 * gave (`sizeHint`), not at the limit: a megabyte zero-filled for each small settings file cost
 * start-up milliseconds. It grows only while the file keeps giving bytes. Exported for tests.
 */
export function readUpTo(fd: number, limit: number, sizeHint: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(limit, Math.max(sizeHint + 1, MIN_READ_BYTES)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length === limit) break;
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

/**
 * Whether a project may name `file` as something to run (a hook's script): the same place rules
 * as a read — inside the project by real path, not /proc, one hard link — and a regular file
 * (checked without opening it, so a FIFO cannot block). Undefined when it may; the reason otherwise.
 */
export function projectScriptProblem(file: string, root: string): string | undefined {
  // A script may be a link of another kind (node_modules/.bin/eslint -> ../eslint/bin/eslint.js).
  const place = placeOf(file, root, false);
  if (place.reason !== undefined) return place.missing ? undefined : place.reason;
  try {
    const info = lstatSync(place.realPath);
    if (info.isDirectory()) return undefined; // a directory argument is not a script
    if (!info.isFile()) return `it is ${kindOf(info)}, not a regular file`;
    if (info.nlink > 1 && !inPackageDirectory(place.realPath, realpathSync.native(root))) return hardLinks(info.nlink);
  } catch {
    return undefined; // gone: the command itself will say so
  }
  return undefined;
}

/**
 * The root a project's files are held to: none when the project is the home directory, whose
 * `.mewcode/` files are the user's own (and may be a dotfile manager's links).
 */
export function projectBoundary(projectRoot: string, homeDir: string): string | undefined {
  const real = (dir: string): string => {
    try {
      return realpathSync.native(dir);
    } catch {
      return path.resolve(dir);
    }
  };
  return path.resolve(projectRoot) === path.resolve(homeDir) || real(projectRoot) === real(homeDir) ? undefined : projectRoot;
}

/** The options that hold a file to `root` when there is one. */
export function withinRoot(root: string | undefined, options: Omit<ProjectFileOptions, 'root'>): ProjectFileOptions {
  return root === undefined ? options : { ...options, root };
}

/** A refusal told about a file by name: `SKILL.md is a FIFO, not a regular file`. */
export function refusalOf(name: string, reason: string): string {
  return reason.startsWith('it ') ? `${name} ${reason.slice(3)}` : `${name}: ${reason}`;
}
