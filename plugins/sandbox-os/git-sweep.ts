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
 * a configuration key outside the short list of keys that run nothing (git-inert-config.ts), a
 * hook, a common dir whose configuration or hooks do either, or a todo list's `exec` line, and
 * the file that carries it is renamed to `<name>.quarantined-by-mewcode`, with a warning naming
 * it. A repository the model clones or initialises for ordinary work has none of those, and
 * nothing older than the command is judged. State files a shell prompt prints (git-printed.ts) that
 * the command gave terminal control characters are set aside too, in any git directory, and last,
 * what would hide the command's change from the user's `git status` and `git diff` is undone or
 * named (git-review.ts).
 *
 * The command can write only inside the writable roots, but it can leave links there that lead
 * anywhere. So the sweep never judges or renames what a link leads to outside them
 * (sweep-paths.ts): every name in a git directory is followed as git would follow it, and when a
 * `hooks` directory, a hook, `config`, a todo list, a `commondir`, a `.git` file's `gitdir:` or a
 * `.git` link leads outside the writable roots, the link or pointer file itself (which is inside)
 * is what is set aside, if it was made or changed during the command. Whatever a pointer made
 * during the command leads to is judged whole, and only the pointer is set aside. Renames go
 * through a descriptor of the parent directory reached without following a link.
 *
 * A directory git would take for a git directory by its shape alone (HEAD, objects/ and refs/,
 * no `.git`: a "bare" repository made in `src/`, or at the root of a project that is not a git
 * repository) is judged like a `.git` directory. The walk (git-walk.ts) skips `node_modules` and
 * stops after MAX_SWEEP_DIRS directories (said once), but every submodule the project's index
 * registers is checked wherever it is, since an ordinary `git status` at the root reads it (and
 * when the index cannot be read, node_modules is walked too). A host git command the user runs
 * WHILE the command runs still sees the planted file: the window is the command's duration.
 *
 * Names are bytes, not text: a directory, an index entry or a pointer may name a path that is not
 * UTF-8, and a pointer (`gitdir:`, `commondir`) ends at its first NUL as git reads it
 * (git-pointers.ts); every path is carried as a byte string (byte-names.ts). What cannot be read
 * or followed (a directory that cannot be listed, a pointer that cannot be followed for a reason
 * other than a missing name, a file too large) is never taken for "nothing there": made or changed
 * during the command, what leads to it is set aside; otherwise the user is told it was not checked.
 */
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitNamedPartsCached, type GitNamedParts } from '../../sdk/git-config-paths.js';
import { entries, lstat, realpath } from './byte-fs.js';
import { fromBytes, toBytes } from './byte-names.js';
import { parseGitConfig } from '../../sdk/git-config-syntax.js';
import { isPathWithin } from '../../types/path-within.js';
import { configOffence, worktreesOf } from './git-inert-config.js';
import { hasControl, PRINTED_DIRS, PRINTED_FILES } from './git-printed.js';
import { shownRef } from './git-refs.js';
import { checkReview, type ReviewBaseline } from './git-review.js';
import { commondirPath, gitfilePath } from './git-pointers.js';
import { findGitEntries, gitlinkEntries, identity, innerGitDirs, MISSING, type GitBaseline, type GitEntry, type Unread } from './git-walk.js';
import { GIT_PROTECTED_IF_PRESENT } from './policy.js';
import { giveOwnCopy, MAX_GIT_DIR_ENTRIES, plantedLinks } from './git-dir-links.js';
import { readOwnIndex } from './git-index.js';
import { checkStagedGuarded } from './git-staged-guarded.js';
import { arrivedSince, changedSince, toolFileOffence } from './settings-sweep.js';
import { follow, insideRoots, isRealInside, mayHide, QUARANTINE_SUFFIX, readSmallFile, setAsideEntry, shownPath, type Reached } from './sweep-paths.js';

export { gitBaseline, MAX_SWEEP_DIRS, type GitBaseline } from './git-walk.js';
export { reviewBaseline, type ReviewBaseline } from './git-review.js';
export { QUARANTINE_SUFFIX } from './sweep-paths.js';

export interface Quarantined {
  /** The file, directory or link renamed (absolute). */
  path: string;
  /** Its new name. */
  movedTo: string;
  /** What it holds, e.g. `core.fsmonitor`. */
  why: string;
  /** What would have run it, when not git (an editor opening the folder). */
  runBy?: string;
}

export interface SweepResult {
  quarantined: Quarantined[];
  /** What could not be checked or set aside, a sentence each. */
  unchecked: string[];
  /** What the user should know about what the command left (git-review.ts), a sentence each. */
  notices: string[];
  /** The walk stopped at its bound (MAX_SWEEP_DIRS directories) in some root. */
  truncated: boolean;
  /** Then: the folders whose contents were not read (absolute, a few of them). */
  notWalked: string[];
}

interface Context {
  since: number;
  roots: readonly string[];
  /** The roots' own `.git` directories (their config and hooks are mounted read-only). */
  protectedGitDirs: string[];
  /** Where the user's git configuration is read from (sdk/git-config-paths.ts). */
  home: GitHome;
  quarantined: Quarantined[];
  unchecked: string[];
  /** What the user should know that was neither set aside nor left unchecked. */
  notices: string[];
  /**
   * false while judging what a pointer made during the command leads to: the pointer is set
   * aside, nothing it leads to.
   */
  apply: boolean;
  /** Identities from before the command (git-walk.ts gitBaseline), updated as the sweep goes. */
  baseline: GitBaseline;
}

/**
 * Whether the git directory `dir`, where an old pointer (a `.git` file or link, a `commondir`)
 * leads, is not the one that was there before the command: renamed or made in place during it,
 * its files keep the times they had, so what changed in it says nothing. Judged whole then (the
 * pointer is set aside if it runs programs). The baseline holds it from now on.
 */
async function movedIn(dir: string, context: Context): Promise<boolean> {
  const real = await realpath(dir).catch(() => undefined);
  const info = real === undefined ? undefined : await lstat(real).catch(() => undefined);
  const id = real === undefined ? undefined : await identity(real);
  if (real === undefined || id === undefined || info === undefined) return false;
  const known = context.baseline.get(real);
  context.baseline.set(real, id);
  // Known before (its identity, or that it was missing) and renamed or made in place during the
  // command (a rename moves its change time): one the user made between two commands is theirs,
  // and one never looked at is judged by what changed in it.
  return known !== undefined && known !== id && info.ctimeMs >= context.since;
}

const OUTSIDE = 'outside the directories the command may write';

/** What each of GIT_PROTECTED_IF_PRESENT is, when one made or changed during a command is set aside. */
const IF_PRESENT_WHY: Readonly<Record<string, string>> = {
  commondir: 'a redirection of where git reads its configuration and hooks',
  'objects/info/alternates': 'a redirection of where git reads objects',
  'lazygit.yml': "lazygit's settings for this repository (lazygit runs the pager and commands they name when you open it here)",
};

function setAside(file: string, why: string, context: Context, runBy?: string): void {
  if (!context.apply) return;
  const result = setAsideEntry(file, context.roots);
  if (result === undefined) return; // gone meanwhile
  if ('movedTo' in result) context.quarantined.push({ path: file, movedTo: result.movedTo, why, ...(runBy ? { runBy } : {}) });
  else context.unchecked.push(`${shownPath(file)} holds ${why}, but could not be set aside (${result.refused})`);
}

/**
 * What the user's git writes through (git-dir-links.ts): each link the command made in `gitDir`
 * set aside, each file it gave a second name given a copy of its own.
 */
function checkPlantedLinks(gitDir: string, all: boolean, context: Context): string | undefined {
  // The project's own git directories are walked whole, their modules and worktrees included.
  if (context.apply && context.protectedGitDirs.some((own) => own !== gitDir && isPathWithin(own, gitDir))) return undefined;
  const { links, shared, truncated } = plantedLinks(gitDir, context.since, all);
  // Judging what a pointer made during the command leads to: the pointer is what is set aside.
  if (!context.apply) return links[0]?.what ?? (shared.length > 0 ? 'a second name of another file (git writes through it)' : undefined);
  for (const { entry, what } of links) setAside(entry, what, context, GIT_WRITES_THROUGH);
  const failed: string[] = [];
  for (const file of shared) {
    const why = giveOwnCopy(file);
    if (why === undefined) continue;
    failed.push(file);
    setAside(file, `a second name of another file (git writes through it), which could not be given a copy of its own (${why})`, context, GIT_WRITES_THROUGH);
  }
  if (shared.length > failed.length) context.notices.push(`${shared.length - failed.length} ${shared.length - failed.length === 1 ? 'file' : 'files'} in ${shownPath(gitDir)} shared ${shared.length - failed.length === 1 ? 'its content' : 'their content'} with another name (a hard link made by the command), which git would have written through: MewCode gave each a copy of its own`);
  if (truncated) notChecked(`${shownPath(gitDir)} holds more than ${MAX_GIT_DIR_ENTRIES} entries: links in the rest of it were not looked for`, context);
  return links[0]?.what;
}

/** An index the command made or changed holding entries git never writes (git-index-facts.ts unsafeIndexPath): set aside. */
async function checkIndexPaths(gitDir: string, all: boolean, context: Context, workTree: string | undefined): Promise<string | undefined> {
  const named = await lookUp(gitDir, 'index', context);
  if (!named || !(all || named.changed) || !named.reached.inside || !named.info?.isFile()) return undefined;
  // This reader alone: git is not run in a repository whose configuration may not be judged yet (a pointer's target).
  const facts = await readOwnIndex(gitDir).catch((error: Error) => ({ unknown: error.message }));
  if ('unknown' in facts) {
    notChecked(`the index of ${shownPath(workTree ?? (await workTreeOf(gitDir)))} changed and could not be read (${facts.unknown}): entries git never writes were not looked for in it`, context);
    return undefined;
  }
  if (facts.unsafe.length === 0) return undefined;
  const why = `an index with entries git never writes (${facts.unsafe.slice(0, 3).map((name) => JSON.stringify(shownPath(name))).join(', ')})`;
  setAside(named.entry, why, context, 'git would have written them outside the work tree or into a git directory at your next git checkout -- . or git restore there (`git reset` builds a new index from the last commit)');
  return why;
}

const GIT_WRITES_THROUGH = 'your git would have written through it at your next commit, fetch or pull there (a commit message into .git/config, a fetched branch name into a shell startup file)';

/** Tells the user `what` was not checked (once per sentence). */
function notChecked(what: string, context: Context): void {
  if (context.apply && !context.unchecked.includes(what)) context.unchecked.push(what);
}

/**
 * Whether a path that stopped short (`reached.blocked`) may hide what the command left: then it
 * cannot be taken for "nothing there" (sweep-paths.ts mayHide).
 */
const blockedMayHide = async (reached: Reached, context: Context): Promise<boolean> =>
  reached.blocked !== undefined && (await mayHide(reached.blocked.at, reached.blocked.why, context.since));

const blockedWhy = (reached: Reached): string => `${reached.blocked?.why ?? 'it cannot be followed'} at ${shownPath(reached.shown)}`;

/** A name in a git directory (`config`, `hooks/pre-commit`), followed as git follows it. */
interface Named {
  /** What is renamed to set it aside: the first link on the way, else the name itself; never what a link leads to. */
  entry: string;
  reached: Reached;
  /** It, or a link on the way, was made or changed during the command. */
  changed: boolean;
  /** What it leads to, when that is inside a root. */
  info?: Stats;
  /** It cannot be reached to be judged (sweep-paths.ts `blocked`), and may hide what the command left. */
  blocked?: string;
}

/** `name`: relative to `gitDir`, or absolute (a path its configuration names). */
async function lookUp(gitDir: string, name: string, context: Context): Promise<Named | undefined> {
  const reached = await follow(gitDir, name, context.roots);
  if (reached.real === undefined && reached.inside && (await blockedMayHide(reached, context))) {
    // Where the command could write, and nothing says whether it changed: it counts as changed.
    // (Stopped outside the roots, it is judged as any link leading outside.)
    return { entry: reached.links[0]?.path ?? path.resolve(gitDir, name), reached, changed: true, blocked: blockedWhy(reached) };
  }
  if (reached.real === undefined && reached.links.length === 0) return undefined; // nothing there
  let ctime = -Infinity;
  for (const link of reached.links) ctime = Math.max(ctime, link.ctimeMs);
  let info: Stats | undefined;
  if (reached.inside && reached.real !== undefined) {
    info = await lstat(reached.real).catch(() => undefined);
    if (info) ctime = Math.max(ctime, info.ctimeMs);
  }
  return { entry: reached.links[0]?.path ?? path.resolve(gitDir, name), reached, changed: ctime >= context.since, info };
}

/** Sets aside the link through which `name` leads outside the roots (or to nothing there); returns why. */
function leadsOutside(named: Named, name: string, context: Context): string {
  const why = `a link where git reads ${name}, leading ${named.reached.real === undefined ? 'nowhere' : OUTSIDE} (${shownPath(named.reached.shown)})`;
  setAside(named.entry, why, context);
  return why;
}

/** Sets aside what leads to `name`, which cannot be reached to be judged; returns why. */
function cannotJudge(named: Named, name: string, context: Context): string {
  const why = `${name}, which cannot be reached to check (${named.blocked})`;
  setAside(named.entry, why, context);
  return why;
}

/**
 * Judges the file `name` of a git directory with `judge` when `all` or when it changed during the
 * command, setting it aside (described by `describe`) when judged to run a program.
 */
async function judgeFile(gitDir: string, name: string, all: boolean, context: Context, judge: (text: string) => string | undefined | Promise<string | undefined>, describe: (why: string) => string): Promise<string | undefined> {
  const named = await lookUp(gitDir, name, context);
  if (!named || !(all || named.changed)) return undefined;
  if (named.blocked) return cannotJudge(named, name, context);
  if (!named.reached.inside) return leadsOutside(named, name, context);
  if (!named.info?.isFile()) return undefined; // a directory or a FIFO there: git reads nothing from it that runs a program
  const read = await readSmallFile(named.reached.real!);
  if (read === undefined) {
    // A regular file a moment ago that cannot be opened now (its mode, or swapped meanwhile): not judged, so set aside.
    const why = `${name}, which cannot be read to check`;
    setAside(named.entry, why, context);
    return why;
  }
  // Bytes as git reads them: a value that is not UTF-8 stays its bytes (a core.worktree path).
  const why = 'tooLarge' in read ? `${name} too large to check` : await judge(fromBytes(read.bytes));
  if (why) setAside(named.entry, describe(why), context);
  return why;
}

/**
 * Checks the git directory `gitDir` (a real path): its config files, commondir, hooks and todo
 * lists changed since the command started (all of them when `all`), setting aside what would run
 * a program. Returns what would (before it was set aside), for a pointer that leads here.
 */
async function checkGitDir(gitDir: string, all: boolean, context: Context, depth = 0, workTree?: string): Promise<string | undefined> {
  if (depth > 3 || context.protectedGitDirs.includes(gitDir) || !(await isRealInside(gitDir, context.roots))) return undefined;
  const found: (string | undefined)[] = [];
  const judge = async (text: string): Promise<string | undefined> => configOffence(text) ?? (await worktreeOutside(gitDir, text, context.roots));
  for (const name of ['config', 'config.worktree']) found.push(await judgeFile(gitDir, name, all, context, judge, (why) => `git configuration that runs programs or writes outside the project (${why})`));
  found.push(await checkCommonDir(gitDir, all, context, depth));
  found.push(await checkHooks(gitDir, all, context));
  found.push(await checkConfigNamed(gitDir, workTree ?? (await workTreeOf(gitDir)), context));
  found.push(await checkTodoLists(gitDir, all, context));
  // lazygit's settings for this repository: whatever they hold, they name programs lazygit runs.
  found.push(await judgeFile(gitDir, 'lazygit.yml', all, context, () => 'lazygit.yml', () => IF_PRESENT_WHY['lazygit.yml']!));
  found.push(checkPlantedLinks(gitDir, all, context));
  found.push(await checkIndexPaths(gitDir, all, context, workTree));
  // A nested repository's staging (git-staged-guarded.ts; the project's and its submodules' are the review's).
  if (context.apply && workTree !== undefined) {
    const index = await lookUp(gitDir, 'index', context);
    if (index?.changed && index.reached.inside) {
      const parts = gitNamedPartsCached({ gitDir, workTree, ...context.home });
      await checkStagedGuarded(gitDir, workTree, JSON.stringify(shownPath(workTree)), [...parts.named, ...parts.hookInputs.paths, ...parts.programs], 'head', undefined, context);
    }
  }
  if (context.apply) await checkPrintedNames(gitDir, all, context);
  return found.find((why) => why !== undefined);
}

/**
 * A `core.worktree` that leads outside the writable roots, or to a work tree inside them that is
 * not this git directory's own (git resolves a relative one against the git directory; a link on
 * the way counts where it leads; one that does not exist cannot be judged, so it counts as outside).
 */
async function worktreeOutside(gitDir: string, text: string, roots: readonly string[]): Promise<string | undefined> {
  for (const worktree of worktreesOf(text)) {
    let real: string;
    try {
      real = await realpath(path.resolve(gitDir, worktree));
    } catch {
      return `core.worktree ${JSON.stringify(shownPath(worktree))} does not exist`;
    }
    if (!insideRoots(roots, real)) return `core.worktree ${JSON.stringify(shownPath(worktree))} is outside the project`;
    // Inside it: only the folder this git directory is the `.git` of, or one whose `.git` file
    // points back here (a submodule's). Another (the project's own root) would have the user's
    // checkout in this repository write files commands may not, a hook among them (a red team's).
    if (await worksHere(gitDir, real)) continue;
    return `core.worktree ${JSON.stringify(shownPath(worktree))} is another repository's work tree`;
  }
  return undefined;
}

/** Whether `workTree` is the one `gitDir` serves: its `.git` is `gitDir`, or a file pointing there. */
async function worksHere(gitDir: string, workTree: string): Promise<boolean> {
  const realGitDir = await realpath(gitDir).catch(() => gitDir);
  const dotGit = path.join(workTree, '.git');
  const info = await lstat(dotGit).catch(() => undefined);
  if (info === undefined) return false;
  if (info.isDirectory()) return (await realpath(dotGit).catch(() => undefined)) === realGitDir;
  const read = info.isFile() ? await readSmallFile(dotGit) : undefined;
  const pointer = read && 'bytes' in read ? gitfilePath(read.bytes) : undefined;
  return pointer !== undefined && (await realpath(path.resolve(workTree, pointer)).catch(() => undefined)) === realGitDir;
}

/**
 * `commondir`: where git reads this directory's config and hooks from. One made or changed during
 * the command (or a link on the way to where it points) has its target judged whole and is set
 * aside itself; an older one has its target's changes judged in place.
 */
async function checkCommonDir(gitDir: string, all: boolean, context: Context, depth: number): Promise<string | undefined> {
  const named = await lookUp(gitDir, 'commondir', context);
  if (!named) return undefined;
  if (named.blocked) return cannotJudge(named, 'commondir', context);
  if (!named.reached.inside) return all || named.changed ? leadsOutside(named, 'commondir', context) : undefined;
  if (!named.info?.isFile()) return undefined;
  const read = await readSmallFile(named.reached.real!);
  if (read === undefined || 'tooLarge' in read) {
    if (!(all || named.changed)) return undefined;
    const why = read === undefined ? 'a commondir that cannot be read to check' : 'a commondir too large to check';
    setAside(named.entry, why, context);
    return why;
  }
  const common = await follow(gitDir, commondirPath(read.bytes), context.roots);
  const judged = all || named.changed || common.links.some((link) => link.ctimeMs >= context.since);
  if (!common.inside) {
    if (!judged) return undefined;
    const why = `a common dir ${OUTSIDE} (${shownPath(common.shown)})`;
    setAside(named.entry, why, context);
    return why;
  }
  if (common.real === undefined && (await blockedMayHide(common, context))) {
    const why = `a common dir that cannot be reached to check (${blockedWhy(common)})`;
    if (judged) setAside(named.entry, why, context);
    else notChecked(`${shownPath(named.entry)} leads to a common dir that was not checked (${blockedWhy(common)})`, context);
    return why;
  }
  if (common.real === undefined) {
    context.baseline.set(common.shown, MISSING); // nothing there yet: what is renamed or made there later is judged whole then (movedIn)
    return undefined;
  }
  if (common.real === gitDir) return undefined;
  const judgedWhole = (await movedIn(common.real, context)) || judged;
  const why = await checkGitDir(common.real, judgedWhole, { ...context, apply: context.apply && !judgedWhole }, depth + 1);
  if (why && judgedWhole) setAside(named.entry, `a common dir whose configuration runs programs (${why})`, context);
  return why;
}

/** `hooksDir`: `hooks` in the git directory, or the absolute path its core.hooksPath names. */
async function checkHooks(gitDir: string, all: boolean, context: Context, hooksDir = 'hooks'): Promise<string | undefined> {
  const hooks = await lookUp(gitDir, hooksDir, context);
  if (!hooks) return undefined;
  if (hooks.blocked) return cannotJudge(hooks, 'hooks', context);
  if (!hooks.reached.inside) return all || hooks.changed ? leadsOutside(hooks, 'hooks', context) : undefined;
  if (!hooks.info?.isDirectory()) return undefined;
  // A hooks directory renamed or linked into place keeps its files' old times: then all are judged.
  const allHooks = all || hooks.changed;
  let names: string[];
  try {
    names = (await entries(hooks.reached.real!)).map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!(await mayHide(hooks.reached.real!, code, context.since))) return undefined;
    const why = `a hooks directory that cannot be listed to check (${code})`;
    if (allHooks) setAside(hooks.entry, why, context);
    else notChecked(`the hooks directory ${shownPath(hooks.reached.real!)} could not be listed (${code}); its hooks were not checked`, context);
    return why;
  }
  let offence: string | undefined;
  for (const name of names) {
    if (name.endsWith('.sample') || name.endsWith(QUARANTINE_SUFFIX) || name.includes(`${QUARANTINE_SUFFIX}-`)) continue;
    const hook = await lookUp(gitDir, path.join(hooksDir, name), context);
    if (!hook || !(allHooks || hook.changed)) continue;
    offence ??= `hook ${shownPath(name)}`;
    const why = hook.reached.inside && !hook.blocked ? 'a git hook' : hook.blocked ? `a git hook that cannot be reached to check (${hook.blocked})` : `a git hook that is a link leading ${hook.reached.real === undefined ? 'nowhere' : OUTSIDE} (${shownPath(hook.reached.shown)})`;
    setAside(hook.entry, why, context);
  }
  return offence;
}

/**
 * What a nested repository's configuration (or the user's, read for that repository) names by a
 * path inside the roots (sdk/git-config-paths.ts): a file it includes, the hooks directory
 * core.hooksPath names (taken from that repository's work tree), a program such as a clean filter,
 * what its installed hooks read. The project's own repository has those read-only (mount-plan.ts);
 * a nested one's are judged here, after the command: an included file changed during it as its
 * configuration is, a hook in the named directory as a hook is, and a program or a hook's input
 * made or changed during it set aside, as a hook would be. Only what changed: a new repository is
 * judged whole by its own configuration, which names these only through keys that are set aside.
 */
async function checkConfigNamed(gitDir: string, workTree: string, context: Context): Promise<string | undefined> {
  let parts: GitNamedParts;
  try {
    parts = gitNamedPartsCached({ gitDir, workTree, ...context.home });
  } catch {
    return undefined;
  }
  const inside = (named: string): boolean => insideRoots(context.roots, named) && !context.roots.includes(named);
  const repository = shownPath(workTree);
  const found: (string | undefined)[] = [];
  const hooksDirs = parts.hooksDirs.filter((dir) => dir !== path.join(gitDir, 'hooks') && inside(dir));
  // husky's `.husky/_` runs the hooks one folder up: that folder is a hooks directory too.
  const hookFolders = [...hooksDirs, ...hooksDirs.filter((dir) => path.basename(dir) === '_').map((dir) => path.dirname(dir))];
  for (const dir of new Set(hookFolders)) found.push(await checkHooks(gitDir, await wayMovedIn(dir, context), context, dir));
  const judge = (text: string): string | undefined => configOffence(text);
  for (const file of parts.named) {
    if (!inside(file) || hookFolders.includes(file) || parts.hooksDirs.includes(file)) continue;
    found.push(await judgeFile(gitDir, file, await wayMovedIn(file, context), context, judge, (why) => `a file the git configuration of ${repository} includes, which runs programs (${why})`));
  }
  for (const file of new Set([...parts.programs, ...parts.hookInputs.paths])) {
    if (!inside(file)) continue;
    const movedIn = await wayMovedIn(file, context);
    const named = await lookUp(gitDir, file, context);
    // A folder's time moves with any file made in it (a cache, an editor's swap file): files only.
    if (named === undefined || !(named.changed || movedIn) || named.info?.isDirectory()) continue;
    const why = `a program or file the git configuration or hooks of ${repository} name by a path (made or changed by the command, or in a folder it renamed into place)`;
    setAside(named.entry, why, context, `git would have run it at your next git command in ${repository}`);
    found.push(why);
  }
  return found.find((why) => why !== undefined);
}

/**
 * Whether a folder on the way to `target` (what a repository's configuration or hooks name), or the
 * target itself, was renamed or made in place since the last look: the baseline (git-walk.ts
 * recordWay) holds another identity for it, or knew it was missing. What is in such a folder keeps
 * its old times, so it is judged whole. A path the baseline never looked at is not judged this way
 * (the configuration naming it changed since, and is judged itself). The baseline holds the way as
 * it is now from here on.
 */
async function wayMovedIn(target: string, context: Context): Promise<boolean> {
  const root = context.roots.find((candidate) => isPathWithin(candidate, target) && candidate !== target);
  if (root === undefined) return false;
  let moved = false;
  for (let dir = target; dir !== root && isPathWithin(root, dir); dir = path.dirname(dir)) {
    const info = await lstat(dir).catch(() => undefined);
    // Folders only: a file saved by renaming a new one over it (an editor, write_file, git) is a
    // new inode, and what changed in a file is judged by its own time.
    if (info !== undefined && !info.isDirectory()) continue;
    const id = (await identity(dir)) ?? MISSING;
    const known = context.baseline.get(dir);
    // Renamed or made in place during the command: a rename moves the folder's change time too
    // (one the user replaced between two commands is theirs).
    if (known !== undefined && known !== id && info !== undefined && info.ctimeMs >= context.since) moved = true;
    context.baseline.set(dir, id);
  }
  return moved;
}

/** A git directory's work tree: the folder holding `.git`, else its core.worktree, else the folder holding it. */
async function workTreeOf(gitDir: string): Promise<string> {
  if (path.basename(gitDir) === '.git') return path.dirname(gitDir);
  const read = await readSmallFile(path.join(gitDir, 'config'));
  const worktree = read && 'bytes' in read ? worktreesOf(fromBytes(read.bytes))[0] : undefined;
  return worktree ? path.resolve(gitDir, worktree) : path.dirname(gitDir);
}

/**
 * Sequencer todo lists: an `exec` (`x`) line runs its command on the host at the user's next
 * `git rebase --continue` (or `git cherry-pick --continue`). A command can leave one in any git
 * directory it may write, the project's own included (its `.git` stays writable for git's work).
 */
const TODO_LISTS = ['rebase-merge/git-rebase-todo', 'sequencer/todo'];
const EXEC_LINE = /^[ \t]*(?:x|exec)[ \t]+\S/m;

/**
 * The merge strategies git has built in. Another name is run as a program (`git-merge-<name>`,
 * a path when it holds a `/`) at the next --continue or --skip of the operation in progress.
 */
const BUILT_IN_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);

/** The strategy a rebase (`rebase-merge/strategy`, one name) or a cherry-pick (`sequencer/opts`, git config) will run. */
const STRATEGY_FILES: readonly [string, (text: string) => string[]][] = [
  ['rebase-merge/strategy', (text) => [text.trim()].filter(Boolean)],
  ['sequencer/opts', (text) => parseGitConfig(text).filter((entry) => entry.key === 'options.strategy').map((entry) => entry.value)],
];

async function checkTodoLists(gitDir: string, all: boolean, context: Context): Promise<string | undefined> {
  const found: (string | undefined)[] = [];
  for (const name of TODO_LISTS) {
    const judge = (text: string): string | undefined => (EXEC_LINE.test(text) ? `exec lines in ${name}` : undefined);
    const describe = (why: string): string => (why.startsWith('exec lines') ? `a todo list with exec lines, which git runs at the next --continue (${name})` : `a todo list git runs at the next --continue (${why})`);
    found.push(await judgeFile(gitDir, name, all, context, judge, describe));
  }
  for (const [name, strategies] of STRATEGY_FILES) {
    const judge = (text: string): string | undefined => {
      const other = strategies(text).find((strategy) => !BUILT_IN_STRATEGIES.has(strategy));
      return other === undefined ? undefined : `merge strategy "${other}" in ${name}`;
    };
    found.push(await judgeFile(gitDir, name, all, context, judge, (why) => `a merge strategy git runs as a program at the next --continue (${why})`));
  }
  return found.find((why) => why !== undefined);
}

/**
 * A `.git` entry the walk found. A directory is checked as a git directory. A `.git` file holds a
 * pointer (`gitdir: <path>`, read as git reads it: git-pointers.ts), and so does a file a `.git`
 * link leads to (git reads through the link, and takes a relative path from the link's directory);
 * a link to a directory points at it. One made or changed during the command (or a link on the way
 * to where it points, or the file a link leads to) has everything it points at judged, and the
 * `.git` file or link itself is what is set aside.
 */
async function checkEntry(entry: GitEntry, fresh: boolean, context: Context): Promise<void> {
  if (entry.kind === 'dir') {
    // Not the directory's own ctime: any git command in the repository changes it (index.lock).
    // (checkGitDir follows nothing unless the directory is really where the walk saw it.)
    await checkGitDir(entry.path, fresh, context, 0, path.basename(entry.path) === '.git' ? path.dirname(entry.path) : undefined);
    return;
  }
  const parent = path.dirname(entry.path);
  // Found in what the walk saw as a real directory; one swapped for a link since is not followed.
  if (!(await isRealInside(parent, context.roots))) return;
  const own = await lstat(entry.path).catch(() => undefined);
  if (!own) return;
  const kind = own.isSymbolicLink() ? 'link' : 'file';
  const since = context.since;
  let moved = fresh || own.ctimeMs >= since;
  let pointerFile: string | undefined = own.isFile() ? entry.path : undefined;
  let target: Reached | undefined;
  if (own.isSymbolicLink()) {
    target = await follow(parent, path.basename(entry.path), context.roots);
    moved ||= target.links.some((link) => link.ctimeMs >= since);
    const info = target.inside && target.real !== undefined ? await lstat(target.real).catch(() => undefined) : undefined;
    if (info?.isFile()) {
      pointerFile = target.real;
      moved ||= info.ctimeMs >= since;
    }
  }
  if (pointerFile !== undefined) {
    const read = await readSmallFile(pointerFile);
    if (read === undefined || 'tooLarge' in read) {
      // git refuses a .git file it cannot read, or one over 1 MiB; one a command left that way cannot be checked.
      if (moved) setAside(entry.path, `a .git ${kind} that cannot be read to check`, context);
      return;
    }
    const pointer = gitfilePath(read.bytes);
    if (pointer === undefined) return; // git takes it for no pointer ("invalid gitfile format") and stops there
    target = await follow(parent, pointer, context.roots);
    moved ||= target.links.some((link) => link.ctimeMs >= since);
  }
  if (target === undefined) return; // a FIFO or a device: git reads no pointer from it
  if (!target.inside) {
    if (moved) setAside(entry.path, `a .git ${kind} pointing ${OUTSIDE} (${shownPath(target.shown)})`, context);
    return;
  }
  if (target.real === undefined) {
    if (await blockedMayHide(target, context)) {
      if (moved) setAside(entry.path, `a .git ${kind} pointing where it cannot be followed to check (${blockedWhy(target)})`, context);
      else notChecked(`${shownPath(entry.path)} points where it cannot be followed (${blockedWhy(target)}); what it points at was not checked`, context);
    }
    // Nothing there yet: what is made there later is judged then (known to be missing, so that a
    // folder given the old one's inode number on a file system that keeps no birth time is new too).
    context.baseline.set(target.shown, MISSING);
    return;
  }
  // A pointer to a repository's own `.git` (the project's, a nested one's) makes git take this
  // folder for the top of that repository: what its configuration names relative to the top
  // (`core.hooksPath = .husky/_`, `filter.x.clean = ./tools/clean.sh`) is then read below this
  // folder, where nothing protects it. git's own pointers name `.git/worktrees/<id>` or
  // `.git/modules/<name>`, never a `.git` itself.
  if (moved && path.basename(target.real) === '.git' && path.dirname(target.real) !== parent) {
    setAside(entry.path, `a .git ${kind} making this folder the top of the repository at ${shownPath(path.dirname(target.real))} (git would read what its configuration names from here)`, context);
    return;
  }
  moved = (await movedIn(target.real, context)) || moved;
  const why = await checkGitDir(target.real, moved, { ...context, apply: context.apply && !moved }, 0, parent);
  if (why && moved) setAside(entry.path, `a .git ${kind} pointing at a git directory that runs programs (${why})`, context);
}

/**
 * The files shell prompts print from a git directory (git-printed.ts): one made or changed during
 * the command (all of them in a directory that is new, or a state directory that changed: its
 * files may have been moved in with it) that holds a terminal control character is set aside.
 * git then takes HEAD's directory for no repository, and an operation in progress for a broken
 * one, until it is renamed back.
 */
async function checkPrintedNames(gitDir: string, all: boolean, context: Context): Promise<void> {
  const judge = async (name: string, whole: boolean): Promise<void> => {
    const named = await lookUp(gitDir, name, context);
    if (!named || !(whole || named.changed) || named.reached.real === undefined || !named.reached.inside) return;
    const read = await readSmallFile(named.reached.real);
    if (read && 'bytes' in read && hasControl(read.bytes)) setAside(named.entry, `a git state file with terminal control characters (${shownPath(name)}, which a git-aware prompt prints as it is)`, context, 'your shell prompt would have printed it into your terminal');
  };
  for (const name of PRINTED_FILES) await judge(name, all);
  for (const dir of PRINTED_DIRS) {
    const named = await lookUp(gitDir, dir, context);
    if (!named?.info?.isDirectory() || !named.reached.inside) continue;
    let names: string[];
    try {
      names = (await entries(named.reached.real!)).map((entry) => entry.name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (await mayHide(named.reached.real!, code, context.since)) notChecked(`${shownPath(named.reached.real!)} could not be listed (${code}); what a shell prompt prints from it was not checked`, context);
      continue;
    }
    for (const name of names) if (!name.endsWith(QUARANTINE_SUFFIX) && !name.includes(`${QUARANTINE_SUFFIX}-`)) await judge(`${dir}/${name}`, all || named.changed);
  }
}

/** Tells the user about what could not be read, when it may hide what the command left. */
async function reportUnread(items: readonly Unread[], what: string, context: Context): Promise<void> {
  for (const item of items) if (await mayHide(item.path, item.code, context.since)) notChecked(`${shownPath(item.path)} ${what} (${item.code})`, context);
}

/**
 * Sweeps the writable roots (real paths) after a command that started at `since` (ms, wall
 * clock), against the `baseline` taken before it (updated in place). An inner git directory at a
 * path the baseline does not know with the same identity is judged whole, and so is a `.git` there
 * that took its path during the command (made, or moved there: settings-sweep.ts arrivedSince); a
 * known one, or one made between two commands, by what changed in it since the command started.
 *
 * `own`: MewCode's own state directories (`~/.mewcode`, the project's `.mewcode`). MewCode writes
 * them while the command runs (audit log, sessions, hook log, these records), so found below a
 * writable root (`allow_write: [~]`, a root above the project) they would always look changed.
 * They are never set aside: the mount plan keeps both read-only (or uncreatable) inside the
 * sandbox whenever they lie in a writable root (mount-plan.ts), so the command cannot have
 * written, replaced or made them; whatever changed there is MewCode's own doing.
 */
/** The user's home and XDG_CONFIG_HOME, where git reads the user's configuration (with the repository's). */
export interface GitHome {
  homeDir: string;
  xdgConfigHome?: string;
}

/** `homeDir` with this process's XDG_CONFIG_HOME. */
export const gitHome = (homeDir: string): GitHome => ({ homeDir, ...(process.env.XDG_CONFIG_HOME ? { xdgConfigHome: process.env.XDG_CONFIG_HOME } : {}) });

export async function sweepGitDirs(roots: readonly string[], since: number, baseline: GitBaseline, maxDirs?: number, review?: ReviewBaseline, own: readonly string[] = [], home: GitHome = gitHome(os.homedir())): Promise<SweepResult> {
  const ownDirs = await ownStateDirs(own);
  const protectedGitDirs: string[] = [];
  for (const root of roots) {
    const dotGit = path.join(root, '.git');
    if ((await lstat(dotGit).catch(() => undefined))?.isDirectory()) protectedGitDirs.push(dotGit);
  }
  const context: Context = { since, roots, protectedGitDirs, home, quarantined: [], unchecked: [], notices: [], apply: true, baseline };
  const named: string[] = [];
  let truncated = false;
  const notWalked = new Set<string>();
  // The project's own git directories: what the mounts could not block while missing, and todo
  // lists (the directory stays writable for git's own work).
  for (const gitDir of protectedGitDirs) {
    for (const name of GIT_PROTECTED_IF_PRESENT) {
      const named = await lookUp(gitDir, name, context);
      if (named?.changed) setAside(named.entry, IF_PRESENT_WHY[name] ?? name, context);
    }
    await checkTodoLists(gitDir, false, context);
    await checkPrintedNames(gitDir, false, context);
    checkPlantedLinks(gitDir, false, context);
  }
  const isNew = (file: string, id: string | undefined): boolean => id !== undefined && baseline.get(file) !== id;
  for (const gitDir of protectedGitDirs) {
    const found = await innerGitDirs(gitDir);
    await reportUnread(found.unlisted, 'could not be listed; git directories in it were not checked', context);
    for (const inner of found.dirs) {
      const id = await identity(inner);
      await checkGitDir(inner, isNew(inner, id), context);
      if (id) baseline.set(inner, id);
    }
  }
  for (const root of roots) {
    // The index's submodules too, wherever they are (node_modules, past the walk's bound): an
    // ordinary `git status` at the root reads each one's git directory. An index that cannot be
    // read leaves them unknown: then the walk goes into node_modules as well.
    const gitlinks = await gitlinkEntries(root, roots);
    if (gitlinks.unread !== undefined) context.unchecked.push(`the submodules registered in the index of ${shownPath(root)} are unknown (${gitlinks.unread}); node_modules was searched for git directories instead`);
    await reportUnread(gitlinks.unreached, 'is registered as a submodule but could not be reached; it was not checked', context);
    const found = await findGitEntries(root, gitlinks.unread !== undefined, maxDirs);
    truncated ||= found.truncated;
    // Named by the folders that hold what was not read: the place to look, not 20,000 names.
    for (const dir of found.notWalked) if (notWalked.size < 5) notWalked.add(path.dirname(dir));
    await reportUnread(found.unlisted, 'could not be read; git repositories in it were not checked', context);
    const seen = new Set(found.entries.map((entry) => entry.path));
    for (const entry of gitlinks.entries) if (!seen.has(entry.path)) found.entries.push(entry);
    // Found by a walk of the parts the last one walked too, a new entry is the command's only if it
    // took its path during the command: made between two commands (by the user, an editor,
    // write_file) it is theirs (settings-sweep.ts), judged by what changed in it since the command
    // started, as a known one. One the index registers where no walk goes (node_modules), or found
    // by a walk that went everywhere (the index unreadable), is new by being reachable now,
    // whatever its times: judged whole.
    const walkedAsBefore = gitlinks.unread === undefined;
    const arrived = async (file: string, id: string | undefined): Promise<boolean> => isNew(file, id) && (!walkedAsBefore || (await arrivedSince(root, file, since)));
    for (const entry of found.entries) {
      const fresh = seen.has(entry.path) ? await arrived(entry.path, entry.id) : isNew(entry.path, entry.id);
      baseline.set(entry.path, entry.id);
      await checkEntry(entry, fresh, context);
    }
    for (const settings of found.settings) {
      if (ownDirs.has(settings)) continue;
      const id = await identity(settings);
      if ((await arrived(settings, id)) || (await changedSince(settings, since))) {
        setAside(settings, 'project settings (made, moved or changed by the command)', context, 'an editor or agent opening this folder would have run what they name');
      } else if (id) baseline.set(settings, id);
    }
    // Names `git status` prints raw under core.quotePath=false (C1 controls): made or renamed
    // during the command, named with escapes; left in place (the user's own files may be among them).
    for (const file of found.controlNames) if (((await lstat(file).catch(() => undefined))?.ctimeMs ?? -Infinity) >= since) named.push(file);
    // Toolchain files, the root's included: only what they hold counts (a version bump does not).
    for (const file of found.toolFiles) {
      const id = await identity(file.path);
      const offence = (await arrived(file.path, id)) || (await changedSince(file.path, since)) ? await toolFileOffence(file, roots) : undefined;
      if (offence !== undefined) setAside(file.path, offence, context, file.entry.runBy);
      else if (id) baseline.set(file.path, id);
    }
  }
  // Last: git is run in the indexes' git directories only once what they name that would run a
  // program has been set aside.
  const namedByConfig = (gitDir: string, workTree: string): string[] => {
    const parts = gitNamedPartsCached({ gitDir, workTree, ...home });
    return [...parts.named, ...parts.hookInputs.paths, ...parts.programs];
  };
  const reviewed = await checkReview(roots, since, review, namedByConfig);
  context.unchecked.push(...reviewed.unchecked);
  const notices = [...context.notices, ...reviewed.notices];
  if (named.length > 0) {
    const shown = named.slice(0, 5).map((file) => shownRef(toBytes(file).toString('latin1')));
    notices.push(
      `the command made ${named.length === 1 ? 'a file whose name holds' : `${named.length} files whose names hold`} a terminal control character: ${shown.join(', ')}${named.length > 5 ? ` and ${named.length - 5} more` : ''}; \`git status\` with core.quotePath=false and \`ls\` print such a name into your terminal as it is (U+009D starts a control sequence): look with \`ls -b\` and rename ${named.length === 1 ? 'it' : 'them'}`,
    );
  }
  return { quarantined: context.quarantined, unchecked: context.unchecked, notices, truncated, notWalked: [...notWalked] };
}

/** The walk's spelling of each own directory: its parent's real path (roots are real) and its name. */
async function ownStateDirs(own: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const dir of own) {
    out.add(path.normalize(dir));
    const parent = await realpath(path.dirname(dir)).catch(() => undefined);
    if (parent !== undefined) out.add(path.join(parent, path.basename(dir)));
  }
  return out;
}
