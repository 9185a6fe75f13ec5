/**
 * Where the git sweep (git-sweep.ts) looks: every `.git` entry and every directory shaped like a
 * git directory below a writable root, the submodules the root's index registers wherever they
 * are, and the git directories inside the root's own `.git` (`modules/…`, `worktrees/…`). The walk
 * never follows a link (a directory's entries are read as they are, and only real directories are
 * entered), and skips `node_modules` unless the index could not be read (then nothing registered
 * there would otherwise be found). Names are read as bytes (byte-fs.ts), and what cannot be read
 * (a directory that cannot be listed, a registered submodule that cannot be reached) is returned
 * with why, for the sweep to tell the user: never taken for "nothing there".
 */
import { chmodSync, lstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { entries as listDir, lstat, realpath, type Entry } from './byte-fs.js';
import { toBytes } from './byte-names.js';
import { gitlinkPaths } from './git-index.js';
import { hasControl } from './git-printed.js';
import { commonDirTarget, dotGitTarget, gitfilePath } from './git-pointers.js';
import { hostSettingsFor, hostToolchainFileFor, isToolchainFolderName, mayBeHostToolchainFile, type HostToolchainFile } from '../../sdk/host-tool-files.js';
import { isProtectedIfPresentName, PROTECTED_NAMES } from './policy.js';
import { isPathWithin } from '../../types/path-within.js';
import { gitNamedPartsCached } from '../../sdk/git-config-paths.js';
import { follow, insideRoots, readSmallFile } from './sweep-paths.js';
import { WalkCache } from './walk-cache.js';

/** Directories walked per root for `.git` entries. */
export const MAX_SWEEP_DIRS = 20_000;

/** Skipped by the walk (their git directories are found through the index instead). */
const SKIPPED = 'node_modules';

export interface GitEntry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  /** Device, inode and birth time (idOf): the same path holding another entry later is a new entry. */
  id: string;
}

/** What could not be read: the path, and why (an errno code, or a sentence). */
export interface Unread {
  path: string;
  code: string;
}

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Directories listed at once (the thread pool reads them side by side). */
const WALK_BATCH = 64;

/** What the walk takes from one directory's entries: a function of them, the root and `everywhere` alone. */
interface DirFacts {
  /** The directory is shaped as a git directory (HEAD, objects/, refs/). */
  gitDirShaped: boolean;
  dotGits: { path: string; kind: GitEntry['kind'] }[];
  controlNames: string[];
  settings: string[];
  toolFiles: ToolFile[];
  subdirs: string[];
}

/** Kept between walks, per directory, while the directory is unchanged (walk-cache.ts). */
const KEPT = new WalkCache<DirFacts>();

function factsOf(dir: string, children: readonly Entry[], root: string, everywhere: boolean): DirFacts {
  const facts: DirFacts = {
    // A directory git takes for a git directory by its shape (HEAD, objects/, refs/: a "bare"
    // repository), found by git from there and below; the root's own only where it has no .git.
    gitDirShaped: looksLikeGitDir(children) && (dir !== root || !children.some((child) => isDotGit(child.name))),
    dotGits: [],
    controlNames: [],
    settings: [],
    toolFiles: [],
    subdirs: [],
  };
  for (const child of children) {
    const full = path.join(dir, child.name);
    if (facts.controlNames.length < MAX_CONTROL_NAMES && hasControl(toBytes(child.name))) facts.controlNames.push(full);
    if (isProjectSettings(child.name) && (dir !== root || isProtectedIfPresentName(child.name))) facts.settings.push(full);
    // A link in place of a folder a toolchain file is read from (sdk/host-tool-files.ts): judged as settings are.
    else if (child.isSymbolicLink() && isToolchainFolderName(child.name)) facts.settings.push(full);
    if (!child.isDirectory() && mayBeHostToolchainFile(child.name)) {
      const entry = hostToolchainFileFor(path.relative(root, full));
      if (entry) facts.toolFiles.push({ path: full, entry });
    }
    if (isDotGit(child.name)) {
      if (dir !== root) facts.dotGits.push({ path: full, kind: child.isSymbolicLink() ? 'link' : child.isDirectory() ? 'dir' : 'file' });
    } else if (child.isDirectory() && (everywhere || child.name !== SKIPPED)) facts.subdirs.push(full);
  }
  return facts;
}

/**
 * Every `.git` below `root` (not `root/.git` itself), skipping node_modules unless `everywhere`;
 * bounded. `unlisted`: the directories (and `.git` entries) that could not be read. A directory
 * unchanged since an earlier walk is not listed again (`cache`, walk-cache.ts).
 */
export async function findGitEntries(
  root: string,
  everywhere = false,
  maxDirs = MAX_SWEEP_DIRS,
  cache: WalkCache<DirFacts> = KEPT,
): Promise<{ entries: GitEntry[]; settings: string[]; toolFiles: ToolFile[]; controlNames: string[]; truncated: boolean; notWalked: string[]; unlisted: Unread[] }> {
  const found: { path: string; kind: GitEntry['kind'] }[] = [];
  // Names holding a terminal control character (C1 ones: git status prints them raw under
  // core.quotePath=false); found by the name alone, so no file is stat'ed for this.
  const controlNames: string[] = [];
  const settings: string[] = [];
  const toolFiles: ToolFile[] = [];
  const unlisted: Unread[] = [];
  const device = cache.device(root);
  const factsFor = async (dir: string): Promise<DirFacts> => {
    const key = `${everywhere ? 'all' : 'walk'}\0${root}\0${dir}`;
    // Taken before the listing: a change while it is read leaves a stamp that no longer matches.
    const stamp = device === undefined ? undefined : cache.stamp(dir, device);
    const kept = cache.reuse(key, stamp);
    if (kept !== undefined) return kept;
    const facts = factsOf(dir, await listDir(dir), root, everywhere);
    cache.keep(key, stamp, facts);
    return facts;
  };
  let level = [root];
  let visited = 0;
  let truncated = false;
  let notWalked: string[] = [];
  while (level.length > 0 && !truncated) {
    if (visited + level.length > maxDirs) {
      notWalked = level.slice(maxDirs - visited);
      level = level.slice(0, maxDirs - visited);
      truncated = true;
    }
    visited += level.length;
    const next: string[] = [];
    for (let i = 0; i < level.length; i += WALK_BATCH) {
      const batch = level.slice(i, i + WALK_BATCH);
      const listed = await Promise.all(batch.map((dir) => factsFor(dir).catch((error: unknown) => ({ code: codeOf(error) }))));
      batch.forEach((dir, j) => {
        const facts = listed[j]!;
        if ('code' in facts) {
          unlisted.push({ path: dir, code: facts.code });
          return;
        }
        // One at a time, not spread: a directory may hold more entries than a call takes arguments.
        if (facts.gitDirShaped) found.push({ path: dir, kind: 'dir' });
        for (const entry of facts.dotGits) found.push(entry);
        for (const name of facts.controlNames) if (controlNames.length < MAX_CONTROL_NAMES) controlNames.push(name);
        for (const file of facts.settings) settings.push(file);
        for (const file of facts.toolFiles) toolFiles.push(file);
        for (const sub of facts.subdirs) next.push(sub);
      });
    }
    // Past the bound: the rest of this level, and what the walked part of it holds, are unread.
    if (truncated) notWalked = [...notWalked, ...next];
    level = next;
  }
  const entries: GitEntry[] = [];
  for (const entry of found) {
    try {
      entries.push(await gitEntryAt(entry.path));
    } catch (error) {
      unlisted.push({ path: entry.path, code: codeOf(error) });
    }
  }
  return { settings, toolFiles, controlNames, entries, truncated, notWalked, unlisted };
}

/**
 * What git's discovery may accept as a git directory without a `.git`: HEAD beside objects/ and
 * refs/ (links to directories count: git follows them), or beside a `commondir` (objects and refs
 * are then the common directory's). Erring wide only means judging a directory's config and hooks.
 */
/**
 * Names compared without case (ASCII letters: names are byte strings here): on a filesystem that
 * ignores case (macOS, a WSL `/mnt/c`, CIFS, vfat, ext4 casefold) git opens `.GIT`, `Objects` and
 * `head` as `.git`, `objects` and `HEAD`. On one that keeps case such a folder is judged for
 * nothing git would read; a config there that runs a program is set aside all the same.
 */
const asciiLower = (name: string): string => name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
const isDotGit = (name: string): boolean => name.length === 4 && asciiLower(name) === '.git';

/**
 * Project settings that make a program run when the folder they are in is opened, or that the
 * next agent session there reads: the names the sandbox keeps read-only at the project's root
 * (policy.ts), found here below it, where no mount can be made ahead (a package of a monorepo the
 * user opens on its own: `packages/app/.vscode/tasks.json`, `.devcontainer.json`); at the root
 * too, those that get no mount point while missing (`opencode.json`, `*.code-workspace`).
 * Toolchain files (`.tool-versions`, `.npmrc`…) are found at every depth, the root included: no
 * mount keeps them, what they hold is judged (settings-sweep.ts).
 */
const PROJECT_SETTINGS = new Set(PROTECTED_NAMES.map(asciiLower));
const isProjectSettings = (name: string): boolean => PROJECT_SETTINGS.has(asciiLower(name)) || hostSettingsFor(name) !== undefined;

/** Names holding a control character kept per walk at most. */
const MAX_CONTROL_NAMES = 100;

/** A toolchain or package-manager file (sdk/host-tool-files.ts), judged by what it holds. */
export interface ToolFile {
  path: string;
  entry: HostToolchainFile;
}

function looksLikeGitDir(children: readonly Entry[]): boolean {
  let head = false;
  let objects = false;
  let refs = false;
  let commondir = false;
  // Git's own test (setup.c, is_git_directory) asks only that `objects` and `refs` be searchable
  // (access X_OK): an executable FILE named so passes as well as a directory. So any entry of
  // those names counts here; taking a few ordinary folders for git directories costs one check.
  for (const child of children) {
    const name = asciiLower(child.name);
    if (name === 'head' && !child.isDirectory()) head = true;
    else if (name === 'objects') objects = true;
    else if (name === 'refs') refs = true;
    else if (name === 'commondir' && !child.isDirectory()) commondir = true;
  }
  return head && ((objects && refs) || commondir);
}

/**
 * Device, inode and birth time: ext4 hands a freed inode number straight back, so a folder made
 * after another was removed may get its number (a red team planted a git directory that way and
 * renamed it into the old one's place); the birth time tells them apart where the file system
 * keeps one (ext4, xfs, btrfs, tmpfs: Node reads it with statx). Where statx cannot run (an older
 * container's seccomp profile), libuv reports the change time as the birth time, which moves with
 * every change: then device and inode alone (realBirthTimes).
 */
const idOf = (info: { dev: number; ino: number; birthtimeMs: number }): string => (realBirthTimes() ? `${info.dev}:${info.ino}:${info.birthtimeMs}` : `${info.dev}:${info.ino}`);

let birthTimesChecked: boolean | undefined;
/** Whether this process reads real birth times: a file's birth time stays put when its change time moves. */
function realBirthTimes(): boolean {
  if (birthTimesChecked !== undefined) return birthTimesChecked;
  let dir: string | undefined;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-btime-'));
    const file = path.join(dir, 'f');
    writeFileSync(file, '');
    const before = lstatSync(file).birthtimeMs;
    const start = Date.now();
    while (Date.now() - start < 5); // past the clock's tick
    chmodSync(file, 0o600);
    birthTimesChecked = before > 0 && lstatSync(file).birthtimeMs === before && lstatSync(file).ctimeMs !== before;
  } catch {
    birthTimesChecked = false;
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
  return birthTimesChecked;
}

export async function identity(file: string): Promise<string | undefined> {
  try {
    return idOf(await lstat(file));
  } catch {
    return undefined;
  }
}

/** What is at `file` as a walk entry (its kind and identity); throws what lstat throws. */
async function gitEntryAt(file: string): Promise<GitEntry> {
  const info = await lstat(file);
  return { path: file, kind: info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : 'file', id: idOf(info) };
}

/**
 * The `.git` of each submodule the root's index registers (a gitlink), as walk entries; what could
 * not be read (`unread`: then the walk has to go everywhere); and the registered `.git` entries
 * that could not be reached (`unreached`). The index is the root's git directory's: `.git` itself,
 * or where a `.git` file points (a linked worktree). A submodule not checked out (nothing at its
 * path) has nothing git reads; one behind a link (`lnk/sub` with `lnk` a link) is left out too:
 * git refuses to enter one.
 */
export async function gitlinkEntries(root: string, roots: readonly string[]): Promise<{ entries: GitEntry[]; unread?: string; unreached: Unread[] }> {
  const dotGit = path.join(root, '.git');
  const own = await gitEntryAt(dotGit).catch(() => undefined);
  let gitDir: string | undefined;
  if (own?.kind === 'dir') gitDir = dotGit;
  else if (own?.kind === 'file') {
    const read = await readSmallFile(dotGit);
    const pointer = read && 'bytes' in read ? gitfilePath(read.bytes) : undefined;
    if (pointer !== undefined) gitDir = (await follow(root, pointer, roots)).real;
  }
  if (gitDir === undefined) return { entries: [], unreached: [] };
  const listed = await gitlinkPaths(gitDir, root);
  const entries: GitEntry[] = [];
  const unreached: Unread[] = [];
  for (const relative of listed.gitlinks) {
    // git never writes a name with an empty, `.` or `..` part (the kernel would resolve one through
    // links where a lexical join does not): one planted in the index is not followed, but reported.
    const parts = relative.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..')) {
      unreached.push({ path: path.join(root, relative), code: 'a name with an empty, `.` or `..` part' });
      continue;
    }
    const dir = path.join(root, relative);
    const file = path.join(dir, '.git');
    if (!isPathWithin(root, file)) continue; // (cannot be, without `..`)
    let real: string;
    try {
      real = await realpath(dir);
    } catch (error) {
      const code = codeOf(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') unreached.push({ path: dir, code }); // else: not checked out
      continue;
    }
    if (real !== dir || !insideRoots(roots, dir)) continue; // behind a link
    try {
      entries.push(await gitEntryAt(file));
    } catch (error) {
      const code = codeOf(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') unreached.push({ path: file, code }); // else: not checked out
    }
  }
  return { entries, unread: listed.unread, unreached };
}

/** Folders listed under `.git/modules` per git directory at most; past it, the rest is reported as not checked. */
export const MAX_MODULE_DIRS = 10_000;

/**
 * The git directories under `<root>/.git/modules` (found by their HEAD, nested names: at any
 * depth, since a submodule's name is free and git keeps its git directory at `modules/<name>`) and
 * `.git/worktrees`, and the directories there that could not be listed (or were past
 * MAX_MODULE_DIRS). Only real directories: a link there is judged where a `.git` file points
 * through it (git-sweep.ts), never followed here.
 */
export async function innerGitDirs(gitDir: string, maxDirs = MAX_MODULE_DIRS): Promise<{ dirs: string[]; unlisted: Unread[] }> {
  const out: string[] = [];
  const unlisted: Unread[] = [];
  const list = async (dir: string): Promise<Entry[]> => {
    try {
      return await listDir(dir);
    } catch (error) {
      unlisted.push({ path: dir, code: codeOf(error) });
      return [];
    }
  };
  const realDir = async (dir: string): Promise<boolean> => (await lstat(dir).catch(() => undefined))?.isDirectory() === true;
  let level = (await realDir(path.join(gitDir, 'modules'))) ? [path.join(gitDir, 'modules')] : [];
  let listed = 0;
  while (level.length > 0) {
    const next: string[] = [];
    for (const dir of level) {
      if (++listed > maxDirs) {
        unlisted.push({ path: dir, code: `more than ${maxDirs} folders under modules` });
        continue;
      }
      for (const child of await list(dir)) {
        if (!child.isDirectory()) continue;
        const full = path.join(dir, child.name);
        if ((await lstat(path.join(full, 'HEAD')).catch(() => undefined)) !== undefined) {
          out.push(full);
          next.push(path.join(full, 'modules'));
        } else next.push(full);
      }
    }
    level = next;
  }
  const worktrees = path.join(gitDir, 'worktrees');
  if (await realDir(worktrees)) {
    for (const child of await list(worktrees)) if (child.isDirectory()) out.push(path.join(worktrees, child.name));
  }
  return { dirs: out, unlisted };
}

/** Path → identity of every `.git` entry and inner git directory: what a later sweep compares with. */
export type GitBaseline = Map<string, string>;

/** Where git reads the user's configuration: the home, and XDG_CONFIG_HOME when set. */
export interface UserConfigHome {
  homeDir: string;
  xdgConfigHome?: string;
}

/** What a repository's configuration and hooks name by a path (sdk/git-config-paths.ts); [] when it cannot be read. */
export function namedByRepository(gitDir: string, workTree: string, home: UserConfigHome): string[] {
  try {
    const parts = gitNamedPartsCached({ gitDir, workTree, ...home });
    return [...parts.named, ...parts.hooksDirs, ...parts.programs, ...parts.hookInputs.paths];
  } catch {
    return [];
  }
}

/** A path the baseline knows was not there. */
export const MISSING = '-';

/**
 * The identity of each folder from the root holding `target` down to it (itself included), MISSING
 * where there is none: a folder renamed into place on the way keeps its files' old times, so what a
 * nested repository names is judged when a folder on its way is not the one that was there
 * (git-sweep.ts wayMovedIn).
 */
export async function recordWay(baseline: GitBaseline, roots: readonly string[], target: string): Promise<void> {
  const root = roots.find((candidate) => isPathWithin(candidate, target) && candidate !== target);
  if (root === undefined) return;
  for (let dir = target; dir !== root && isPathWithin(root, dir); dir = path.dirname(dir)) baseline.set(dir, (await identity(dir)) ?? MISSING);
}

/** The baseline before a root's first command. */
export async function gitBaseline(roots: readonly string[], home?: UserConfigHome): Promise<GitBaseline> {
  const baseline: GitBaseline = new Map();
  for (const root of roots) {
    const gitlinks = await gitlinkEntries(root, roots);
    const found = await findGitEntries(root, gitlinks.unread !== undefined);
    for (const entry of found.entries) baseline.set(entry.path, entry.id);
    // Project settings below the root too: one at a path the baseline does not know is new (a
    // folder holding it moved into place keeps its old times).
    for (const settings of [...found.settings, ...found.toolFiles.map((file) => file.path)]) {
      const id = await identity(settings);
      if (id) baseline.set(settings, id);
    }
    for (const entry of gitlinks.entries) baseline.set(entry.path, entry.id);
    const gitDirs: string[] = [];
    for (const inner of (await innerGitDirs(path.join(root, '.git'))).dirs) {
      const id = await identity(inner);
      if (id) baseline.set(inner, id);
      gitDirs.push(inner);
    }
    // Where each `.git` file or link, and each `commondir`, leads: a git directory renamed into
    // place there later (its files keep their old times) is then one the sweep judges whole. And
    // the folders on the way to what each nested repository's configuration and hooks name.
    for (const entry of [...found.entries, ...gitlinks.entries]) {
      const target = entry.kind === 'dir' ? entry.path : await dotGitTarget(entry.path);
      if (target === undefined) continue;
      gitDirs.push(target);
      if (home === undefined || path.basename(entry.path) !== '.git') continue;
      for (const named of namedByRepository(target, path.dirname(entry.path), home)) await recordWay(baseline, roots, named);
    }
    for (const gitDir of gitDirs) {
      const common = await commonDirTarget(gitDir);
      for (const target of common === undefined ? [gitDir] : [gitDir, common]) {
        const id = await identity(target);
        if (id) baseline.set(target, id);
      }
    }
  }
  return baseline;
}
