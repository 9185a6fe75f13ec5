/**
 * After each sandboxed command: git directories the command made or changed that would run a
 * program on the host at the user's next git command, set aside.
 *
 * The mounts (mount-plan.ts) keep the project's own `.git/config`, hooks, commondir and its
 * submodules' and worktrees' git directories read-only. What no list of mounts can stop is a NEW
 * git directory: a nested repository (`sub/.git/config` with `core.fsmonitor`), a `.git` file or
 * link in a subfolder (`gitdir: ../evil`), a new `.git/modules/<name>` or `.git/worktrees/<id>`
 * (whose `commondir` points at a planted directory). Git reads those when the user runs git in
 * that subfolder, or at an ordinary `git status` in the project once the nested repository is
 * registered as a submodule (the index must stay writable for `git add`). So, once the command
 * has ended (nothing it started is still running: the sandbox's PID namespace is gone), every
 * `.git` in the writable roots whose redirection, configuration, common dir, hooks or sequencer
 * todo lists changed during the command is checked (todo lists in the project's own `.git` too):
 * a configuration key outside the short list of keys that run nothing (the ones `git init`,
 * `clone`, `submodule` and `worktree` write), a hook, a common dir outside the project's
 * protected git directories, or a todo list's `exec` line, and the file that carries it is renamed
 * to `<name>.quarantined-by-mewcode`, with a warning naming it. A repository the model clones or
 * initialises for ordinary work has none of those, and nothing older than the command is judged.
 *
 * A directory git would take for a git directory by its shape alone (HEAD, objects/ and refs/,
 * no `.git`: a "bare" repository made in `src/`, or at the root of a project that is not a git
 * repository) is judged like a `.git` directory. The walk skips `node_modules` and stops after
 * MAX_SWEEP_DIRS directories (said once), but every submodule the project's index registers is
 * checked wherever it is, since an ordinary `git status` at the root reads it. A host
 * git command the user runs WHILE the command runs still sees the planted file: the window is the
 * command's duration.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseGitConfig } from '../../sdk/git-config-paths.js';
import { gitlinkPaths } from './git-index.js';
import { GIT_PROTECTED_IF_PRESENT, isWithin } from './policy.js';

/** Directories walked per root for `.git` entries. */
export const MAX_SWEEP_DIRS = 20_000;
export const QUARANTINE_SUFFIX = '.quarantined-by-mewcode';

/** Configuration keys that run nothing (section.*.name for subsections). */
const INERT_KEYS = new Set([
  'core.repositoryformatversion', 'core.filemode', 'core.bare', 'core.logallrefupdates', 'core.ignorecase', 'core.precomposeunicode',
  'core.symlinks', 'core.worktree', 'core.sparsecheckout', 'core.sparsecheckoutcone', 'core.autocrlf', 'core.eol', 'core.safecrlf',
  'core.quotepath', 'core.compression', 'core.loosecompression', 'core.checkstat', 'core.trustctime', 'core.untrackedcache',
  'core.splitindex', 'core.commitgraph', 'core.multipackindex', 'core.abbrev', 'core.preloadindex', 'core.longpaths',
  'core.sharedrepository', 'core.bigfilethreshold',
  'remote.*.url', 'remote.*.pushurl', 'remote.*.fetch', 'remote.*.push', 'remote.*.tagopt', 'remote.*.prune', 'remote.*.prunetags',
  'remote.*.mirror', 'remote.*.promisor', 'remote.*.partialclonefilter',
  'branch.*.remote', 'branch.*.merge', 'branch.*.rebase', 'branch.*.pushremote', 'branch.*.description',
  'submodule.*.url', 'submodule.*.active', 'submodule.*.branch', 'submodule.*.ignore', 'submodule.*.shallow', 'submodule.*.fetchrecursesubmodules',
  'user.name', 'user.email', 'user.signingkey', 'user.useconfigonly',
  'extensions.worktreeconfig', 'extensions.objectformat', 'extensions.partialclone', 'extensions.preciousobjects', 'extensions.noop',
  'init.defaultbranch', 'pull.rebase', 'pull.ff', 'push.default', 'push.autosetupremote', 'fetch.prune', 'fetch.recursesubmodules',
  'gc.auto', 'gc.autodetach', 'index.version', 'index.sparse', 'lfs.repositoryformatversion', 'lfs.url', 'maintenance.auto', 'maintenance.strategy',
]);

function inertKey(key: string, value: string): boolean {
  if (INERT_KEYS.has(key)) return true;
  const parts = key.split('.');
  if (parts.length < 3) return false;
  const generic = `${parts[0]}.*.${parts[parts.length - 1]}`;
  if (generic === 'submodule.*.update') return !value.trim().startsWith('!');
  return INERT_KEYS.has(generic);
}

export interface Quarantined {
  /** The file renamed (absolute). */
  path: string;
  /** Its new name. */
  movedTo: string;
  /** What it holds, e.g. `core.fsmonitor`. */
  why: string;
}

export interface SweepResult {
  quarantined: Quarantined[];
  /** The walk stopped at MAX_SWEEP_DIRS directories in some root. */
  truncated: boolean;
}

interface Context {
  since: number;
  roots: readonly string[];
  /** Real paths of the roots' own `.git` directories (their config and hooks are mounted read-only). */
  protectedGitDirs: string[];
  quarantined: Quarantined[];
}

/** The later of the entry's own change time and, through a link, its target's (a link's target can be edited later). */
async function ctimeOf(file: string): Promise<number | undefined> {
  let own: number;
  try {
    own = (await lstat(file)).ctimeMs;
  } catch {
    return undefined;
  }
  try {
    return Math.max(own, (await stat(file)).ctimeMs);
  } catch {
    return own; // a dangling link
  }
}

const changed = (ctime: number | undefined, since: number): boolean => ctime !== undefined && ctime >= since;

/** What in `value` (a config file's text) would run a program; undefined when nothing does. */
function configOffence(text: string): string | undefined {
  const unparsed: string[] = [];
  const bad = parseGitConfig(text, unparsed).filter(({ key, value }) => !inertKey(key, value)).map(({ key }) => key);
  // A line MewCode cannot read may be one git reads as a key: fail closed.
  if (unparsed.length > 0) bad.push(`a line that does not parse (${JSON.stringify(unparsed[0]!.slice(0, 40))})`);
  return bad.length > 0 ? [...new Set(bad)].join(', ') : undefined;
}

async function quarantine(file: string, why: string, context: Context): Promise<void> {
  // Only what the sandbox could have written: inside a writable root.
  if (!context.roots.some((root) => isWithin(root, file))) return;
  let target = `${file}${QUARANTINE_SUFFIX}`;
  for (let n = 2; (await ctimeOf(target)) !== undefined; n++) target = `${file}${QUARANTINE_SUFFIX}-${n}`;
  try {
    await rename(file, target);
    context.quarantined.push({ path: file, movedTo: target, why });
  } catch {
    // gone meanwhile
  }
}

/** A file's text when it is to be judged (`all`, or changed since the command started); undefined when not, or unreadable. */
async function textToJudge(file: string, all: boolean, context: Context): Promise<string | undefined> {
  if (!all && !changed(await ctimeOf(file), context.since)) return undefined;
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when `dir` is one of the roots' own git directories (mounted read-only where it matters). */
async function isProtectedGitDir(dir: string, context: Context): Promise<boolean> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    return false;
  }
  return context.protectedGitDirs.includes(real);
}

/**
 * Checks the git directory `gitDir`: its config files, commondir and hooks changed since the
 * command started (all of them when `all`), quarantining what would run a program. Returns
 * whether something there would (before quarantine), for a `.git` file that points at it.
 */
async function checkGitDir(gitDir: string, all: boolean, context: Context, depth = 0): Promise<string | undefined> {
  if (depth > 3 || (await isProtectedGitDir(gitDir, context))) return undefined;
  let offence: string | undefined;
  for (const name of ['config', 'config.worktree']) {
    const file = path.join(gitDir, name);
    const text = await textToJudge(file, all, context);
    if (text === undefined) continue;
    const why = configOffence(text);
    if (why) {
      offence ??= why;
      await quarantine(file, `git configuration that runs programs (${why})`, context);
    }
  }
  const commondir = path.join(gitDir, 'commondir');
  if (all || changed(await ctimeOf(commondir), context.since)) {
    try {
      const common = path.resolve(gitDir, gitPathFile(await readFile(commondir, 'utf8')));
      if (!(await isProtectedGitDir(common, context))) {
        const why = await checkGitDir(common, true, context, depth + 1);
        if (why) {
          offence ??= why;
          await quarantine(commondir, `a common dir whose configuration runs programs (${why})`, context);
        }
      }
    } catch {
      // no commondir
    }
  }
  const hooks = path.join(gitDir, 'hooks');
  let names: string[] = [];
  try {
    names = await readdir(hooks);
  } catch {
    // no hooks directory
  }
  // A hooks directory renamed or linked into place keeps its files' old times: then all are judged.
  const allHooks = all || changed(await ctimeOf(hooks), context.since);
  for (const name of names) {
    if (name.endsWith('.sample') || name.endsWith(QUARANTINE_SUFFIX) || name.includes(`${QUARANTINE_SUFFIX}-`)) continue;
    const file = path.join(hooks, name);
    if (!allHooks && !changed(await ctimeOf(file), context.since)) continue;
    offence ??= `hook ${name}`;
    await quarantine(file, 'a git hook', context);
  }
  const todo = await checkTodoLists(gitDir, all, context);
  return offence ?? todo;
}

/**
 * Sequencer todo lists: an `exec` (`x`) line runs its command on the host at the user's next
 * `git rebase --continue` (or `git cherry-pick --continue`). A command can leave one in any git
 * directory it may write, the project's own included (its `.git` stays writable for git's work).
 */
const TODO_LISTS = ['rebase-merge/git-rebase-todo', 'sequencer/todo'];
const EXEC_LINE = /^[ \t]*(?:x|exec)[ \t]+\S/m;

async function checkTodoLists(gitDir: string, all: boolean, context: Context): Promise<string | undefined> {
  let offence: string | undefined;
  for (const name of TODO_LISTS) {
    const file = path.join(gitDir, name);
    const text = await textToJudge(file, all, context);
    if (text === undefined || !EXEC_LINE.test(text)) continue;
    offence ??= `exec lines in ${name}`;
    await quarantine(file, `a todo list with exec lines, which git runs at the next --continue (${name})`, context);
  }
  return offence;
}

/** A path file's path as git reads it (`commondir`, a `.git` file's rest): only trailing line ends dropped, spaces kept. */
const gitPathFile = (text: string): string => text.replace(/[\r\n]+$/, '');

/** The git directory a `.git` file or link names; a file as git reads it: `gitdir: ` then the path (read_gitfile_gently). */
async function target(entry: string, kind: 'file' | 'link'): Promise<string | undefined> {
  try {
    if (kind === 'link') return await realpath(entry);
    const text = await readFile(entry, 'utf8');
    return text.startsWith('gitdir: ') ? path.resolve(path.dirname(entry), gitPathFile(text.slice('gitdir: '.length))) : undefined;
  } catch {
    return undefined;
  }
}

export interface GitEntry {
  path: string;
  kind: 'dir' | 'file' | 'link';
  /** Device and inode: the same path holding another entry later is a new entry. */
  id: string;
}

/** Directories listed at once (the thread pool reads them side by side). */
const WALK_BATCH = 64;

/** Every `.git` below `root` (not `root/.git` itself), skipping node_modules; bounded. */
export async function findGitEntries(root: string): Promise<{ entries: GitEntry[]; truncated: boolean }> {
  const found: { path: string; kind: GitEntry['kind'] }[] = [];
  let level = [root];
  let visited = 0;
  let truncated = false;
  while (level.length > 0 && !truncated) {
    if (visited + level.length > MAX_SWEEP_DIRS) {
      level = level.slice(0, MAX_SWEEP_DIRS - visited);
      truncated = true;
    }
    visited += level.length;
    const next: string[] = [];
    for (let i = 0; i < level.length; i += WALK_BATCH) {
      const batch = level.slice(i, i + WALK_BATCH);
      const listed = await Promise.all(batch.map((dir) => readdir(dir, { withFileTypes: true }).catch(() => [])));
      batch.forEach((dir, j) => {
        const children = listed[j]!;
        // A directory git takes for a git directory by its shape (HEAD, objects/, refs/: a "bare"
        // repository), found by git from there and below; the root's own only where it has no .git.
        if (looksLikeGitDir(children) && (dir !== root || !children.some((child) => child.name === '.git'))) found.push({ path: dir, kind: 'dir' });
        for (const child of children) {
          const full = path.join(dir, child.name);
          if (child.name === '.git') {
            if (dir !== root) found.push({ path: full, kind: child.isSymbolicLink() ? 'link' : child.isDirectory() ? 'dir' : 'file' });
          } else if (child.isDirectory() && child.name !== 'node_modules') next.push(full);
        }
      });
    }
    level = next;
  }
  const entries: GitEntry[] = [];
  for (const entry of found) {
    const id = await identity(entry.path);
    if (id) entries.push({ ...entry, id });
  }
  return { entries, truncated };
}

/**
 * What git's discovery may accept as a git directory without a `.git`: HEAD beside objects/ and
 * refs/ (links to directories count: git follows them), or beside a `commondir` (objects and refs
 * are then the common directory's). Erring wide only means judging a directory's config and hooks.
 */
function looksLikeGitDir(children: readonly Dirent[]): boolean {
  let head = false;
  let objects = false;
  let refs = false;
  let commondir = false;
  const dirOrLink = (child: Dirent): boolean => child.isDirectory() || child.isSymbolicLink();
  for (const child of children) {
    if (child.name === 'HEAD' && !child.isDirectory()) head = true;
    else if (child.name === 'objects' && dirOrLink(child)) objects = true;
    else if (child.name === 'refs' && dirOrLink(child)) refs = true;
    else if (child.name === 'commondir' && !child.isDirectory()) commondir = true;
  }
  return head && ((objects && refs) || commondir);
}

async function identity(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The `.git` of each submodule the root's index registers (a gitlink), as walk entries. The index
 * is the root's git directory's: `.git` itself, or where a `.git` file points (a linked worktree).
 */
async function gitlinkEntries(root: string): Promise<GitEntry[]> {
  const dotGit = path.join(root, '.git');
  const own = await gitEntryAt(dotGit);
  const gitDir = own?.kind === 'dir' ? dotGit : own ? await target(dotGit, own.kind) : undefined;
  if (gitDir === undefined) return [];
  const entries: GitEntry[] = [];
  for (const relative of await gitlinkPaths(gitDir)) {
    const file = path.join(root, relative, '.git');
    const entry = isWithin(root, file) ? await gitEntryAt(file) : undefined; // none: not checked out
    if (entry) entries.push(entry);
  }
  return entries;
}

/** What is at `file` as a walk entry (its kind and identity), or undefined when nothing is. */
async function gitEntryAt(file: string): Promise<GitEntry | undefined> {
  try {
    const info = await lstat(file);
    return { path: file, kind: info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : 'file', id: `${info.dev}:${info.ino}` };
  } catch {
    return undefined;
  }
}

/** Path → identity of every `.git` entry and inner git directory: what a later sweep compares with. */
export type GitBaseline = Map<string, string>;

/** The baseline before a root's first command. */
export async function gitBaseline(roots: readonly string[]): Promise<GitBaseline> {
  const baseline: GitBaseline = new Map();
  for (const root of roots) {
    for (const entry of (await findGitEntries(root)).entries) baseline.set(entry.path, entry.id);
    for (const entry of await gitlinkEntries(root)) baseline.set(entry.path, entry.id);
    for (const inner of await innerGitDirs(path.join(root, '.git'))) {
      const id = await identity(inner);
      if (id) baseline.set(inner, id);
    }
  }
  return baseline;
}

/** The git directories under `<root>/.git/modules` (found by their HEAD, nested names) and `.git/worktrees`. */
async function innerGitDirs(gitDir: string): Promise<string[]> {
  const out: string[] = [];
  let level = [path.join(gitDir, 'modules')];
  for (let depth = 0; depth < 8 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let children;
      try {
        children = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const child of children) {
        if (!child.isDirectory()) continue;
        const full = path.join(dir, child.name);
        if ((await ctimeOf(path.join(full, 'HEAD'))) !== undefined) {
          out.push(full);
          next.push(path.join(full, 'modules'));
        } else next.push(full);
      }
    }
    level = next;
  }
  try {
    for (const child of await readdir(path.join(gitDir, 'worktrees'), { withFileTypes: true })) if (child.isDirectory()) out.push(path.join(gitDir, 'worktrees', child.name));
  } catch {
    // no worktrees
  }
  return out;
}

/**
 * Sweeps the writable roots after a command that started at `since` (ms, wall clock), against
 * the `baseline` taken before it (updated in place). A `.git` or inner git directory at a path
 * the baseline does not know with the same identity (made, or moved there, by the command) is
 * judged whole; a known one, by what changed in it since the command started.
 */
export async function sweepGitDirs(roots: readonly string[], since: number, baseline: GitBaseline): Promise<SweepResult> {
  const protectedGitDirs: string[] = [];
  for (const root of roots) {
    try {
      if ((await stat(path.join(root, '.git'))).isDirectory()) protectedGitDirs.push(await realpath(path.join(root, '.git')));
    } catch {
      // not a repository
    }
  }
  const context: Context = { since, roots, protectedGitDirs, quarantined: [] };
  let truncated = false;
  // The project's own git directories: what the mounts could not block while missing, and todo
  // lists (the directory stays writable for git's own work).
  for (const gitDir of protectedGitDirs) {
    for (const name of GIT_PROTECTED_IF_PRESENT) {
      const file = path.join(gitDir, name);
      if (changed(await ctimeOf(file), since)) await quarantine(file, name === 'commondir' ? 'a redirection of where git reads its configuration and hooks' : 'a redirection of where git reads objects', context);
    }
    await checkTodoLists(gitDir, false, context);
  }
  const isNew = (file: string, id: string | undefined): boolean => id !== undefined && baseline.get(file) !== id;
  for (const gitDir of protectedGitDirs) {
    for (const inner of await innerGitDirs(gitDir)) {
      const id = await identity(inner);
      await checkGitDir(inner, isNew(inner, id), context);
      if (id) baseline.set(inner, id);
    }
  }
  for (const root of roots) {
    const found = await findGitEntries(root);
    truncated ||= found.truncated;
    // The index's submodules too, wherever they are (node_modules, past the walk's bound): an
    // ordinary `git status` at the root reads each one's git directory.
    const seen = new Set(found.entries.map((entry) => entry.path));
    for (const entry of await gitlinkEntries(root)) if (!seen.has(entry.path)) found.entries.push(entry);
    for (const entry of found.entries) {
      const fresh = isNew(entry.path, entry.id);
      baseline.set(entry.path, entry.id);
      if (entry.kind === 'dir') {
        // Not the directory's own ctime: any git command in the repository changes it (index.lock).
        await checkGitDir(entry.path, fresh, context);
        continue;
      }
      const moved = fresh || changed(await ctimeOf(entry.path), since);
      const gitDir = await target(entry.path, entry.kind);
      if (gitDir === undefined) continue;
      // A `.git` file or link made or changed now: everything it points at is judged, and the
      // redirection itself is what is set aside.
      const why = await checkGitDir(gitDir, moved, { ...context, roots: moved ? [] : roots, quarantined: context.quarantined });
      if (why && moved) await quarantine(entry.path, `a .git ${entry.kind === 'link' ? 'link' : 'file'} pointing at a git directory that runs programs (${why})`, context);
    }
  }
  return { quarantined: context.quarantined, truncated };
}
