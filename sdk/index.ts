/**
 * `mewcode/sdk`: everything a plugin needs, and exactly what the built-in plugins use. A built-in
 * plugin imports only `types/`, `config/` and this folder, so a third-party plugin can do all a
 * built-in one does.
 */
export { ContainerModule, inject, injectable, multiInject, optional } from 'inversify';
export type { ServiceIdentifier } from 'inversify';
export { definePlugin } from '../types/plugin.js';
export type { MewcodePlugin, KernelApi } from '../types/plugin.js';
export { TOKENS } from '../types/tokens.js';
export { PermissionStage } from '../types/permissions.js';
export { ProviderError } from '../types/provider.js';
export { lazyTool, type ToolDefinitionPart } from './lazy-tool.js';
export * from './provider-retry.js';
export { importVendor } from './vendor-module.js';
export { containPath, expandHome, isWithin, resolveReal, resolveRealSync, errorCode, type Containment } from './path-containment.js';
export { analyzeShellCommand, parseShellCommand, loadShellParser, type ParsedCommand, type ShellAnalysis, type ShellSegment } from './shell-command/index.js';
export { cutBytes, cutLine, LINE_CUT_MARKER } from './text-cuts.js';
