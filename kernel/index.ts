/** The kernel's public surface for builds (bin), tests and the package entry. */
export { Kernel, type KernelOptions, type PluginTiming } from './kernel.js';
export { ConfigurationError } from './configuration-error.js';
export type { AddedPlugins } from './added-plugins.js';
export { PluginError } from './plugin-error.js';
export { MemoryReporter, StderrReporter } from './reporter.js';
export { pluginApi, type PluginApi } from './plugin-api.js';
export { KERNEL_VERSION } from './version.js';
export { estimateTokens, CHARS_PER_TOKEN } from './context-estimate.js';
export { renderHookTable } from './hook-table.js';
export * from './agent-loop.js';
