/**
 * `mewcode/sdk`: everything a plugin needs, and exactly what the built-in plugins use. A built-in
 * plugin imports only `types/`, `config/` and this folder, so a third-party plugin can do all a
 * built-in one does.
 */
export { ContainerModule, inject, injectable, multiInject, optional } from 'inversify';
export type { ServiceIdentifier } from 'inversify';
// The whole contract — definePlugin, TOKENS, PermissionStage, ProviderError and every type a
// plugin names (Tool, ToolInput, ToolContext, PermissionRequest, PermissionVerdict, hook payloads…)
// — so a plugin needs no import from the `mewcode` package itself.
export * from '../types/index.js';
export { defineTool, type ToolSpec } from './define-tool.js';
export { lazyTool, type ToolDefinitionPart } from './lazy-tool.js';
export * from './provider-retry.js';
export { vendorLogger, type VendorLogger } from './vendor-logger.js';
export { createNodeFetch, sharedNodeFetch, type NodeFetchOptions } from './http/node-fetch.js';
export { FetchResponse } from './http/fetch-response.js';
export { WebHeaders } from './http/web-headers.js';
export { containPath, expandHome, isWithin, redirectedByLink, resolveReal, resolveRealSync, errorCode, type Containment } from './path-containment.js';
export { analyzeShellCommand, parseShellCommand, loadShellParser, type ParsedCommand, type ShellAnalysis, type ShellSegment } from './shell-command/index.js';
export { cutBytes, cutLine, LINE_CUT_MARKER } from './text-cuts.js';
export { cutUtf16, decodeUtf8Prefix, utf8BoundaryAtOrAfter, utf8BoundaryAtOrBefore } from './text-cuts.js';

// File tools: race-free, contained file access (A15) and the path conventions of the built-in tools.
export * from './file-tool-support/contained-fs.js';
export * from './file-tool-support/tool-scope.js';
export { resolveToolPath, toolPathAbsolute, realPathOf, displayPath, type ToolPath } from './file-tool-support/tool-path.js';

// Search tools: the gitignore-aware walker, exact (no-follow) opens, path globs, search locations.
export * from './search-common/walker.js';
export * from './search-common/exact-open.js';
export * from './search-common/path-glob.js';
export { IgnoreFile, parseIgnoreText, parseIgnoreLine, anchoredIgnoreLine, type IgnoreRule, type IgnoreVerdict } from './search-common/gitignore.js';
export { searchToolBinding, type SearchToolServices } from './search-common/search-tool-binding.js';
export { displayPath as searchDisplayPath, describeLocation, resolveSearchLocation, type SearchLocation, type Resolved } from './search-common/search-path.js';

// Configuration helpers a plugin reading its own files needs: positions, cached parsing, git tracking.
export { formatPos, offsetToLineCol, toPlain, type LocatedNode, type LocatedMap, type LocatedSeq, type LocatedScalar, type SourcePos } from '../config/located.js';
export { parseConfigTextCached } from '../config/parse-cache.js';
export { isTrackedByGit, type TrackedAnswer } from '../config/git-tracked.js';
export { terminalSafe, terminalSafeJson, terminalWriter } from '../config/terminal-safe.js';
// Files a project supplies (instructions, definitions, settings): inside it by real path, regular, bounded.
export { readProjectTextFile, projectScriptProblem, projectBoundary, withinRoot, refusalOf, inPackageDirectory, hardLinks, PACKAGE_DIRECTORIES, type ProjectFileOptions, type ProjectFileRead } from '../config/project-file.js';
