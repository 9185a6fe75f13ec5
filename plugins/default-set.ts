/**
 * The plugins the `mewcode` CLI is built from. A custom build passes its own list to Kernel.create.
 * Tool plugins register in this order, which is the (stable) order of the tool definitions.
 */
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
import permissionBlacklist from './permission-blacklist/index.js';
import permissionSandbox from './permission-sandbox/index.js';
import permissionRules from './permission-rules/index.js';
import permissionMode from './permission-mode/index.js';
import permissionAudit from './permission-audit/index.js';
import uiHeadless from './ui-headless/index.js';
import uiTui from './ui-tui/index.js';
import commands from './commands/index.js';
import session from './session/index.js';
import compaction from './compaction/index.js';
import claudePlugins from './claude-plugins/index.js';
import skills from './skills/index.js';
import mcp from './mcp/index.js';
import hooks from './hooks/index.js';
import subagents from './subagents/index.js';
import customCommands from './custom-commands/index.js';
import claudePluginSources from './claude-plugin-sources/index.js';

export const defaultPlugins: readonly MewcodePlugin[] = [
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
  permissionBlacklist,
  permissionSandbox,
  permissionRules,
  permissionMode,
  permissionAudit,
  uiHeadless,
  uiTui,
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
];
