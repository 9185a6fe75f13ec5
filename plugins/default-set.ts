/**
 * The plugins the `mewcode` CLI is built from. A custom build passes its own list to Kernel.create.
 * Tool plugins register in this order, which is the (stable) order of the tool definitions.
 */
import { deepFreeze } from '../types/deep-freeze.js';
import type { MewcodePlugin } from '../types/plugin.js';
import providerAnthropic from './provider-anthropic/index.js';
import providerOpenai from './provider-openai/index.js';
import systemPrompt from './system-prompt/index.js';
import environment from './environment/index.js';
import outputLimits from './output-limits/index.js';
import toolReadFile from './tool-read-file/index.js';
import toolWriteFile from './tool-write-file/index.js';
import toolEditFile from './tool-edit-file/index.js';
import sandboxOs from './sandbox-os/index.js';
import toolBash from './tool-bash/index.js';
import toolGlob from './tool-glob/index.js';
import toolGrep from './tool-grep/index.js';
import toolTodo from './tool-todo/index.js';
import permissionBlacklist from './permission-blacklist/index.js';
import permissionSandbox from './permission-sandbox/index.js';
import permissionRules, { createPermissionRulesPlugin } from './permission-rules/index.js';
import permissionMode from './permission-mode/index.js';
import permissionAudit, { createPermissionAuditPlugin } from './permission-audit/index.js';
import uiHeadless from './ui-headless/index.js';
import uiTui from './ui-tui/index.js';
import uiAcp from './ui-acp/index.js';
import commands from './commands/index.js';
import session, { createSessionPlugin } from './session/index.js';
import compaction, { createCompactionPlugin } from './compaction/index.js';
import claudePlugins from './claude-plugins/index.js';
import skills from './skills/index.js';
import mcp, { createMcpPlugin } from './mcp/index.js';
import hooks, { createHooksPlugin } from './hooks/index.js';
import subagents, { createSubagentsPlugin } from './subagents/index.js';
import customCommands from './custom-commands/index.js';
import claudePluginSources from './claude-plugin-sources/index.js';

/**
 * Frozen all the way down as this module is evaluated: the `mewcode` entry exports this list, so a
 * configured plugin's factory, which runs before the build's plugins are applied, could otherwise
 * swap a safety layer's `apply` or drop an entry of the list the kernel boots from.
 */
export const defaultPlugins: readonly MewcodePlugin[] = deepFreeze([
  providerAnthropic,
  providerOpenai,
  systemPrompt,
  environment,
  outputLimits,
  toolReadFile,
  toolWriteFile,
  toolEditFile,
  sandboxOs,
  toolBash,
  toolGlob,
  toolGrep,
  toolTodo,
  permissionBlacklist,
  permissionSandbox,
  permissionRules,
  permissionMode,
  permissionAudit,
  uiHeadless,
  uiTui,
  uiAcp,
  commands,
  session,
  compaction,
  claudePlugins,
  skills,
  mcp,
  hooks,
  subagents,
  customCommands,
  claudePluginSources,
]);

/**
 * The default set for one of several kernels in a process (the programmatic API runs each query
 * on its own): the plugins that keep what they opened for every kernel they serve (transcript
 * writers, audit logs, hook runners, sub-agent tasks, MCP servers) are fresh objects, so one
 * kernel's shutdown (their `dispose`) closes nothing of another's. `env` is what hooks and MCP
 * servers draw their variables from (default process.env).
 */
export function createDefaultPlugins(options: { env?: NodeJS.ProcessEnv } = {}): MewcodePlugin[] {
  return withFreshState(defaultPlugins, options);
}

/**
 * `plugins` (a build's list) with each default plugin that keeps per-kernel state replaced by a
 * fresh object, for another kernel in the same process (`mewcode acp` opens one per editor
 * session). A custom build's own plugins are kept as they are.
 */
export function withFreshState(plugins: readonly MewcodePlugin[], options: { env?: NodeJS.ProcessEnv } = {}): MewcodePlugin[] {
  const env = options.env ? { env: options.env } : {};
  const fresh = new Map<MewcodePlugin, MewcodePlugin>([
    [permissionRules, createPermissionRulesPlugin()],
    [permissionAudit, createPermissionAuditPlugin()],
    [session, createSessionPlugin()],
    [compaction, createCompactionPlugin()],
    [mcp, createMcpPlugin(env)],
    [hooks, createHooksPlugin(env)],
    [subagents, createSubagentsPlugin()],
  ]);
  return plugins.map((plugin) => fresh.get(plugin) ?? plugin);
}
