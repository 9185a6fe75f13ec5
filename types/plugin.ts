/** The plugin contract; docs/plugin-contract.md is its reference. */
import type { Container, ContainerModule } from 'inversify';
import type { CliSubcommand, DoctorCheck } from './cli.js';
import type { Command } from './commands.js';
import type { AgentEvent } from './events.js';
import type { ConfigLayerName, ConfigSection } from './config.js';
import type { ModelRequestReason, NotificationPayload, PluginHooks, PostToolUseContext, RunContext, ShutdownReason } from './hooks.js';
import type { ToolResult } from './messages.js';
import type { ModelRequest, Provider, ProviderEvent } from './provider.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode, PermissionRequest, PermissionVerdict } from './permissions.js';
import type { AgentSession, RunOptions, SessionOptions, SessionRecords } from './session.js';
import type { ToolRegistry } from './services.js';
import type { PendingTrust } from './trust.js';

/**
 * What a plugin's `apply` and `start` receive: the running kernel, seen through a facade whose
 * hooks are frozen and tap-only, and whose taps carry this plugin's name (errors blame it; its
 * taps are removed when it is disposed).
 */
/**
 * What start() receives: the plugin's kernel API and `signal`, aborted when its time limit passes
 * (the run has stopped waiting for it) and when MewCode shuts down. Pass it to fetch() and clear
 * timers on it: work start() leaves running is cut off when the process exits.
 */
export interface StartContext extends KernelApi {
  readonly signal: AbortSignal;
}

export interface KernelApi {
  readonly version: string;
  readonly hooks: PluginHooks;
  readonly container: Container;
  /** The workspace every session of this kernel works in (known before any session exists). */
  readonly projectRoot: string;
  readonly homeDir: string;
  /** The main (user's) session; it exists once every plugin's bindings and tools are in place. */
  readonly session: AgentSession;
  /** The command line this kernel was started with; undefined for builds without the CLI. */
  readonly cli: CliOptions | undefined;
  /** Every tool; tools may be registered and removed after boot (sessions see changes between turns). */
  readonly tools: ToolRegistry;
  /** The validated value of a section a plugin declared with `config`. */
  config<T>(key: string): T | undefined;
  /** A new session (sub-agent, background work). */
  createSession(options?: SessionOptions): AgentSession;
  /** Rebuild a saved session; fires `sessionResume`. */
  resumeSession(records: SessionRecords, options?: Omit<SessionOptions, 'history' | 'sessionId'>): Promise<AgentSession>;
  /** Slash commands contributed under TOKENS.Command, by name. */
  commands(): readonly Command[];
  /** Tell the user something: the one route to the active UI (buffered until a UI exists). */
  notify(kind: NotificationPayload['kind'], message: string, session?: Pick<AgentSession, 'sessionId' | 'agentId'>): void;
  warn(message: string): void;
  /** The main session's `injectReminder`. */
  injectReminder(text: string): void;
  /**
   * Send a model request that is not a turn of the agent loop (a compaction summary, an MCP
   * server's sampling request) the way every request is sent: preModelRequest first, its context
   * carrying `reason`, then the provider. A tap that refuses the request (`block`), throws or
   * answers malformed: nothing is sent and iterating throws (ModelRequestRefused, naming the
   * plugin). Never call a provider's `stream` directly: DLP and model-allowlist plugins would not
   * see that request.
   */
  sendModelRequest(request: ModelRequest, options: ModelRequestOptions): AsyncIterable<ProviderEvent>;
  /** The main session's `run`. */
  run(options: RunOptions): AsyncIterable<AgentEvent>;
  /** The main session's `compact`. */
  compactNow(mode: PermissionMode): Promise<boolean>;
  /**
   * The permission chain's verdict on a call a plugin is about to make itself (a custom command's
   * `!` line), decided exactly as a model's call is — every layer, the floors — without approval,
   * and announced on `permissionDecided` (so the audit log has it) as allowed only when the verdict
   * is an allow: the caller makes the call on an allow and on nothing else.
   * Optional: a build without it makes such plugins refuse the call.
   */
  decidePermission?(request: PermissionRequest, callId: string): Promise<PermissionVerdict>;
  /**
   * For what a plugin starts on a session's behalf that a tool call would start (a fork skill's
   * sub-agent is the `agent` tool's call): the call judged as a model's would be — the registered
   * tool's target, every permission layer and floor — and, when the chain asks, the question put
   * (requestApproval taps, then the UI; with no one to answer, refused). PreToolUse is not run (no
   * call is made). Announced on `permissionDecided`. Start only on `allowed`; `reason` says who
   * refused. Optional: a build without it makes such plugins refuse the start.
   */
  askPermission?(ask: PluginPermissionAsk): Promise<PluginPermissionAnswer>;
  /**
   * A call a plugin makes itself before a prompt is sent (a custom command's `!` line, its `@path`
   * reads), through everything a model's call goes through — the registered tool, preToolUse, the
   * permission chain (announced on `permissionDecided`), the tool's timeout, postToolUse — except
   * that nobody is asked: only an outright allow runs it. With `perform` the plugin does the work
   * itself once the call is allowed (a custom command reads an `@path` file its own way), and
   * what it returns passes postToolUse like the tool's output. Optional: a build without it makes
   * such plugins refuse the call.
   */
  callTool?(call: PluginToolCall): Promise<PluginToolCallResult>;
  /**
   * What the required plugins' postToolUse taps (the organisation's and the configuration's
   * policies, e.g. a DLP redaction) make of a tool result, run alone: for a build plugin that
   * taps after them, so it sends on only what they let out, and adds text of its own that passes
   * them too (the user's PostToolUse hooks). A failing policy withholds, as on postToolUse.
   * Optional: without it such a plugin cannot scrub what it adds.
   */
  requiredPostToolUse?(result: ToolResult, context: PostToolUseContext): Promise<ToolResult>;
}

/** A call's question without the call (`callId` names the decision, e.g. `subagent-start-1`). */
export type PluginPermissionAsk = Omit<PluginToolCall, 'perform'>;

export type PluginPermissionAnswer = { allowed: true } | { allowed: false; reason: string };

export interface PluginToolCall {
  toolName: string;
  input: Record<string, unknown>;
  /** Names the call in `permissionDecided` and the hooks (e.g. `custom-command-1`). */
  callId: string;
  session: AgentSession;
  mode: PermissionMode;
  signal?: AbortSignal;
  /**
   * Runs in the tool's place after the gate allowed the call; its output passes postToolUse. It
   * knows only the input asked with, so a call whose input a preToolUse tap rewrote is not run.
   */
  perform?: () => Promise<{ content: string; isError?: boolean }>;
}

export interface PluginToolCallResult {
  /** Whether every layer allowed it (and so it ran). */
  allowed: boolean;
  /** The tool's result after postToolUse; when not allowed, an error naming who refused and why. */
  content: string;
  isError: boolean;
}

/** What `sendModelRequest` is told besides the request. */
export interface ModelRequestOptions {
  reason: Exclude<ModelRequestReason, 'turn'>;
  signal: AbortSignal;
  /** Whose request: the session's identity and mode (a compaction's session). Default: the main session, in the command line's mode. */
  session?: RunContext;
  /** Where it goes. Default: the provider the main session's next request goes to. */
  provider?: Provider;
}

export interface MewcodePlugin {
  /** Unique; custom builds disable or replace plugins by name. */
  name: string;
  version?: string;
  /** Semver range of the kernel API this plugin was built for (checked for external plugins). */
  kernel?: string;
  /**
   * What this plugin deliberately takes over; nothing is taken over silently. A plugin name: that
   * plugin is dropped from the set (a configured plugin must list its own name here to take a
   * name already in the set). A tool name (`read_file`), a slash command name (`deploy`) or a
   * single-binding token's name in TOKENS (`CommandSandbox`): this plugin's registration replaces
   * the other plugin's instead of being refused. Configuration can never take over an essential
   * plugin or a safety layer, or their services; a custom build's own list can.
   */
  replaces?: readonly string[];
  /**
   * Essential plugins (e.g. the permission blacklist and sandbox) cannot be removed by the
   * `disable:` configuration key; only a custom build that passes its own plugin list can drop them.
   */
  essential?: boolean;
  /**
   * A safety layer (a permission layer, the audit log): `disable:` removes it only when the
   * user's own configuration (`~/.mewcode/`) says so, never from a project's files, trusted or not.
   */
  safety?: boolean;
  /** Plugins that must be present and applied first. */
  dependsOn?: readonly string[];
  /** The plugin's own configuration section, validated before `apply`. */
  config?: ConfigSection;
  /**
   * Other top-level configuration keys this plugin reads itself (sandbox-os reads `sandbox:` from
   * the user's files), so the kernel does not report them as unknown.
   */
  configKeys?: readonly string[];
  /**
   * Organisation policy: when this plugin fails to load (import, bindings, tools, apply) or its
   * start() fails or does not finish within its bound, the run stops with exit 2 before any
   * model request instead of running without it. Configuration can say the same of any plugin:
   * `plugins: [{ use: <module>, required: true }]`. Essential plugins and safety layers of the
   * build are held to the same rule.
   */
  required?: boolean;
  /** All binding happens here (never in `apply`). Tools bound under TOKENS.Tool are resolved per plugin. */
  bindings?: ContainerModule;
  /**
   * Tap hooks. A throw removes this plugin's taps, tools and bindings and disposes it. What a tap
   * returns is checked at run time: a malformed answer to a decision hook takes the safe side
   * (checkPermission, preToolUse and requestApproval deny, userPromptSubmit blocks) and names
   * this plugin. A checkPermission tap that does not answer within 30 s denies.
   */
  apply?(kernel: KernelApi): void | Promise<void>;
  /**
   * Background work after boot (e.g. connecting MCP servers). Not awaited by boot; the first
   * model request waits for it at most `startTimeoutMs`. One that fails or does not finish in
   * time is a warning, or, for a required, essential or safety plugin, ends the run (exit 2).
   */
  start?(kernel: StartContext): Promise<void>;
  /** The bound of `start()`; default `plugin_start_timeout_ms` from configuration, else 5000. */
  startTimeoutMs?: number;
  /**
   * Load now what the first tool turn will need (a lazily imported module, a parser), because the
   * process is waiting for the model: called once per kernel, shortly after its first request went
   * out, and only while no answer has begun (never at boot). Must not change anything a run can
   * see. A failure is ignored here: the first real use loads again and reports it.
   */
  warm?(kernel: KernelApi): void | Promise<void>;
  /**
   * Stop what this plugin started (clear its timers, close its sockets and servers). Called at
   * shutdown and after a failed `apply`; one that has not finished within 5 s is a warning and
   * shutdown goes on. The CLI exits once its command is done whatever a plugin left open, so
   * dispose() is the one place such work is stopped cleanly.
   */
  dispose?(): void | Promise<void>;
  /**
   * `mewcode <name> …` subcommands (types/cli.ts). One plugin per name: a second plugin's command
   * of a taken name is refused, naming both, unless it declares `replaces: ['<name>']` (a command
   * of an essential plugin or a safety layer cannot be taken over from configuration).
   */
  subcommands?: readonly CliSubcommand[];
  /** Checks `mewcode doctor` runs after the kernel's own (types/cli.ts); names unique as subcommands'. */
  doctorChecks?: readonly DoctorCheck[];
}

export function definePlugin<P extends MewcodePlugin>(plugin: P): P {
  return plugin;
}

/** Options every user interface receives from the command line. */
export interface CliOptions {
  prompt?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  permissionMode: PermissionMode;
  /**
   * Whether --permission-mode was on the command line. When false, a UI may start in the
   * settings' `permissions.default_mode` instead (TOKENS.PermissionSettings).
   */
  permissionModeGiven: boolean;
  /**
   * `--permission-mode dontAsk` (Claude Code's mode): the run starts in `permissionMode` (default)
   * and every question is answered no without asking anyone, whatever the mode later becomes; only
   * what the rules and the mode allow runs.
   */
  dontAsk?: boolean;
  provider?: string;
  model?: string;
  debugBoot: boolean;
  /** --debug (or `plugins`/`all` in MEWCODE_DEBUG): a plugin's failure, and a tool's throw, is shown with its stack. */
  debug?: boolean;
  cwd: string;
  /** Session rules from --allowedTools / --disallowedTools, in permission-rule syntax. */
  allowedTools: string[];
  disallowedTools: string[];
  /** --max-turns: model turns the run may take (the front end's default otherwise). */
  maxTurns?: number;
  /** --trust-project (or MEWCODE_TRUST_PROJECT=1): trust this project's code-running settings for this run. */
  trustProject?: boolean;
  /** --dangerously-skip-sandbox: allow bypass mode for bash where no OS sandbox can run. */
  dangerouslySkipSandbox?: boolean;
  /** `--continue`: resume this project's most recent session. */
  continueLatest?: boolean;
  /** `--resume <id>`: resume this session. */
  resumeId?: string;
  /**
   * MCP servers this run adds to the configured ones, keyed by name, each in `.mcp.json`'s
   * `mcpServers` shape (`{command, args, env}` or `{type: 'http'|'sse', url, headers}`): from
   * `--mcp-config` or a front end (an editor's `session/new`, the programmatic API). They are the
   * user's own choice, so they need no workspace trust (managed settings still apply). A server of
   * the same name in the configuration (a trusted `.mcp.json` or `mcp_servers:`) wins: the run's
   * entry is then not used, and the user is told. A bad entry is skipped loudly, naming the server
   * and the key.
   */
  mcpServers?: Readonly<Record<string, unknown>>;
  /** Where each of `mcpServers` was given (`/path/servers.json`, `--mcp-config`), for messages. */
  mcpServerOrigins?: Readonly<Record<string, string>>;
  /** `--strict-mcp-config`: only `mcpServers` start; no configured, `.mcp.json`, `~/.claude.json` or plugin server. */
  strictMcpConfig?: boolean;
  /**
   * Which configuration layers this run reads: `user` (`~/.mewcode/`), `project` (the project's
   * files: `.mewcode.yaml`, `.mcp.json`, instruction files) and `local` (`.mewcode/config.local.*`).
   * Undefined (the CLI): all of them. The programmatic API reads none unless its caller asks.
   */
  settingSources?: readonly ConfigLayerName[];
  /**
   * Text appended to the main agent's system prompt (`--append-system-prompt`, the API's
   * `systemPrompt`): after the base prompt and the instructions, the same on every request, so the
   * prompt stays byte-identical from turn to turn.
   */
  appendSystemPrompt?: string;
  /**
   * `--plugin-dir <path>` (repeatable) and MEWCODE_PLUGIN_DIR (paths separated by the platform's
   * path delimiter): Claude Code plugin directories this run loads, absolute. The user named them,
   * so their contributions are the user's own (no workspace trust needed).
   */
  pluginDirs?: readonly string[];
  /**
   * `--add-dir <path…>` (Claude Code's flag, repeatable): directories this run may use besides the
   * project, absolute, exactly as if listed in the user's `permissions.additional_directories`
   * (the file tools, grep and glob, and bash's OS sandbox allow them alike).
   */
  additionalDirectories?: readonly string[];
}

/**
 * Where the kernel's notices, warnings and approval requests go: provided by the active UI. Until
 * a UI is active they are buffered.
 */
export interface UserOutput {
  notify(payload: NotificationPayload): void;
  /** Ask the user; undefined when this UI cannot ask (the call is then denied with the reason). */
  approve?(request: ApprovalRequest): Promise<ApprovalOutcome | undefined>;
}

/** Contributed under TOKENS.UserInterface. The CLI picks the first whose `handles` is true. */
export interface UserInterface {
  readonly name: string;
  handles(options: CliOptions, stdinIsTTY: boolean): boolean;
  /** The UI's output; the kernel routes everything the user is told here once the UI is active. */
  readonly output: UserOutput;
  /** Runs the session and resolves to the process exit code. */
  run(kernel: KernelApi, options: CliOptions): Promise<number>;
  /**
   * Why the session ended, asked once run() resolved, for `kernel.shutdown(reason)`:
   * `prompt_input_exit` when the user left an interactive UI; absent or `other` otherwise.
   */
  endReason?(): ShutdownReason;
  /**
   * Ask the user whether to trust the project (an interactive UI's start-up dialog, A12).
   * Called before the session starts when the project has settings that need trust and nothing
   * trusted it yet; on true the CLI grants trust and boots again with those settings.
   */
  decideTrust?(pending: PendingTrust): Promise<boolean>;
}
