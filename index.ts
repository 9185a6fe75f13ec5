/**
 * The package entry for custom builds: `import { Kernel, defaultPlugins } from 'mewcode'`, then
 * pass a different plugin list (drop, add or replace plugins) to Kernel.create.
 */
import 'reflect-metadata';

export * from './types/index.js';
export { Kernel, ConfigurationError, PluginError, MemoryReporter, StderrReporter, pluginApi, KERNEL_VERSION } from './kernel/index.js';
export type { KernelOptions, PluginTiming, PluginApi } from './kernel/index.js';
export { loadConfig, zodSection, createVarExpander } from './config/index.js';
export { defaultPlugins } from './plugins/default-set.js';
export { main } from './bin/main.js';
