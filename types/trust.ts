/**
 * Workspace trust (A12), bound under TOKENS.WorkspaceTrust. The project's settings
 * that run code or send data (plugins, providers, disable, hooks, MCP servers, environment
 * allowlists, additional directories, default mode, allow rules, sandbox) apply only once the user
 * trusts the project: stored in `~/.mewcode/trust.json` by the project's real path and a sha256 of
 * exactly those settings' values and of the code they name (plugin entries, MCP server and hook
 * scripts inside the project), so a change of any of them asks again.
 *
 * Built before the kernel (`createWorkspaceTrust` in config/), because `loadConfig` needs it to
 * leave the untrusted settings out of the configuration the kernel reads `plugins:` from.
 */

/** Why the project is trusted for this run; `none` when it is not. */
export type TrustSource = 'stored' | 'flag' | 'env' | 'dialog' | 'none';

/** Where a settings file belongs. `*.local.*` files in the project belong to it (for trust; they keep their precedence). */
export type SettingsScope = 'user' | 'project' | 'local';

/** One setting that needs trust, as the start-up dialog and the headless notice show it. */
export interface TrustSetting {
  /** The file, relative to the project root (`.mewcode.yaml`, `.mewcode/settings.yaml`…). */
  file: string;
  /** The key as written (`plugins`, `providers`, `bash.env_allowlist`, `permissions.default_mode`…). */
  key: string;
  /** A one-line, terminal-safe description of the value (no secret is ever expanded). */
  summary: string;
}

export interface PendingTrust {
  /** The project's real path (the key in trust.json). */
  projectRoot: string;
  /** Empty when nothing needs the user's decision (trusted, or no such settings). */
  settings: TrustSetting[];
  /** The user trusted this project before, but these settings changed since. */
  changed: boolean;
}

export interface WorkspaceTrust {
  /** The project's real path. */
  readonly projectRoot: string;
  /** Why the project is trusted, or `none`. Becomes `dialog` after `grant()`. */
  readonly source: TrustSource;
  /** Whether the project's settings that run code or send data may take effect. */
  isTrusted(): boolean;
  /** What the start-up dialog must show; `settings` is empty when there is nothing to ask. */
  pending(): PendingTrust;
  /**
   * The user trusts the project as it is now: trusted from here on, and recorded in
   * `~/.mewcode/trust.json` (written atomically, mode 0600, never through a link; a link there
   * is refused with an error). Never called for --trust-project or MEWCODE_TRUST_PROJECT.
   */
  grant(): Promise<void>;
  /** `file: key` of every setting left out because the project is not trusted. */
  skipped(): string[];
  /** The one notice listing the skipped settings and how to trust them; undefined when none. */
  notice(): string | undefined;
  /** Remarks found while looking (e.g. an unreadable trust.json, too many files of code to hash). */
  readonly warnings: readonly string[];
  /** The scope of a settings file: `user` in ~/.mewcode, else `project` (`*.local.*` files included). */
  scopeOf(file: string): SettingsScope;
  /**
   * Whether this project-scope setting may take effect: the project is trusted and the value
   * is the one that was looked at (`key` as in `TrustSetting.key`; for whole files such as
   * `.mcp.json` and `.mewcode/hooks.yaml` the value is the file's text). Also records a refusal
   * in `skipped()`.
   */
  approves(file: string, key: string, value: unknown): boolean;
}
