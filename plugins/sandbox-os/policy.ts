/**
 * What the sandbox protects, as lists of paths. Shared by the bubblewrap and Seatbelt builders.
 */
import { HOST_MOUNTED_NAMES } from '../../sdk/host-tool-files.js';

/**
 * Read-only inside every writable root, because writing them runs code or widens permissions
 * on the host later (`.git/config` fsmonitor/pager, hooks, MewCode's own settings that
 * start the next session in bypass, Claude Code's settings, MCP servers).
 * `.mewcode` is protected whole: its settings, config, hooks.yaml and audit log (with its anchor
 * `audit.head` and lock `audit.lock`) live there, and nothing a command needs to write does (the
 * tool-output spill files are written by MewCode itself, outside the sandbox). `.git` is handled
 * apart (mount-plan.ts, protectGitDir). Then the files other tools on the host act on when the
 * folder is opened or entered (sdk/host-tool-files.ts: the editors' settings, as Claude Code's
 * sandbox keeps them read-only, a dev container's, other coding agents', `.agents/`,
 * `.lfsconfig`). Below the root, where no mount can be made ahead, the sweep sets the same names
 * aside when a command made or changed them (settings-sweep.ts).
 */
export const PROTECTED_NAMES: readonly string[] = ['.mewcode', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json', '.claude', '.mcp.json', ...HOST_MOUNTED_NAMES];

/**
 * Read-only at a writable root when they are there, and set aside after a command that made one
 * (sdk/host-tool-files.ts, `present`): no empty directory is put in their place while they are
 * missing, since a command may glob them (`*.json`) or a tool in the sandbox read them (pnpm
 * loads `.pnpmfile.cjs` at every install).
 */
export { isHostPresentName as isProtectedIfPresentName } from '../../sdk/host-tool-files.js';

/**
 * Inside an existing git directory (the project's `.git` and each submodule's
 * `.git/modules/<name>`): read-only. The git directories themselves are pinned (see bwrap-args).
 * `config.worktree` is read when extensions.worktreeConfig is on (sparse-checkout turns it on).
 * `info/` is left writable for git's own files (isGitInfoName): they name no program, as the
 * committed `.gitattributes` and `.gitignore` name none — drivers come from config only; any
 * other entry there is read-only (mount-plan.ts, protectInfo). The rules layer's list
 * (permission-rules/protected-paths.ts) names the same files.
 */
export const GIT_PROTECTED: readonly string[] = ['config', 'hooks', 'config.worktree'];

/**
 * What git itself writes or reads in a git directory's `info/`: `exclude`, `attributes`,
 * `sparse-checkout` (git sparse-checkout), `refs` (git update-server-info), `grafts`, with the
 * lock files (`<name>.lock`) and temporary files (`refs_XXXXXX`) it renames into place. These stay
 * writable (git-review.ts and git-history.ts judge exclude, attributes and grafts after a
 * command); anything else there is another tool's and is read-only (mount-plan.ts, protectInfo).
 */
export const isGitInfoName = (name: string): boolean => /^(?:exclude|attributes|sparse-checkout|refs|grafts)(?:\.lock)?$|^refs_[A-Za-z0-9]{6}$/.test(name);

/**
 * Inside a git directory, read-only when they exist: `commondir` moves where git reads config and
 * hooks from (in any git directory, not only a worktree's), `objects/info/alternates` where it
 * reads objects, and lazygit's `lazygit.yml` holds that repository's lazygit settings, read with no
 * trust step (its pager and custom commands run when the user opens lazygit there). Missing, they
 * cannot be blocked: git dies on a `commondir` it cannot read (a directory, an empty file) and
 * warns at every command on an `alternates` directory. One that appears during a command is set
 * aside after it (git-sweep.ts).
 */
export const GIT_PROTECTED_IF_PRESENT: readonly string[] = ['commondir', 'objects/info/alternates', 'lazygit.yml'];

/** Inside each linked worktree's directory `<gitdir>/worktrees/<id>`: its own config, and where its common dir (config, hooks) is. */
export const WORKTREE_PROTECTED: readonly string[] = ['config.worktree', 'commondir'];

/** Submodule git directories protected one by one; beyond, `.git/modules` is read-only whole. */
export const MAX_GIT_MODULES = 256;

/**
 * When a writable root holds the home directory (MewCode started in `~`, `/` or an ancestor): the
 * entries of the home that stay read-only (see mount-plan.ts, homeGuard): every dotfile — what a
 * shell, git, ssh, an editor or a debugger runs or reads at the next login or command — and
 * `bin` (on the default PATH of many distributions) and `Library` (macOS LaunchAgents).
 */
export function homeProtectedName(name: string): boolean {
  return name.startsWith('.') || name === 'bin' || name === 'Library';
}
