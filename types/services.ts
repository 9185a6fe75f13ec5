/** Service interfaces the kernel binds under the tokens in tokens.ts. */
import type { Message } from './messages.js';
import type { ToolDefinition, Tool } from './tools.js';
import type { Provider, ProviderSettings } from './provider.js';
import type { PermissionMode, PermissionRequest } from './permissions.js';

/** The session's history. Appends notify `messageAppended` before they resolve. */
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
}

export interface ProviderRegistry {
  /** The provider that serves the next request. */
  active(): Provider;
  /** All configured providers, by name. */
  configured(): readonly ProviderSettings[];
  /** Switch the active provider by configured name (between runs). */
  switchTo(name: string): Provider;
}

/** Where warnings and notices go: the UI decides how to show them (stderr in headless mode). */
export interface Reporter {
  warn(message: string): void;
  notice(message: string): void;
  debug(message: string): void;
}

/** A text cut to a limit. `truncated` says whether anything was dropped. */
export interface CutText {
  text: string;
  truncated: boolean;
}

/**
 * Every output cap of the tools lives in one place (SPEC T8), with the spill directory where
 * full outputs are saved when a cut is made. Bound by the `output-limits` plugin; tools get it
 * from the container (`TOKENS.OutputLimits`) and never hard-code a limit.
 */
export interface OutputLimits {
  /** read_file: lines per call (2000) */
  readonly readMaxLines: number;
  /** read_file: bytes of file content per call (256 KiB) */
  readonly readMaxBytes: number;
  /** read_file: characters of one line before it is cut (2000) */
  readonly readLineMaxChars: number;
  /** grep: characters of one matching line before it is cut (500) */
  readonly grepLineMaxChars: number;
  /** bash: lines and bytes of output kept in the result (200 / 8000) */
  readonly bashMaxLines: number;
  readonly bashMaxBytes: number;
  /** bash: bytes of full output saved to the spill file before saving stops (64 MiB) */
  readonly bashSpillMaxBytes: number;
  /** edit_file: larger files are refused, since an edit holds the file in memory several times (64 MiB) */
  readonly editMaxFileBytes: number;
  /** edit_file's diff: context lines (3), lines shown (80), characters per diff line (500) */
  readonly editDiffContextLines: number;
  readonly editDiffMaxLines: number;
  readonly editDiffLineMaxChars: number;
  /** edit_file's "closest region" hint when nothing matched: lines (20), characters per line (300) */
  readonly editHintMaxLines: number;
  readonly editHintLineMaxChars: number;
  /** glob and grep: results per call (100) */
  readonly searchMaxResults: number;
  /** Spill files older than this are removed at start-up (7 days). */
  readonly spillMaxAgeMs: number;
  /** Directory for full outputs: `<root>/.mewcode/tool-output/` unless a session provides one. */
  spillDir(): string;
  /** A fresh file path in the spill directory for one call's full output (directory created). */
  spillPath(toolCallId: string, suffix?: string): Promise<string>;
  /** Cut a line to `maxChars` characters (code points), marking the cut. */
  cutLine(line: string, maxChars: number): CutText;
  /** Keep at most `maxBytes` UTF-8 bytes, never splitting a character. No marker is added. */
  cutBytes(text: string, maxBytes: number): CutText;
}

/** Which files the model has read this session (write_file's read-first rule, compaction's recovery). */
export interface FileReadTracker {
  recordRead(absolutePath: string, mtimeMs: number): void;
  /** The mtime recorded at the last read, or undefined if never read. */
  lastRead(absolutePath: string): { mtimeMs: number; at: number } | undefined;
  /** Most recent first. */
  recent(limit: number): string[];
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
  /** Absolute path of the local settings file "allow always" writes to. */
  localSettingsFile(): string;
}
