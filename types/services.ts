/** Service interfaces the kernel binds under the tokens in tokens.ts. */
import type { Message } from './messages.js';
import type { ToolDefinition, Tool, ToolInput } from './tools.js';
import type { Provider, ProviderSettings } from './provider.js';
import type { PermissionMode, PermissionRequest } from './permissions.js';

export type { CutText, OutputLimits } from './output-limits.js';
export type { FileReadTracker } from './file-reads.js';

/** The session's history. Appends notify `messageAppended` before they resolve. */
/**
 * A session's history as everyone but the kernel sees it (`session.conversation`,
 * `TOKENS.Conversation`): a frozen copy of the messages, each message frozen. It changes only
 * through the kernel: a prompt through `run` (which passes `userPromptSubmit`), context through
 * `injectReminder` or a hook's additionalContext, each message announced on `messageAppended`.
 */
export interface ConversationView {
  readonly messages: readonly Message[];
  lastRole(): Message['role'] | undefined;
}

/** A session's history as the kernel, its only writer, holds it (`kernel/conversation.ts`). */
export interface Conversation {
  readonly messages: readonly Message[];
  append(message: Message): Promise<void>;
  /** Replace the whole history (compaction, resume). Not announced on `messageAppended`: the caller owns persisting it. */
  replace(messages: Message[]): Promise<void>;
  lastRole(): Message['role'] | undefined;
}

export interface ToolRegistry {
  register(tool: Tool): void;
  unregister(name: string): boolean;
  get(name: string): Tool | undefined;
  list(): readonly Tool[];
  /** Definitions in registration order (K3); `readOnlyOnly` for plan mode. */
  definitions(options?: { readOnlyOnly?: boolean }): ToolDefinition[];
  /**
   * Who registered the tool in force under `name`: the build (its plugins, the host) or a
   * plugin named in configuration; undefined when there is none. A layer that trusts a built-in
   * tool for what it does (bash runs in the OS sandbox) asks this, not the name.
   */
  origin(name: string): 'build' | 'configured' | undefined;
}

export interface ProviderRegistry {
  /** The provider that serves the next request. */
  active(): Provider;
  /** All configured providers, by name. */
  configured(): readonly ProviderSettings[];
  /** Switch the active provider by configured name (between runs). */
  switchTo(name: string): Provider;
  /** A provider for a session's override: a configured name and/or another model. */
  resolve(options: { name?: string; model?: string }): Provider;
  /** What a user may switch to (`/model`, `--provider`): each configured provider, no secrets. */
  models(): readonly ModelChoice[];
}

export interface ModelChoice {
  provider: string;
  protocol: string;
  model: string;
  contextWindow: number;
  maxTokens: number;
  /** Serves sessions that name no provider. */
  active: boolean;
}

/** Where warnings and notices go: the UI decides how to show them (stderr in headless mode). */
export interface Reporter {
  warn(message: string): void;
  notice(message: string): void;
  debug(message: string): void;
}

/**
 * Multi-bound under TOKENS.ReadOnlyDirectories: directories outside the project that the read-only
 * file tools may read in one session (an active skill's own folder). The sandbox layer allows a
 * read-only call there and read_file's descriptor check agrees; a tool that writes never gets them.
 * An implementation returns absolute, real paths it has vetted (never a whole home directory).
 */
export interface ReadOnlyDirectories {
  directories(session: { sessionId: string; agentId: string }): readonly string[];
}

/**
 * Bound by the permission-rules plugin under TOKENS.SearchPolicy: what glob and grep must leave
 * out, so a `Read` deny on a file holds for a search over its directory too.
 */
export interface SearchPolicy {
  /** A predicate that is true for files the search must skip; undefined when no rule applies. */
  hiddenFiles(toolName: string): ((absolutePath: string) => boolean) | undefined;
}

/** Bound by the permission-rules plugin under TOKENS.PermissionSettings. */
export interface PermissionSettings {
  /** `permissions.additional_directories` of all settings files, absolute (relative ones against the project root). */
  additionalDirectories(): string[];
  /** `permissions.default_mode` of the highest settings file that sets it (local > project > user). */
  defaultMode(): PermissionMode | undefined;
  /**
   * That file says `defaultMode: dontAsk` (Claude Code's): a run without --permission-mode answers
   * every question no, as under `--permission-mode dontAsk`. Optional for other implementations.
   */
  defaultDontAsk?(): boolean;
  /**
   * Where a settings file (any scope) sets `disableBypassPermissionsMode: disable`, as
   * `file:line:col`; undefined when none does. The kernel then runs bypassPermissions as default.
   */
  bypassDisabledBy?(): string | undefined;
  /**
   * Absolute literal prefixes (the part before the first glob character) of every deny or ask
   * rule for `read_file`, in all layers and session rules: `[]` when there are none, undefined
   * when a rule's reach cannot be bounded by a prefix (a `~` regex, a negation, no pattern).
   * The OS sandbox hides what these prefixes hold. Optional for other implementations.
   */
  readRulePrefixes?(): string[] | undefined;
  /**
   * The allow rule that lets reading tool `toolName` read a path outside the project and its
   * additional directories, described (`user rule (~/.claude/settings.json:4:7) "Read(~/notes/**)"`),
   * or undefined: a rule for that tool whose pattern is written as an absolute (`//abs/…`) or
   * `~/` path and matches every one of `paths` (the absolute path as written and where its links
   * lead), from a source trusted to grant (the user's files, the command line, saved approvals,
   * the project's files only once the project is trusted). The sandbox layer then leaves the call
   * to the rules, where a deny or ask rule still wins. Optional for other implementations.
   */
  outsideReadRule?(toolName: string, paths: readonly string[]): string | undefined;
  /**
   * One permission-rule string (`Bash(git push *)`, `Edit(src/**)`, `mcp__github__*`) as a test of
   * tool calls, matched as the rules layer matches a deny or ask rule of that text: a command
   * matches when any of its segments does, through wrappers and spellings, and so does one that
   * cannot be seen through (a command name computed at run time, code the parser cannot read).
   * `base`: whose file the rule is written in (a leading `/` is relative to `~/.mewcode` for the
   * user's, to the project for the project's; default the project's). Resolves to `{ error }`
   * when the text is not a rule. Optional for other implementations (hooks' `if`).
   */
  ruleMatcher?(rule: string, base?: 'user' | 'project'): Promise<PermissionRuleMatcher | { error: string }>;
}

/** A compiled permission rule used as a test (PermissionSettings.ruleMatcher). */
export interface PermissionRuleMatcher {
  /** The rule as written. */
  readonly rule: string;
  matches(call: RuleSubject): Promise<boolean>;
}

/** A tool call as a rule test sees it: the tool's own category and target are read from `tool`. */
export interface RuleSubject {
  toolName: string;
  tool: Tool | undefined;
  input: ToolInput;
  projectRoot: string;
}

export type GrantScope = 'session' | 'local';

export interface ApprovalGrant {
  rule: string;
  scope: GrantScope;
  /** `--allowedTools`, `approval`, or the local settings file (with line) the rule is in. */
  source: string;
}

/** Bound by the permission-rules plugin under TOKENS.Approvals; the TUI lists and revokes grants with it. */
export interface Approvals {
  /** Granted allow rules: the session's (flags and "allow for this session") and the local file's. */
  list(): ApprovalGrant[];
  /**
   * Remove a granted rule. `local` rewrites `.mewcode/settings.local.yaml` keeping its other
   * content and comments. Resolves to whether anything was removed.
   */
  revoke(rule: string, scope: GrantScope): Promise<boolean>;
  /** The exact rule that would allow this call (and nothing wider). */
  suggestRule(request: Pick<PermissionRequest, 'toolName' | 'target' | 'projectRoot'>): string;
  /**
   * Where the organisation's managed settings apply only their own permission rules
   * (`allow_managed_rules_only`), or undefined. While set, no allow rule of the user's, the
   * project's, `--allowedTools` or an approval applies, so none is suggested.
   */
  managedRulesOnly?(): string | undefined;
  /** Absolute path of the file "allow always" writes to: the user's saved approvals for this project, in ~/.mewcode. */
  localSettingsFile(): string;
}
