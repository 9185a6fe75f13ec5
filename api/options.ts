/**
 * The options of `query()`, named as the Claude Agent SDK names them where the concept exists, and
 * how they become the run's CliOptions (the one description of a run every front end fills).
 */
import path from 'node:path';
import type { ConfigLayerName } from '../types/config.js';
import type { PermissionMode } from '../types/permissions.js';
import { PERMISSION_MODES } from '../types/permissions.js';
import type { CliOptions, MewcodePlugin } from '../types/plugin.js';
import type { ToolInput } from '../types/tools.js';

/** What `canUseTool` answers: run the call (optionally with other arguments), or refuse it with a message the model sees. */
export type PermissionResult = { behavior: 'allow'; updatedInput?: ToolInput } | { behavior: 'deny'; message: string };

export interface CanUseToolContext {
  /** Aborted when the query is interrupted or aborted: stop asking. */
  signal: AbortSignal;
  /** The call's id (as in the `tool_use` message) and the agent making it (`main` or a sub-agent's id). */
  toolUseId: string;
  agentId: string;
  /** Why the permission layers ask (e.g. the mode's or a rule's reason). */
  reason?: string;
}

/**
 * Asked whenever the permission layers would ask a person (an `ask` verdict), never for a call they
 * allow or deny themselves: the blacklist, the sandbox, deny rules and managed settings still hold.
 */
export type CanUseTool = (toolName: string, input: ToolInput, context: CanUseToolContext) => Promise<PermissionResult> | PermissionResult;

export type SettingSource = ConfigLayerName;

export interface QueryOptions {
  /** The project the run works in (default process.cwd()); several queries may use different ones. */
  cwd?: string;
  model?: string;
  /** A configured provider's name, or a protocol (anthropic | openai). */
  provider?: string;
  permissionMode?: PermissionMode;
  /** Permission rules for this run, as --allowedTools / --disallowedTools take them (`Bash(npm test:*)`, `Read`). */
  allowedTools?: string[];
  disallowedTools?: string[];
  canUseTool?: CanUseTool;
  /** MCP servers for this run, in `.mcp.json`'s `mcpServers` shape (a configured server of the same name wins). */
  mcpServers?: Record<string, unknown>;
  /** Plugins added to the default set: plugin objects, or module specs (npm names or paths, resolved from `cwd`). */
  plugins?: (MewcodePlugin | string)[];
  /** A saved session's id to continue, or `continue: true` for this project's latest. */
  resume?: string;
  continue?: boolean;
  /** Model turns per prompt (default: none). */
  maxTurns?: number;
  /** Aborting it ends the query: the current turn stops (history stays valid), no further prompt runs. */
  abortController?: AbortController;
  /** Text appended to MewCode's system prompt: a string, or `{ append }` (also with Claude's `type: 'preset'`). */
  systemPrompt?: string | { append?: string; type?: 'preset'; preset?: string };
  /** Which configuration layers to read; none by default (`['user', 'project', 'local']` reads what the CLI reads). */
  settingSources?: SettingSource[];
  /**
   * The environment of the run: API keys and endpoints (ANTHROPIC_API_KEY…, MEWCODE_MODEL), HOME,
   * what hooks and MCP servers inherit. Default process.env. Never written to process.env.
   */
  env?: Record<string, string | undefined>;
  /** Apply the project's code-running settings (when `settingSources` reads the project) without a trust record. */
  trustProject?: boolean;
  /** Where warnings and notices go (default: standard error, `mewcode: …` lines). */
  stderr?: (text: string) => void;
}

export function appendedSystemPrompt(systemPrompt: QueryOptions['systemPrompt']): string | undefined {
  if (systemPrompt === undefined) return undefined;
  if (typeof systemPrompt === 'string') return systemPrompt;
  if (typeof systemPrompt !== 'object' || systemPrompt === null) throw new TypeError('options.systemPrompt must be a string or { append: string }');
  if (systemPrompt.append !== undefined && typeof systemPrompt.append !== 'string') throw new TypeError('options.systemPrompt.append must be a string');
  return systemPrompt.append;
}

/** The run's CliOptions; a malformed option is a TypeError naming it (before anything boots). */
export function toCliOptions(options: QueryOptions): CliOptions {
  const mode = options.permissionMode ?? 'default';
  if (!(PERMISSION_MODES as readonly string[]).includes(mode)) throw new TypeError(`options.permissionMode must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(mode)})`);
  if (options.maxTurns !== undefined && !(Number.isInteger(options.maxTurns) && options.maxTurns >= 1)) throw new TypeError(`options.maxTurns must be a whole number of at least 1 (got ${String(options.maxTurns)})`);
  if (options.resume !== undefined && options.continue) throw new TypeError('options.resume and options.continue cannot be used together');
  for (const key of ['allowedTools', 'disallowedTools', 'settingSources'] as const) {
    const value = options[key];
    if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))) throw new TypeError(`options.${key} must be a list of strings`);
  }
  for (const source of options.settingSources ?? []) {
    if (!['user', 'project', 'local'].includes(source)) throw new TypeError(`options.settingSources: "${source}" is not one of user, project, local`);
  }
  if (options.mcpServers !== undefined && (typeof options.mcpServers !== 'object' || options.mcpServers === null || Array.isArray(options.mcpServers))) {
    throw new TypeError('options.mcpServers must be an object of server names to servers (.mcp.json\'s mcpServers)');
  }
  const cli: CliOptions = {
    outputFormat: 'stream-json',
    permissionMode: mode,
    permissionModeGiven: options.permissionMode !== undefined,
    debugBoot: false,
    cwd: path.resolve(options.cwd ?? process.cwd()),
    allowedTools: [...(options.allowedTools ?? [])],
    disallowedTools: [...(options.disallowedTools ?? [])],
    trustProject: options.trustProject === true,
    dangerouslySkipSandbox: false,
    settingSources: [...(options.settingSources ?? [])],
  };
  if (options.model !== undefined) cli.model = options.model;
  if (options.provider !== undefined) cli.provider = options.provider;
  if (options.maxTurns !== undefined) cli.maxTurns = options.maxTurns;
  if (options.resume !== undefined) cli.resumeId = options.resume;
  if (options.continue) cli.continueLatest = true;
  if (options.mcpServers !== undefined) {
    cli.mcpServers = { ...options.mcpServers };
    cli.mcpServerOrigins = Object.fromEntries(Object.keys(options.mcpServers).map((name) => [name, 'query() options.mcpServers']));
  }
  const appended = appendedSystemPrompt(options.systemPrompt);
  if (appended !== undefined && appended.trim() !== '') cli.appendSystemPrompt = appended;
  return cli;
}
