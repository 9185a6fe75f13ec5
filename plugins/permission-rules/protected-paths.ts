/**
 * Protected paths (A14): files whose change would let the agent widen its own
 * permissions or run code outside a tool call — MewCode's settings and configuration (the next
 * session reads them), its hooks and audit log (with its anchor `audit.head` and lock
 * `audit.lock`: rewriting the anchor hides a cut log, holding the lock stalls the writer),
 * the saved sessions (`.mewcode/sessions/**`: a resumed session trusts its transcript),
 * `.git/config` and `.git/hooks/**` (git runs what they name on an ordinary `git status`) —
 * also those of submodule repositories (`.git/modules/<name>/`, which `git status` enters) and
 * a worktree's `config.worktree` and `commondir` (where its config is read from) —
 * the rest of the project's `.mewcode/**` (commands, skills, agents: loaded by the next session,
 * a command's `allowed-tools` pre-approving its turn's tools), `.claude/**` and `.mcp.json` (these at
 * any depth), and what other tools on the machine act on when the folder is
 * opened or entered (sdk/host-tool-files.ts: editors', dev containers' and other coding agents'
 * settings, at any depth; a toolchain file only when the write makes it name a program or a path,
 * protectedContent). A write to one
 * always asks, in every mode (bypassPermissions and acceptEdits included); only an allow rule
 * naming exactly that file passes it. Paths are judged as written (made absolute) and
 * symlink-resolved with dangling links followed (sdk/path-containment's resolveRealSync, the
 * same resolution as the sandbox), so a link inside the project that points at `.git/config`
 * or at a settings file that does not exist yet is protected too. The file tools are held to
 * more (protection.ts): the whole of any git directory (git-directories.ts) and what a protected
 * name leads to through a link (linked-protected.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gitDirOfWorkTree, gitNamedPathsCached, repositoryOf } from '../../sdk/git-config-paths.js';
import { HOST_SETTINGS_MENTION, hostSettingsAt, hostToolchainFileFor } from '../../sdk/host-tool-files.js';
import { resolveRealSync } from '../../sdk/path-containment.js';

export interface ProtectedScope {
  projectRoot: string;
  homeDir: string;
  /** The folders below the project holding a `.git` (sdk/nested-work-trees.ts), for a file tool's write: what their configurations name asks wherever it is. */
  nestedWorkTrees?: readonly string[];
}

/** Relative to the project root: what each protected name is, for messages. */
const PROJECT_FILES: readonly [RegExp, string][] = [
  [/^\.mewcode\/settings[^/]*\.(?:ya?ml|json)$/, "MewCode's permission settings"],
  [/^\.mewcode\/config[^/]*$/, "MewCode's configuration"],
  [/^\.mewcode\.(?:ya?ml|json)$/, "MewCode's configuration"],
  [/^\.mewcode\/hooks[^/]*\.(?:ya?ml|json)$/, "MewCode's hooks"],
  [/^\.mewcode\/audit\.jsonl(?:\.\d+)?$/, "MewCode's audit log"],
  // The anchor, the lock, and the anchor's temporary files (`audit.head.<pid>.<n>.tmp`).
  [/^\.mewcode\/audit\.(?:head|lock)(?:\.[^/]*)?$/, "MewCode's audit log anchor"],
  // A resumed session believes its transcript: a rewritten one puts words in the model's mouth.
  [/^\.mewcode\/sessions(?:\/.*)?$/, "MewCode's saved sessions"],
  // `.git/` or a submodule's git directory (`.git/modules/<name>/`, names may hold `/`, nested
  // submodules under `modules/<a>/modules/<b>`). `.+` may also match `refs/heads/config`: a
  // branch named `config` asking on a direct write is an acceptable cost.
  [/^\.git(?:\/modules\/.+)?\/config(?:\.worktree)?$/, 'the git configuration (git runs the programs it names)'],
  [/^\.git(?:\/modules\/.+)?\/hooks(?:\/.*)?$/, 'a git hook (git runs it)'],
  // A linked worktree's own config (extensions.worktreeConfig) and the pointer to its common dir.
  [/^\.git(?:\/modules\/.+)?\/worktrees\/[^/]+\/(?:config(?:\.worktree)?|commondir)$/, 'the git configuration of a worktree (git runs the programs it names)'],
  // Where any git directory reads its config and hooks (commondir) and its objects (alternates).
  [/^\.git(?:\/modules\/.+)?\/(?:commondir|objects\/info\/alternates)$/, 'a redirection of where git reads its configuration or objects'],
  // A nested repository or a `.git` file/link in a subfolder: git uses it for every command run
  // there, and `git status` enters it once it is registered as a submodule.
  [/^.+\/\.git$/, 'a nested git repository or `.git` file (git reads the configuration it names)'],
  [/^.+\/\.git\/(?:config(?:\.worktree)?|commondir|hooks(?:\/.*)?|objects\/info\/alternates)$/, 'the git configuration of a nested repository (git runs the programs it names)'],
  // A rebase or cherry-pick in progress: `git rebase --continue` runs the todo list's `exec`
  // lines, and a merge strategy named there (`opts`, `strategy`) is run as a program.
  [/^(?:.+\/)?\.git(?:\/modules\/.+|\/worktrees\/[^/]+)?\/(?:rebase-merge|rebase-apply|sequencer)(?:\/.*)?$/, 'the state of a rebase or cherry-pick (git runs its exec lines and merge strategy)'],
  // These, at any depth: a monorepo's package is a folder of its own when the user opens it, or
  // starts an agent there.
  [/^(?:.+\/)?\.claude(?:\/.*)?$/, "Claude Code's settings"],
  // The rest of MewCode's project folder, as `.claude/**` for Claude Code: its commands (whose
  // `allowed-tools` pre-approve tools for the turn they start), skills, agents and hooks are loaded
  // by the next session and act with the user's authority. Nothing there is the model's to write
  // (MewCode writes its spill files and sessions itself), and the sandbox keeps it read-only whole.
  [/^(?:.+\/)?\.mewcode(?:\/.*)?$/, "MewCode's project folder (commands, skills, agents, hooks: what the next session loads)"],
  [/^(?:.+\/)?\.mewcode\.(?:ya?ml|json)$/, "MewCode's configuration"],
  [/^(?:.+\/)?\.mcp\.json$/, 'the MCP server list'],
];

/** Relative to the home directory. */
const HOME_FILES: readonly [RegExp, string][] = [
  [/^\.mewcode\/(?:settings|config)[^/]*$/, "MewCode's user settings"],
  [/^\.mewcode\/hooks[^/]*$/, "MewCode's user hooks"],
  [/^\.mewcode\/trust\.json$/, "MewCode's workspace trust list"],
  [/^\.mewcode\/approvals(?:\/.*)?$/, "MewCode's saved approvals"],
  [/^\.mewcode\.(?:ya?ml|json)$/, "MewCode's configuration"],
  [/^\.gitconfig$/, 'the git user configuration (git runs the programs it names)'],
];

/**
 * Also relative to the home directory, outside the project (or anywhere when the project holds
 * the home: MewCode started in `~` or above): the user's dotfiles — every `~/.name` and what is
 * below it (shell startup files, `~/.config/**`, `~/.ssh`, `~/.local/bin`…: what a shell, git or
 * ssh runs or reads at the next login or command) — and `~/bin`, on the default PATH of many
 * distributions. The sandbox keeps the same names read-only (sandbox-os/policy.ts).
 */
const HOME_DOTFILES: readonly [RegExp, string][] = [[/^(?:\.[^/]+|bin|Library)(?:\/.*)?$/, 'one of your dotfiles (your shell, git or ssh reads or runs it)']];

/** Directories that hold protected files: deleting or replacing one of them changes those files. */
const PROJECT_HOLDERS = ['', '.mewcode', '.git', '.git/hooks', '.claude', '.vscode', '.idea', '.zed', '.helix', '.devcontainer', '.agents'];
const HOME_HOLDERS = ['', '.mewcode'];
/** Holders below `.git/modules` and `.git/worktrees` have free-form names: any directory there (`mv evil .git/modules/lib`). */
const PROJECT_HOLDER_TREES = /^\.git\/(?:modules|worktrees)(?:\/.*)?$/;

/**
 * Names are compared without case on every platform: the project may sit on a filesystem that
 * ignores it (macOS and Windows by default, and on Linux a WSL `/mnt/c`, a CIFS share, vfat or an
 * ext4 casefold directory), where `.Git/CONFIG` is `.git/config`. On one that keeps case, asking
 * about a `.GIT/config` git never reads costs one question.
 */
const caseInsensitive = true;

export function relativeInside(root: string, absolute: string): string | undefined {
  const fold = (s: string): string => (caseInsensitive ? s.toLowerCase() : s);
  const a = fold(absolute);
  const r = fold(root.endsWith(path.sep) ? root : root + path.sep);
  if (!a.startsWith(r)) return undefined;
  return absolute.slice(r.length).split(path.sep).join('/');
}

function lookup(table: readonly [RegExp, string][], relative: string | undefined): string | undefined {
  if (relative === undefined) return undefined;
  const subject = caseInsensitive ? relative.toLowerCase() : relative;
  return table.find(([pattern]) => pattern.test(subject))?.[1];
}

/** The candidates a path stands for: as written (absolute) and symlink-resolved. */
export function forms(absolute: string): string[] {
  const candidates = [path.resolve(absolute)];
  try {
    const real = resolveRealSync(absolute);
    if (real !== candidates[0]) candidates.push(real);
  } catch {
    // A loop or an unreadable ancestor: the tool will fail; judge the path as written.
  }
  return candidates;
}

const rootsCache = new Map<string, { project: string[]; home: string[] }>();

/** The project and home directories as written and resolved (cached: they do not move during a run). */
function roots(scope: ProtectedScope): { project: string[]; home: string[] } {
  const key = `${scope.projectRoot}\u0000${scope.homeDir}`;
  let found = rootsCache.get(key);
  if (!found) {
    if (rootsCache.size > 16) rootsCache.clear();
    rootsCache.set(key, (found = { project: forms(scope.projectRoot), home: forms(scope.homeDir) }));
  }
  return found;
}

export interface ProtectedHit {
  /** The path as the call names it (absolute). */
  path: string;
  /** What it is, e.g. "MewCode's permission settings". */
  what: string;
  /** Protected for what the write would make it name (protectedContent), not for its name: that. */
  byContent?: string;
}

/** Whether writing `absolute` changes a protected file; undefined when it does not. */
export function protectedPath(absolute: string, scope: ProtectedScope): ProtectedHit | undefined {
  const { project, home } = roots(scope);
  const projectHoldsHome = home.some((h) => project.some((root) => h === root || relativeInside(root, h) !== undefined));
  for (const candidate of forms(absolute)) {
    for (const root of project) {
      const relative = relativeInside(root, candidate);
      const what = lookup(PROJECT_FILES, relative) ?? (relative === undefined ? undefined : hostSettingsAt(relative)?.what);
      if (what) return { path: absolute, what };
    }
    for (const root of home) {
      const what = lookup(HOME_FILES, relativeInside(root, candidate));
      if (what) return { path: absolute, what };
    }
    const inProject = project.some((root) => candidate === root || relativeInside(root, candidate) !== undefined);
    if (projectHoldsHome || !inProject) {
      for (const root of home) {
        const what = lookup(HOME_DOTFILES, relativeInside(root, candidate));
        if (what) return { path: absolute, what };
      }
    }
    const named = gitNamed(candidate, scope);
    if (named) return { path: absolute, what: named };
    const shaped = project.map((root) => makesGitDirectory(root, candidate)).find(Boolean);
    if (shaped) return { path: absolute, what: shaped };
  }
  return undefined;
}

/** The names that make a folder a git directory for git (setup.c, is_git_directory), and what it then reads. */
const GIT_DIRECTORY_NAMES = new Set(['head', 'objects', 'refs', 'commondir', 'config', 'config.worktree', 'hooks']);

/**
 * A write that leaves a folder of the project shaped as a git directory (HEAD, with objects and
 * refs of any kind or a commondir) while it writes one of those names: git then takes the folder
 * for a repository and runs what its config names (core.fsmonitor, hooks) at the user's next
 * `git status` there. The write that completes the shape, or changes a shaped folder's config or
 * hooks, asks, as `.git/config` does.
 */
function makesGitDirectory(root: string, candidate: string): string | undefined {
  const relative = relativeInside(root, candidate);
  if (relative === undefined) return undefined;
  const parts = relative.split('/');
  for (let depth = parts.length - 1; depth >= 0; depth--) {
    const child = parts[depth]!.toLowerCase();
    if (!GIT_DIRECTORY_NAMES.has(child)) continue;
    const folder = path.join(root, ...parts.slice(0, depth));
    if (parts.slice(0, depth).some((part) => part.toLowerCase() === '.git')) continue; // inside a .git: judged by the names above
    let names: Set<string>;
    try {
      names = new Set(readdirSync(folder).map((name) => name.toLowerCase()));
    } catch {
      names = new Set();
    }
    names.add(child);
    if (names.has('head') && ((names.has('objects') && names.has('refs')) || names.has('commondir'))) {
      return `a file that makes ${depth === 0 ? 'the project folder' : parts.slice(0, depth).join('/')} a git directory (git runs the programs its config names)`;
    }
  }
  return undefined;
}

/**
 * A file or directory the project's git configuration names (an included file, the hooks
 * directory, a program: sdk/git-config-paths.ts) inside the project: as good as `.git/config` or
 * `.git/hooks`. So is what a nested repository's configuration names, for a nested repository
 * whose work tree holds the file (a folder on its way with a `.git`): its hooks directory and
 * programs are taken from there; and, for a file tool's write, what any nested repository names
 * (`scope.nestedWorkTrees`: `core.hooksPath = ../shared-hooks` in a workspace of clones).
 */
function gitNamed(candidate: string, scope: ProtectedScope): string | undefined {
  const { project } = roots(scope);
  // The project's repository: `.git` a directory, or a file naming one (a linked worktree, a
  // submodule's checkout, a repository delivered as `gitdir: .gd`), or the repository the project
  // is a subfolder of (its configuration's relative paths taken from that repository's top).
  const repositories = [repositoryOf(scope.projectRoot)];
  for (const root of project) {
    if (relativeInside(root, candidate) === undefined) continue;
    for (let dir = path.dirname(candidate); dir !== root && relativeInside(root, dir) !== undefined; dir = path.dirname(dir)) {
      const gitDir = gitDirOfWorkTree(dir);
      if (gitDir !== undefined) repositories.push({ gitDir, workTree: dir });
    }
  }
  for (const workTree of scope.nestedWorkTrees ?? []) {
    if (repositories.some((repository) => repository?.workTree === workTree)) continue;
    const gitDir = gitDirOfWorkTree(workTree);
    if (gitDir !== undefined) repositories.push({ gitDir, workTree });
  }
  for (const repository of repositories) {
    if (repository === undefined) continue;
    const { gitDir, workTree } = repository;
    let paths: string[];
    try {
      paths = gitNamedPathsCached({ gitDir, workTree, homeDir: scope.homeDir, ...(process.env.XDG_CONFIG_HOME ? { xdgConfigHome: process.env.XDG_CONFIG_HOME } : {}) });
    } catch {
      continue;
    }
    for (const named of paths) {
      // Inside the project only (the user's own files elsewhere are the user's), never the root itself.
      if (!project.some((root) => relativeInside(root, named) !== undefined)) continue;
      // Where it leads too: `core.hooksPath=.husky` with `.husky` a link to `tools/hooks` runs `tools/hooks/pre-commit`.
      for (const form of forms(named)) {
        if (candidate === form || relativeInside(form, candidate) !== undefined) {
          return repository === repositories[0] ? 'a file your git configuration names (git reads it, or runs what it holds)' : `a file the git configuration of the nested repository ${path.relative(scope.projectRoot, workTree)} names (git reads it, or runs what it holds)`;
        }
      }
    }
  }
  return undefined;
}

/**
 * Whether deleting, moving or overwriting `absolute` as a whole (`rm -rf .mewcode`, `mv x .git`)
 * changes protected files: it is one, or a directory that holds them.
 */
export function protectedTree(absolute: string, scope: ProtectedScope): ProtectedHit | undefined {
  const direct = protectedPath(absolute, scope);
  if (direct) return direct;
  const { project, home } = roots(scope);
  const fold = (s: string): string => (caseInsensitive ? s.toLowerCase() : s);
  for (const candidate of forms(absolute)) {
    const subject = fold(path.resolve(candidate));
    const holder = (base: string, holders: string[]): boolean => holders.some((h) => fold(path.resolve(base, h)) === subject);
    const inTrees = (root: string): boolean => {
      const relative = relativeInside(root, candidate);
      return relative !== undefined && PROJECT_HOLDER_TREES.test(fold(relative));
    };
    if (project.some((root) => holder(root, PROJECT_HOLDERS) || inTrees(root))) return { path: absolute, what: 'a directory holding protected files (settings, git configuration or hooks)' };
    if (home.some((root) => holder(root, HOME_HOLDERS))) return { path: absolute, what: "a directory holding MewCode's user settings" };
  }
  return undefined;
}

/** Protected names a program text may write to (`open('.mewcode/settings.local.yaml', 'w')`). */
export function mentionsProtectedName(text: string): boolean {
  return /\.mewcode|\.git\b|\.claude|\.mcp\.json/i.test(text) || HOST_SETTINGS_MENTION.test(text);
}

/**
 * A toolchain or package-manager file (sdk/host-tool-files.ts: `.tool-versions`, `mise.toml`,
 * `rust-toolchain.toml`, `.npmrc`, `.yarnrc.yml`…), anywhere, that the write would leave naming a
 * program or a path: asks like a protected path. A plain version does not (agents bump them).
 * `content` gives the text the file would hold, or undefined when that cannot be known (then the
 * write counts). Judged as written and symlink-resolved, as protectedPath judges.
 */
export function protectedContent(absolute: string, content: () => string | undefined): ProtectedHit | undefined {
  for (const candidate of forms(absolute)) {
    const entry = hostToolchainFileFor(candidate.split(path.sep).join('/'));
    if (entry === undefined) continue;
    const text = content();
    const found = text === undefined ? 'content that cannot be known before the write' : entry.judge(text);
    if (found !== undefined) return { path: absolute, what: entry.what, byContent: found };
  }
  return undefined;
}

/** How an allow rule naming exactly this file is written, for the message. */
export function exactRuleFor(absolute: string, scope: ProtectedScope): string {
  const inProject = relativeInside(scope.projectRoot, absolute);
  if (inProject !== undefined) return `Edit(${inProject})`;
  const inHome = relativeInside(scope.homeDir, absolute);
  if (inHome !== undefined) return `Edit(~/${inHome})`;
  return `Edit(/${absolute})`;
}
