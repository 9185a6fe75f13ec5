/**
 * DI tokens, typed as inversify `ServiceIdentifier<T>` so `bind(TOKENS.Tool).toConstantValue(x)`
 * and `container.get(TOKENS.Approvals)` are type-checked. `Symbol.for` so that two copies of this
 * package (an npm plugin's and the bundle's) still agree on identity.
 */
import type { ServiceIdentifier } from 'inversify';
import type { ResolvedConfig } from './config.js';
import type { FileReadTracker } from './file-reads.js';
import type { OutputLimits } from './output-limits.js';
import type { KernelApi, UserInterface } from './plugin.js';
import type { ProviderFactory } from './provider.js';
import type { Command, CommandProvider } from './commands.js';
import type { CommandSandbox } from './sandbox.js';
import type { CommandLauncher, WorkspaceFiles } from './workspace-io.js';
import type { ManagedPolicy } from './managed.js';
import type { McpServers } from './mcp.js';
import type { CompactionService } from './session.js';
import type { SessionIdReservation, SessionStore } from './session-store.js';
import type { SubagentRunner } from './subagents.js';
import type { Approvals, ConversationView, PermissionSettings, ProviderRegistry, ReadOnlyDirectories, Reporter, SearchPolicy, ToolRegistry } from './services.js';
import type { Tool } from './tools.js';
import type { TodoLists } from './todos.js';
import type { ClaudePluginBundles, ClaudePluginRootSource } from './claude-plugins.js';
import type { WorkspaceTrust } from './trust.js';
import type { CommandEnvironment } from './command-environment.js';
import type { InstructionLoads } from './instruction-loads.js';
import type { ComponentHooks } from './component-hooks.js';

const token = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`mewcode/${name}`) as ServiceIdentifier<T>;

/**
 * Frozen as this module is evaluated, before any plugin loads: every plugin and the kernel read
 * the same table at each call (`container.get(TOKENS.CommandSandbox)`), so one plugin re-pointing
 * an entry at an identifier it bound itself would hand everyone its service.
 */
export const TOKENS = Object.freeze({
  /** multi-bound: every tool a plugin contributes */
  Tool: token<Tool>('Tool'),
  /** multi-bound: ProviderFactory per protocol */
  ProviderFactory: token<ProviderFactory>('ProviderFactory'),
  /** the running kernel (KernelApi) */
  Kernel: token<KernelApi>('Kernel'),
  /** the main session's history */
  Conversation: token<ConversationView>('Conversation'),
  ToolRegistry: token<ToolRegistry>('ToolRegistry'),
  ProviderRegistry: token<ProviderRegistry>('ProviderRegistry'),
  Reporter: token<Reporter>('Reporter'),
  /** the resolved configuration (ResolvedConfig) */
  Config: token<ResolvedConfig>('Config'),
  /** OutputLimits: every tool output cap and the spill directory (T8) */
  OutputLimits: token<OutputLimits>('OutputLimits'),
  /** FileReadTracker: files read this session */
  FileReads: token<FileReadTracker>('FileReads'),
  /** PermissionSettings: default mode and additional directories (permission-rules) */
  PermissionSettings: token<PermissionSettings>('PermissionSettings'),
  /** SearchPolicy: files glob and grep must skip (permission-rules) */
  SearchPolicy: token<SearchPolicy>('SearchPolicy'),
  /** Approvals: granted rules, list / revoke, suggestRule (permission-rules) */
  Approvals: token<Approvals>('Approvals'),
  /** multi-bound: user interfaces (UserInterface) */
  UserInterface: token<UserInterface>('UserInterface'),
  /** CommandSandbox: the OS sandbox commands run in (bash; later MCP stdio servers and hooks) */
  CommandSandbox: token<CommandSandbox>('CommandSandbox'),
  /** CompactionService: rewrites a history that grew too long (the default build: plugins/compaction) */
  CompactionService: token<CompactionService>('CompactionService'),
  /** multi-bound: slash commands (Command) */
  Command: token<Command>('Command'),
  /** multi-bound: sources of commands that change at run time (CommandProvider), after TOKENS.Command */
  CommandProvider: token<CommandProvider>('CommandProvider'),
  /** multi-bound: folders outside the project the read-only file tools may read in a session (ReadOnlyDirectories; skills) */
  ReadOnlyDirectories: token<ReadOnlyDirectories>('ReadOnlyDirectories'),
  /** WorkspaceTrust: whether the project's code-running settings may take effect */
  WorkspaceTrust: token<WorkspaceTrust>('WorkspaceTrust'),
  /** SessionStore: saved sessions to list and resume (the session plugin) */
  SessionStore: token<SessionStore>('SessionStore'),
  /** SessionIds: reserves a fresh session id, so two sessions never share one (the session plugin). */
  SessionIds: token<SessionIdReservation>('SessionIds'),
  /** The MCP servers' status (mcp plugin): `mewcode mcp list`, the TUI's /mcp. */
  McpServers: token<McpServers>('McpServers'),
  /** SubagentRunner: runs sub-agents for the agent tool, fork-mode skills and hook actions (subagents plugin). */
  SubagentRunner: token<SubagentRunner>('SubagentRunner'),
  /** ManagedPolicy: the organisation's managed settings (bound by the kernel; empty when none). */
  ManagedPolicy: token<ManagedPolicy>('ManagedPolicy'),
  /** multi-bound: sources of the Claude Code plugin directories enabled for this run (types/claude-plugins.ts). */
  ClaudePluginRoots: token<ClaudePluginRootSource>('ClaudePluginRoots'),
  /** WorkspaceFiles: where read_file / write_file / edit_file get and put a file's text (unbound: the disk; an editor front end binds its buffers). */
  WorkspaceFiles: token<WorkspaceFiles>('WorkspaceFiles'),
  /** CommandLauncher: where bash runs its sandbox-wrapped command (unbound: a child process; an editor front end binds its terminals). */
  CommandLauncher: token<CommandLauncher>('CommandLauncher'),
  /** ClaudePluginBundles: what each Claude Code plugin directory of this run contributes (claude-plugins plugin). */
  ClaudePluginBundles: token<ClaudePluginBundles>('ClaudePluginBundles'),
  /** TodoLists: each session's to-do list as the model last wrote it, and its changes (tool-todo). */
  TodoLists: token<TodoLists>('TodoLists'),
  /** CommandEnvironment: variables later bash commands get (a SessionStart hook's CLAUDE_ENV_FILE; tool-bash). */
  CommandEnvironment: token<CommandEnvironment>('CommandEnvironment'),
  /** InstructionLoads: each instruction file as it joins a session's context (system-prompt; the hooks' InstructionsLoaded). */
  InstructionLoads: token<InstructionLoads>('InstructionLoads'),
  /** ComponentHooks: runs a skill's, command file's or agent definition's own `hooks:` while it is active (hooks plugin). */
  ComponentHooks: token<ComponentHooks>('ComponentHooks'),
} as const);
