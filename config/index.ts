/**
 * Configuration: discovery (cosmiconfig), layering user < project < local (rules in merge.ts),
 * `${VAR}` expansion, and zod-based section validation with precise error locations (K2).
 */
export { loadConfig } from './load.js';
export type { LoadConfigOptions } from './load.js';
export { createVarExpander } from './expand.js';
export { zodSection, formatConfigIssues } from './validate.js';
export { renderConfigPath } from './config-path.js';
