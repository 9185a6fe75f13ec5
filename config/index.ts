/**
 * Configuration: discovery (fixed names, read with project-file.ts), layering user < project < local (rules in merge.ts),
 * `${VAR}` expansion, zod-based section validation with precise error locations (K2), and
 * workspace trust (A12: project settings that run code or send data need the user's trust).
 */
export { loadConfig } from './load.js';
export type { LoadConfigOptions } from './load.js';
export { createVarExpander } from './expand.js';
export { zodSection, formatConfigIssues } from './validate.js';
export { renderConfigPath } from './config-path.js';
export { configScopeAt } from './scope.js';
export { createWorkspaceTrust } from './trust.js';
export type { WorkspaceTrustOptions } from './trust.js';
