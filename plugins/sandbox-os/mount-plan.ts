/**
 * From the policy and what is on disk to a list of mounts (pure, given `inspect` and `list`): the part both
 * the bubblewrap arguments and the tests are built from.
 *
 * Protected paths that do not exist yet (e.g. `.mcp.json`, `.mewcode/` in a fresh project) must
 * not be creatable either. A mount needs a mount point, so the caller creates an EMPTY DIRECTORY
 * at that path just for the call and removes it afterwards (if still empty and no other call uses
 * it; a watchdog removes it if MewCode is killed: watchdog.ts), and an empty read-only directory
 * is bound over it. A directory rather than a file: git
 * ignores empty directories, so `git status` inside or outside the sandbox shows nothing new,
 * while a file (/dev/null or an empty one) would show up as untracked. Inside the sandbox the
 * path is a read-only mount point, which cannot be written, removed, renamed or replaced.
 *
 * A protected path that is a symbolic link is refused: a mount lands on the link's target, and
 * the link itself could still be removed and replaced by a file the sandbox wrote. Rare, and fail
 * closed: the command does not run.
 *
 * Git directories (protectGitDir): the project's `.git`, its linked worktrees' directories
 * (`.git/worktrees/<id>`) and its submodules' git directories (`.git/modules/<name>`, found at
 * plan time by their HEAD; nested ones under `modules/<a>/modules/<b>`). Each is pinned and its
 * config and hooks are protected like `.git`'s, missing ones blocked. Every directory on the way
 * is pinned too: a directory that merely HOLDS a mount point can still be renamed away and a new
 * one with a hostile config put in its place. A submodule cloned during a sandboxed command is
 * not protected during that command (it did not exist at plan time) but is from the next one on;
 * like a nested repository planted anywhere in the project and registered as a submodule
 * (`.gitmodules` and `.git/index` stay writable, or git could not work), which no list of mounts
 * can prevent, it is judged after the command instead (git-sweep.ts). Beyond MAX_GIT_MODULES git directories, the
 * whole `modules` (or `worktrees`) directory is read-only instead: fail closed, at the cost of
 * git writes in those submodules.
 */
import path from 'node:path';
import { GIT_PROTECTED, GIT_PROTECTED_IF_PRESENT, MAX_GIT_MODULES, isGitInfoName, PROTECTED_NAMES, WORKTREE_PROTECTED, homeProtectedName, isProtectedIfPresentName } from './policy.js';
import { isPathWithin } from '../../types/path-within.js';
import { rebuiltFolders, type ListEntries, type RebuiltFolder } from './rebuilt-folders.js';

/** The audit log's lock, its anchor and the anchor's temporary files (permission-audit/chain.ts): replaced at every record, and holding no secret. */
const TRANSIENT_FILE = /^audit\.(?:lock|head|head\..+\.tmp)$/;

export type PathKind = 'dir' | 'file' | 'missing' | 'symlink' | 'other';

export interface MountPlan {
  /** Bound read-write over themselves (the project root, additional directories, allow_write). */
  writable: string[];
  /** Bound read-write over themselves AFTER the writable roots: makes them mount points, which cannot be renamed or removed (`.git`). */
  pinned: string[];
  /** Existing protected paths, bound read-only over themselves. */
  readOnly: string[];
  /** Missing protected paths: an empty read-only directory is bound there (the caller makes the mount point). */
  blocked: string[];
  /** Unreadable: a read-only empty tmpfs over directories. */
  hiddenDirs: string[];
  /** Unreadable: /dev/null bound over files. */
  hiddenFiles: string[];
  /**
   * Folders of the home holding hidden files, mounted as an empty tmpfs with their other entries
   * bound back (rebuilt-folders.ts), before the writable roots; read-only once everything is mounted.
   */
  rebuilt?: RebuiltFolder[];
  /**
   * A writable root holds the home (MewCode started in `~`, `/` or an ancestor): the home is bound
   * read-only, then its entries that are not dotfiles (`homeProtectedName`) bound read-write again,
   * so no dotfile can be changed, replaced or created (`.bash_profile`, `.gdbinit`: there are too
   * many startup names to list one by one), while the rest of the home stays writable. New
   * top-level entries cannot be made in the home. Applied after `pinned`, before `readOnly`.
   */
  homeGuard?: { home: string; writableEntries: string[] };
  /**
   * What installed git hooks read or run (sdk/git-hook-inputs.ts) that could not be made read-only
   * as itself: missing (a mount point would break the hook manager, lefthook failing on a
   * `lefthook-local.yml` that is a directory: found after the command, it was made) or a link
   * (changed during the command), and a link on the way to what git's configuration names
   * (`configured`: said so). Set aside after it (hook-inputs-sweep.ts).
   */
  watched?: { path: string; missing: boolean; configured?: true }[];
  /**
   * Each git directory's `info/` folder and the names in it, other than git's own
   * (policy.ts, isGitInfoName), present when the plan was made: those are read-only; one that
   * appears during a command is set aside after it (hook-inputs-sweep.ts, sweepGitInfo).
   */
  gitInfo?: { dir: string; names: string[] }[];
}

export type PlanResult = { ok: true; plan: MountPlan } | { ok: false; message: string };

export interface PlanInput {
  writableRoots: readonly string[];
  homeDir: string;
  /** Absolute paths (default list + user's), after following links. */
  denyRead: readonly string[];
  /**
   * Paths the git configuration of `<root>/.git` makes git read (included files, the hooks
   * directory; sdk/git-config-paths.ts): protected like `.git/config` when inside a writable root
   * (protectNamed).
   */
  gitNamedPaths?: (gitDir: string, workTree: string) => readonly string[];
  /** The real path of the git directory a `.git` file names (`gitdir: <path>`), when it is a directory. */
  gitFileTarget?: (dotGitFile: string) => Promise<string | undefined>;
  /**
   * The repository a root without `.git` lies in (a subfolder of a repository: git searches
   * upward), with its work tree's top: what its configuration names is protected all the same.
   */
  enclosingRepository?: (root: string) => Promise<{ gitDir: string; workTree: string } | undefined>;
  /**
   * What the hooks installed for `<root>/.git` read or run (a hook manager's configuration, a
   * program a stub names), and the programs its configuration names by a path (a clean filter, a
   * pager): read-only where present inside a writable root (a link: where it leads,
   * when that is inside one), else `watched`.
   */
  hookInputs?: (gitDir: string, workTree: string) => readonly string[];
  /** The real path of a link (undefined when it dangles): a dotfile link's target is protected where it lies. */
  realPath?: (link: string) => Promise<string | undefined>;
  /** A folder's entries with their kinds: the folders of the home holding hidden files are rebuilt (rebuilt-folders.ts). */
  listEntries?: ListEntries;
}

/** lstat-like for protected paths (links not followed); stat-like (`follow`) for deny-read paths. */
export type Inspect = (absolutePath: string, follow: boolean) => Promise<PathKind>;

/** The names in a directory ([] when it cannot be listed): for the worktrees and modules of a git directory. */
export type List = (absoluteDir: string) => Promise<string[]>;

interface GitContext {
  plan: MountPlan;
  inspect: Inspect;
  list: List;
  protect(target: string): Promise<string | undefined>;
  /** Worktree and submodule git directories still to protect one by one. */
  budget: number;
}

export async function planMounts(input: PlanInput, inspect: Inspect, list: List = async () => []): Promise<PlanResult> {
  const writable = dedupe(input.writableRoots);
  const plan: MountPlan = { writable, pinned: [], readOnly: [], blocked: [], hiddenDirs: [], hiddenFiles: [] };

  const protect = async (target: string): Promise<string | undefined> => {
    const kind = await inspect(target, false);
    if (kind === 'symlink') return refusal(target);
    if (kind === 'missing') {
      // Its directory missing too (`objects/info` of a damaged repository): no mount point can be
      // made without creating that directory as well; nothing is blocked.
      const parent = path.dirname(target);
      if (!writable.includes(parent) && (await inspect(parent, false)) === 'missing') return undefined;
      plan.blocked.push(target);
    } else plan.readOnly.push(target);
    return undefined;
  };

  const context: GitContext = { plan, inspect, list, protect, budget: MAX_GIT_MODULES };
  /** A repository's git directory and what its configuration and hooks name; a refusal message, or undefined. */
  const protectRepository = async (gitDir: string, root: string, worktree: boolean): Promise<string | undefined> => {
    const problem = worktree ? ((await pinWithNames(gitDir, WORKTREE_PROTECTED, context)) ?? (await protectInfo(gitDir, context))) : await protectGitDir(gitDir, context);
    return problem ?? (await protectConfigured(gitDir, root));
  };
  /**
   * What a repository's configuration and installed hooks name, inside a writable root. Also for
   * a repository whose git directory no command can write (a linked worktree's main repository, a
   * submodule checkout's superproject, a repository the root is a subfolder of): its
   * `core.hooksPath = .githooks` names the project's `.githooks` all the same.
   */
  const protectConfigured = async (gitDir: string, workTree: string): Promise<string | undefined> => {
    for (const named of input.gitNamedPaths?.(gitDir, workTree) ?? []) {
      const refused = await protectNamed(named, writable, plan, inspect, input.realPath);
      if (refused) return refused;
    }
    await protectHookInputs(input.hookInputs?.(gitDir, workTree) ?? [], writable, plan, inspect, input.realPath);
    return undefined;
  };
  for (const root of writable) {
    const git = path.join(root, '.git');
    const gitKind = await inspect(git, false);
    if (gitKind === 'symlink') return { ok: false, message: refusal(git) };
    if (gitKind === 'dir') {
      const problem = await protectRepository(git, root, false);
      if (problem) return { ok: false, message: problem };
    } else if (gitKind === 'missing') {
      plan.blocked.push(git);
      const enclosing = await input.enclosingRepository?.(root);
      if (enclosing) {
        const problem = await protectConfigured(enclosing.gitDir, enclosing.workTree);
        if (problem) return { ok: false, message: problem };
      }
    } else {
      plan.readOnly.push(git); // a `gitdir:` file (worktree, submodule)
      // The git directory it names, when a command could write it (a repository delivered with
      // `.git` naming `.gd` in the project, a worktree of a repository in the project): protected as
      // `.git` would be, the folders on its way pinned so that none is renamed away.
      const target = await input.gitFileTarget?.(git);
      const targetRoot = target === undefined ? undefined : holdingRoot(writable, target);
      if (target !== undefined && targetRoot !== undefined && target !== targetRoot) {
        plan.pinned.push(...wayTo(targetRoot, target));
        const problem = await protectRepository(target, root, (await inspect(path.join(target, 'commondir'), false)) === 'file');
        if (problem) return { ok: false, message: problem };
      } else if (target !== undefined) {
        const problem = await protectConfigured(target, root);
        if (problem) return { ok: false, message: problem };
      }
    }

    const names = [...PROTECTED_NAMES.map((name) => path.join(root, name))];
    // The user's own MewCode settings, when the home directory is inside a writable root.
    const userDir = path.join(input.homeDir, '.mewcode');
    if (isPathWithin(root, userDir) && !names.includes(userDir)) names.push(userDir);
    for (const target of names) {
      const problem = await protect(target);
      if (problem) return { ok: false, message: problem };
    }
    // Other tools' settings that get no mount point while missing (policy.ts): read-only where
    // they are. A link is left as it is (the sweep judges what it leads to after the command).
    for (const name of await list(root)) {
      if (!isProtectedIfPresentName(name)) continue;
      const target = path.join(root, name);
      const kind = await inspect(target, false);
      if (kind === 'dir' || kind === 'file') plan.readOnly.push(target);
    }
    if (isPathWithin(root, input.homeDir) && !plan.homeGuard) await guardHome(input.homeDir, plan, inspect, list, input.realPath);
  }

  for (const target of dedupe(input.denyRead)) {
    const kind = await inspect(target, true);
    if (kind === 'dir') plan.hiddenDirs.push(target);
    else if (kind === 'file' || kind === 'other') plan.hiddenFiles.push(target);
  }
  // A path inside a hidden directory is hidden already, and its mount would fail: the empty
  // read-only tmpfs has no mount point for it (deny-read lists from several sources overlap).
  const hidden = new Set(plan.hiddenDirs);
  const covered = (target: string): boolean => {
    for (let dir = target; dir !== path.dirname(dir); ) {
      dir = path.dirname(dir);
      if (hidden.has(dir)) return true;
    }
    return false;
  };
  plan.hiddenDirs = plan.hiddenDirs.filter((dir) => !covered(dir));
  // A file that may vanish before bubblewrap mounts over it cannot be hidden (the mount would need
  // a new mount point, in a directory that may be read-only): the audit log's lock and the anchor's
  // temporary files, in `~/.mewcode` when MewCode runs in the home. They hold no secret.
  plan.hiddenFiles = plan.hiddenFiles.filter((file) => !covered(file) && !TRANSIENT_FILE.test(path.basename(file)));
  if (input.listEntries) {
    const rebuilt = await rebuiltFolders({ files: plan.hiddenFiles, dirs: plan.hiddenDirs }, writable, input.homeDir, input.listEntries);
    if (rebuilt.length > 0) plan.rebuilt = rebuilt;
  }
  // Whatever is read-only or blocked below a writable root has the folders on its way pinned: a
  // folder that merely holds a mount point can be renamed away (the mount goes with it) and a new
  // one made at its path with a planted file (a dotfile link's target in the home, a submodule's
  // git directory below .git/modules/<group>/). Parents are bound first: bubblewrap binds each
  // from the host, so a parent bound after its child would cover the child's bind.
  for (const target of [...plan.readOnly, ...plan.blocked]) {
    const root = holdingRoot(writable, target);
    if (root !== undefined && root !== target) plan.pinned.push(...wayTo(root, target));
  }
  plan.pinned = dedupe(plan.pinned).sort((a, b) => depthOf(a) - depthOf(b));
  plan.readOnly = dedupe(plan.readOnly);
  plan.blocked = dedupe(plan.blocked);
  if (plan.watched) plan.watched = [...new Map(plan.watched.map((entry) => [entry.path, entry])).values()];
  if (plan.homeGuard) {
    // Nothing can be created in the read-only home: its missing protected names need no mount point.
    const home = plan.homeGuard.home;
    plan.blocked = plan.blocked.filter((target) => path.dirname(target) !== home);
  }
  return { ok: true, plan };
}

/** The deepest writable root holding `target` (itself included). */
function holdingRoot(writable: readonly string[], target: string): string | undefined {
  return writable.filter((dir) => isPathWithin(dir, target)).sort((a, b) => b.length - a.length)[0];
}

const depthOf = (target: string): number => target.split(path.sep).length;

/** The folders strictly between `root` and `target`, parent first. */
function wayTo(root: string, target: string): string[] {
  const way: string[] = [];
  for (let dir = path.dirname(target); dir !== root && isPathWithin(root, dir); dir = path.dirname(dir)) way.unshift(dir);
  return way;
}

/**
 * A path the git configuration names (PlanInput.gitNamedPaths) inside a writable root: read-only
 * where it is, with the folders between the root and it pinned (a folder that merely holds a mount
 * point can be renamed away and a new one with a planted file put in its place: the mount moves
 * with the old folder); while it is missing, the first missing folder on its way (or itself) is
 * blocked, so a command cannot make it. Links on the way are followed: what is protected is where
 * git reads (a dangling one leaves nothing to protect). The named path itself a link: refused, as
 * for `.git/config`. A writable root itself is left alone (`core.hooksPath = .` would freeze the
 * project).
 */
async function protectNamed(named: string, writable: readonly string[], plan: MountPlan, inspect: Inspect, realPath: PlanInput['realPath']): Promise<string | undefined> {
  const target = path.normalize(named);
  const root = holdingRoot(writable, target);
  if (root === undefined || root === target) return undefined;
  await watchLinksOnTheWay(root, target, plan, inspect);
  let existing = target;
  let kind = await inspect(existing, false);
  if (kind === 'symlink') return refusal(target);
  while (kind === 'missing' && existing !== root) {
    existing = path.dirname(existing);
    kind = existing === root ? 'dir' : await inspect(existing, false);
  }
  const real = existing === root ? root : realPath ? await realPath(existing) : existing;
  // A dangling link on the way: nothing there to protect, and no mount can land where it would lead.
  if (real === undefined) return undefined;
  const realRoot = holdingRoot(writable, real);
  if (realRoot === undefined) return undefined; // outside every writable root: read-only to commands already
  // Missing below a file: nothing can be made there.
  if (existing !== target && real !== realRoot && (await inspect(real, false)) !== 'dir') return undefined;
  if (existing === target) {
    if (real === realRoot) return undefined;
    plan.pinned.push(...wayTo(realRoot, real));
    plan.readOnly.push(real);
    return undefined;
  }
  const firstMissing = path.join(real, path.relative(existing, target).split(path.sep)[0]!);
  plan.pinned.push(...wayTo(realRoot, firstMissing));
  plan.blocked.push(firstMissing);
  return undefined;
}

/**
 * A link on the way to `target` as the configuration or a hook spells it (`tools -> vendor/tools`,
 * `scripts -> ci/scripts`) is where the lookup turns: replaced by a folder, it leads git or the
 * hook to a planted file. No mount can hold a link (a mount follows it), so it is checked after the
 * command (hook-inputs-sweep.ts), and the folders before it are pinned.
 */
async function watchLinksOnTheWay(root: string, target: string, plan: MountPlan, inspect: Inspect): Promise<void> {
  for (const dir of wayTo(root, target)) {
    if ((await inspect(dir, false)) !== 'symlink') continue;
    (plan.watched ??= []).push({ path: dir, missing: false, configured: true });
    plan.pinned.push(...wayTo(root, dir));
  }
}

/**
 * See PlanInput.hookInputs. A path on the way that is a link (pnpm's node_modules) is bound where
 * it leads. The directories between the root and what is made read-only (or a watched link) are
 * pinned, as `.git`'s are: one that merely holds a mount point could be renamed away and a new
 * one with a planted file put in its place (`mv node_modules/lefthook-linux-x64 x`).
 */
async function protectHookInputs(inputs: readonly string[], writable: readonly string[], plan: MountPlan, inspect: Inspect, realPath: PlanInput['realPath']): Promise<void> {
  const rootOf = (target: string): string | undefined => writable.filter((dir) => isPathWithin(dir, target) && dir !== target).sort((a, b) => b.length - a.length)[0];
  const pinWay = (target: string): void => {
    const root = rootOf(target)!;
    const way: string[] = [];
    for (let dir = path.dirname(target); dir !== root && isPathWithin(root, dir); dir = path.dirname(dir)) way.unshift(dir);
    plan.pinned.push(...way);
  };
  for (const named of inputs) {
    const target = path.normalize(named);
    const root = rootOf(target);
    if (root === undefined) continue;
    await watchLinksOnTheWay(root, target, plan, inspect);
    const kind = await inspect(target, false);
    if (kind === 'missing') {
      (plan.watched ??= []).push({ path: target, missing: true });
      continue;
    }
    if (kind === 'symlink') {
      (plan.watched ??= []).push({ path: target, missing: false });
      pinWay(target);
    }
    const real = realPath ? await realPath(target) : target;
    if (real === undefined || rootOf(real) === undefined) continue;
    pinWay(real);
    plan.readOnly.push(real);
  }
}

/**
 * The home inside a writable root: see MountPlan.homeGuard. A dotfile that is a link (dotfile
 * managers) is read-only where it points, when that is writable (`~/.vimrc -> dotfiles/vimrc`).
 */
async function guardHome(homeDir: string, plan: MountPlan, inspect: Inspect, list: List, realPath: PlanInput['realPath']): Promise<void> {
  const writableEntries: string[] = [];
  for (const name of await list(homeDir)) {
    const target = path.join(homeDir, name);
    const kind = await inspect(target, false);
    if (!homeProtectedName(name)) {
      // Links stay as they are (read-only in the home): binding one would bind where it points.
      if (kind === 'dir' || kind === 'file') writableEntries.push(target);
      continue;
    }
    if (kind !== 'symlink' || !realPath) continue;
    const real = await realPath(target);
    if (real && plan.writable.some((root) => isPathWithin(root, real) && root !== real) && real !== homeDir) plan.readOnly.push(real);
  }
  plan.homeGuard = { home: homeDir, writableEntries };
}

/**
 * `gitDir` (`.git`, or a submodule's git directory below it): pinned, with its protected names,
 * its worktrees' directories and its submodules' git directories. Pinned paths are pushed parent
 * first, the order bubblewrap binds them in. Returns a refusal message, or undefined.
 */
/** Pins `dir` and protects each of `names` in it; a refusal message, or undefined. */
async function pinWithNames(dir: string, names: readonly string[], context: GitContext): Promise<string | undefined> {
  context.plan.pinned.push(dir);
  for (const name of names) {
    const problem = await context.protect(path.join(dir, name));
    if (problem) return problem;
  }
  return undefined;
}

async function protectGitDir(gitDir: string, context: GitContext): Promise<string | undefined> {
  const problem = (await pinWithNames(gitDir, GIT_PROTECTED, context)) ?? (await protectInfo(gitDir, context));
  if (problem) return problem;
  for (const name of GIT_PROTECTED_IF_PRESENT) {
    const target = path.join(gitDir, name);
    const kind = await context.inspect(target, false);
    if (kind === 'symlink') return refusal(target);
    if (kind !== 'missing') context.plan.readOnly.push(target);
  }
  const worktrees = await subdirectories(path.join(gitDir, 'worktrees'), context, false);
  if (typeof worktrees === 'string') return worktrees;
  for (const dir of worktrees ?? []) {
    const refused = (await pinWithNames(dir, WORKTREE_PROTECTED, context)) ?? (await protectInfo(dir, context));
    if (refused) return refused;
  }
  const modules = await subdirectories(path.join(gitDir, 'modules'), context, true);
  if (typeof modules === 'string') return modules;
  for (const dir of modules ?? []) {
    const refused = await protectGitDir(dir, context);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * `<gitDir>/info`: git writes only its own names there (policy.ts, isGitInfoName), through lock
 * and temporary files beside them, so the folder stays writable and is pinned; every other entry
 * is some tool's state that a program on the host trusts (lefthook's clones of remote
 * configurations in `info/lefthook-remotes/`, whose commands run at the next commit) and is
 * read-only. A link there (or `info` itself a link) is refused, as for the other protected paths.
 * The names are kept so that one made during the command is set aside after it.
 */
async function protectInfo(gitDir: string, context: GitContext): Promise<string | undefined> {
  const info = path.join(gitDir, 'info');
  const kind = await context.inspect(info, false);
  if (kind === 'symlink') return refusal(info);
  const names = kind === 'dir' ? (await context.list(info)).filter((name) => !isGitInfoName(name)).sort() : [];
  (context.plan.gitInfo ??= []).push({ dir: info, names });
  if (kind !== 'dir') return undefined;
  context.plan.pinned.push(info);
  for (const name of names) {
    const target = path.join(info, name);
    if ((await context.inspect(target, false)) === 'symlink') return refusal(target);
    context.plan.readOnly.push(target);
  }
  return undefined;
}

/** Levels of `/` in a submodule name searched for its git directory. */
const MAX_NAME_DEPTH = 8;

/**
 * The worktree directories (`nested` false: the entries of `holder`) or submodule git
 * directories (`nested` true: directories with a HEAD, searched below directories without one,
 * since a submodule's name may hold `/`) in `holder`, with `holder` and the directories on the
 * way pinned (the ones found are pinned by protectGitDir, after them). undefined when there is
 * no such directory (or too many, or too deep: then `holder` is read-only whole); a string is a
 * refusal (a link where a directory is protected).
 */
async function subdirectories(holder: string, context: GitContext, nested: boolean): Promise<string[] | string | undefined> {
  const kind = await context.inspect(holder, false);
  if (kind === 'symlink') return refusal(holder);
  if (kind !== 'dir') return undefined;
  const pins = [holder];
  const found: string[] = [];
  const tooMany = (): undefined => {
    context.plan.readOnly.push(holder);
    return undefined;
  };
  let level = [holder];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth === MAX_NAME_DEPTH) return tooMany();
    const next: string[] = [];
    for (const dir of level) {
      for (const name of await context.list(dir)) {
        const entry = path.join(dir, name);
        const entryKind = await context.inspect(entry, false);
        if (entryKind === 'symlink') return refusal(entry);
        if (entryKind !== 'dir') continue;
        if (nested && (await context.inspect(path.join(entry, 'HEAD'), false)) === 'missing') {
          pins.push(entry);
          next.push(entry);
          continue;
        }
        if (--context.budget < 0) return tooMany();
        found.push(entry);
      }
    }
    level = nested ? next : [];
  }
  context.plan.pinned.push(...pins);
  return found;
}

function refusal(target: string): string {
  return (
    `${target} is a symbolic link. The OS sandbox keeps this path read-only, which it cannot do for a link (the link could be replaced), ` +
    'so the command was not run. Ask the user to replace the link with the file or directory it points to, ' +
    'or to turn the sandbox off with `sandbox: false` in ~/.mewcode/settings.yaml (commands then ask for approval again).'
  );
}

function dedupe(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.normalize(p)))];
}
