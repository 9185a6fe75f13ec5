/**
 * MewCode's own state inside a project (`.mewcode/tool-output`, `.mewcode/sessions/<id>`, the
 * audit log, hooks.log …), reached without ever following a link. A repository can commit
 * `.mewcode -> ~` or `.mewcode/tool-output -> ../../home`; a clean-up that followed it would
 * delete the user's files, a write would land outside the project. So:
 *
 * - The directory is reached one name at a time from the project root (the root itself is the
 *   user's choice and may be reached through links). On Linux each name is opened with
 *   O_DIRECTORY|O_NOFOLLOW relative to the descriptor of its parent (`/proc/self/fd/N/name`,
 *   Node's stand-in for `openat`), so a directory swapped for a link between two steps cannot
 *   redirect anything; the last directory stays open and everything in it is reached through its
 *   descriptor. Elsewhere (no `/proc`) each name is checked with lstat and the result compared
 *   with its real path; the window between the check and the use remains there.
 * - A link (or a non-directory) on the way is refused with `StatePathRefused`: the operation is
 *   skipped, never redirected. Callers warn with its message.
 * - Files are opened with O_NOFOLLOW|O_NONBLOCK (a FIFO planted at the name cannot block) and must
 *   be regular files; removal unlinks names (never a link's target) and descends only into real
 *   directories.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../types/path-within.js';

const { O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = constants;

/** A link (or something other than a directory / regular file) where MewCode keeps its own state. */
export class StatePathRefused extends Error {
  override name = 'StatePathRefused';
  readonly code = 'ESTATELINK';
}

export function isStatePathRefused(error: unknown): error is StatePathRefused {
  return error instanceof StatePathRefused;
}

const PROC_FD = '/proc/self/fd';
let procAvailable: boolean | undefined;
const hasProcFd = (): boolean => (procAvailable ??= existsSync(PROC_FD));

/** A checked directory of MewCode's state; `close()` it when done. */
export interface StateDirectory {
  /** Its path as the user knows it (for messages and for paths shown to the model). */
  readonly path: string;
  /** Its real path. */
  readonly real: string;
  /** The path to hand to fs calls for `name` in this directory (through the held descriptor on Linux). */
  at(name: string): string;
  /** `name` as the user knows it. */
  shown(name: string): string;
  close(): void;
}

export interface OpenStateOptions {
  /** Create missing directories (mode 0700). Without it, a missing one gives undefined. */
  create: boolean;
}

/**
 * Opens `<root>/<relative>` (relative: e.g. `.mewcode/tool-output`), checking every name below
 * `root`. Undefined when a directory is missing and `create` is false; throws StatePathRefused for
 * a link or non-directory on the way, and what the file system said otherwise.
 */
export function openStateDirectory(root: string, relative: string, options: OpenStateOptions): StateDirectory | undefined {
  const names = path.normalize(relative).split(path.sep).filter((name) => name !== '' && name !== '.');
  if (names.includes('..')) throw new Error(`${relative}: MewCode's state stays inside the project`);
  return hasProcFd() ? openThroughDescriptors(root, root, names, options) : openWithChecks(root, names, options);
}

/** A directory inside an open state directory, checked the same way. */
export function openStateSubdirectory(parent: StateDirectory, name: string, options: OpenStateOptions): StateDirectory | undefined {
  if (name.includes('/') || name === '..' || name === '.') throw new Error(`${name}: not a directory name`);
  return hasProcFd() ? openThroughDescriptors(parent.at('.'), parent.path, [name], options) : openWithChecks(parent.path, [name], options);
}

/** `start` is opened following links (the project root, or a held descriptor's /proc path); every name after it is not. */
function openThroughDescriptors(start: string, shownStart: string, names: string[], options: OpenStateOptions): StateDirectory | undefined {
  let fd = openSync(start, O_RDONLY | O_DIRECTORY);
  let shown = shownStart;
  try {
    for (const name of names) {
      const next = path.join(PROC_FD, String(fd), name);
      shown = path.join(shown, name);
      let child: number;
      try {
        child = openSync(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') throw refusal(code, shown, next, error);
        if (!options.create) {
          closeSync(fd);
          return undefined;
        }
        try {
          // mkdir never follows a link at the name (a dangling one gives EEXIST, refused below).
          mkdirSync(next, { mode: 0o700 });
        } catch (mkdirError) {
          if ((mkdirError as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirError;
        }
        try {
          child = openSync(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } catch (again) {
          throw refusal((again as NodeJS.ErrnoException).code, shown, next, again);
        }
      }
      closeSync(fd);
      fd = child;
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const held = fd;
  const base = path.join(PROC_FD, String(held));
  let real: string;
  try {
    real = readlinkSync(base);
  } catch (error) {
    closeSync(held);
    throw error;
  }
  const shownDir = shown;
  let open = true;
  return {
    path: shownDir,
    real,
    at: (name) => path.join(base, name),
    shown: (name) => path.join(shownDir, name),
    close: () => {
      if (!open) return;
      open = false;
      closeSync(held);
    },
  };
}

function openWithChecks(root: string, names: string[], options: OpenStateOptions): StateDirectory | undefined {
  let shown = root;
  for (const name of names) {
    shown = path.join(shown, name);
    let info = lstatSync(shown, { throwIfNoEntry: false });
    if (info === undefined) {
      if (!options.create) return undefined;
      try {
        mkdirSync(shown, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      info = lstatSync(shown);
    }
    if (info.isSymbolicLink()) throw new StatePathRefused(`${shown} is a symbolic link (MewCode never follows one in its own directories)`);
    if (!info.isDirectory()) throw new StatePathRefused(`${shown} is not a directory`);
  }
  const real = realpathSync(shown);
  const expected = path.join(realpathSync(root), ...names);
  if (real !== expected) throw new StatePathRefused(`${shown} leads to ${real} through a link`);
  const dir = shown;
  return { path: dir, real, at: (name) => path.join(dir, name), shown: (name) => path.join(dir, name), close: () => undefined };
}

function refusal(code: string | undefined, shown: string, at: string, error: unknown): Error {
  if (code === 'ELOOP') return new StatePathRefused(`${shown} is a symbolic link (MewCode never follows one in its own directories)`);
  if (code === 'ENOTDIR') {
    const link = lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    return new StatePathRefused(link ? `${shown} is a symbolic link (MewCode never follows one in its own directories)` : `${shown} is not a directory`);
  }
  if (code === 'EEXIST') return new StatePathRefused(`${shown} is a symbolic link (MewCode never follows one in its own directories)`);
  return error as Error;
}

/**
 * Opens `name` in the directory with `flags` plus O_NOFOLLOW|O_NONBLOCK, and checks it is a
 * regular file with one link (appending to a hard link would change a file outside). Returns
 * the descriptor; throws StatePathRefused for a link, a FIFO, a device, a directory.
 */
export function openStateFile(dir: StateDirectory, name: string, flags: number, mode = 0o600): number {
  if (name.includes('/') || name === '..' || name === '.') throw new Error(`${name}: not a file name`);
  let fd: number;
  try {
    fd = openSync(dir.at(name), flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new StatePathRefused(`${dir.shown(name)} is a symbolic link (MewCode never follows one in its own directories)`);
    if (code === 'ENXIO' || code === 'EISDIR') throw new StatePathRefused(`${dir.shown(name)} is not a regular file`);
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new StatePathRefused(`${dir.shown(name)} is not a regular file`);
    if (info.nlink > 1) throw new StatePathRefused(`${dir.shown(name)} has ${info.nlink} hard links; MewCode writes only files of its own`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Removes `name` from the directory without following links: a link or a file is unlinked (a
 * link's target is never touched), a real directory is emptied the same way and removed.
 * Returns false when there was nothing to remove.
 */
export function removeStateEntry(dir: StateDirectory, name: string): boolean {
  const at = dir.at(name);
  const info = lstatSync(at, { throwIfNoEntry: false });
  if (info === undefined) return false;
  if (!info.isDirectory()) {
    unlinkSync(at);
    return true;
  }
  const child = openStateSubdirectory(dir, name, { create: false });
  if (child === undefined) return false;
  try {
    for (const entry of readdirSync(child.at('.'))) removeStateEntry(child, entry);
  } finally {
    child.close();
  }
  rmdirSync(at);
  return true;
}

// ---------------------------------------------------------------------------------------------
// One file at a time, named by its absolute path under the project root

function missing(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
}

function parentOf(root: string, file: string, create: boolean): { dir: StateDirectory; name: string } {
  const parent = path.dirname(file);
  if (!isPathWithin(root, parent)) throw new Error(`${file} is not inside ${root}`);
  const dir = openStateDirectory(root, path.relative(root, parent), { create });
  if (dir === undefined) throw missing(file);
  return { dir, name: path.basename(file) };
}

/** Opens `file` (under `root`) without following a link anywhere below the root; creates its directories when `create`. */
export function openProjectStateFile(root: string, file: string, flags: number, options: { create?: boolean; mode?: number } = {}): number {
  const { dir, name } = parentOf(root, file, options.create === true);
  try {
    return openStateFile(dir, name, flags, options.mode ?? 0o600);
  } finally {
    dir.close();
  }
}

/** The whole of `file` (under `root`), read without following a link; ENOENT when it is missing. */
export function readProjectStateFile(root: string, file: string): string {
  const fd = openProjectStateFile(root, file, O_RDONLY);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to a temporary name beside `file`, then renames it over (never a half-written file, never through a link). */
export function replaceProjectStateFile(root: string, file: string, text: string): void {
  const { dir, name } = parentOf(root, file, true);
  try {
    const temporary = `${name}.${process.pid}.tmp`;
    const fd = openStateFile(dir, temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(dir.at(temporary), dir.at(name)); // replaces the name, never follows it
  } finally {
    dir.close();
  }
}

/** Removes `file` (under `root`): the name only, never a link's target; false when it was not there. */
export function unlinkProjectStateFile(root: string, file: string): boolean {
  let parent: { dir: StateDirectory; name: string };
  try {
    parent = parentOf(root, file, false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    unlinkSync(parent.dir.at(parent.name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  } finally {
    parent.dir.close();
  }
}
