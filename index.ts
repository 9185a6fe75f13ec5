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
// The programmatic API: `query({ prompt, options })` yields the messages of --output-format stream-json.
export * from './api/index.js';

// For plugins, beside `mewcode/sdk` (which does not re-export config/): the configuration helpers
// a plugin reading its own files needs: positions, cached parsing, git tracking, the terminal filter.
export { formatPos, offsetToLineCol, toPlain, type LocatedNode, type LocatedMap, type LocatedSeq, type LocatedScalar, type SourcePos } from './config/located.js';
export { parseConfigTextCached } from './config/parse-cache.js';
export { isTrackedByGit, type TrackedAnswer } from './config/git-tracked.js';
export { terminalSafe, terminalSafeJson, terminalWriter } from './config/terminal-safe.js';
// Files a project supplies (instructions, definitions, settings): inside it by real path, regular, bounded.
export { readProjectTextFile, projectScriptProblem, projectBoundary, withinRoot, refusalOf, inPackageDirectory, hardLinks, PACKAGE_DIRECTORIES, type ProjectFileOptions, type ProjectFileRead } from './config/project-file.js';
