/**
 * `mewcode/sdk`: the plugin library — the contract (`types/`) and the helpers the built-in plugins
 * use. A built-in plugin imports only `types/`, `config/` and this folder. The `config/` helpers
 * a plugin reading its own files needs (positions, cached parsing, git tracking, the terminal
 * filter, project files) are exported by the `mewcode` entry, not here: this library does not
 * re-export the host's configuration layer (a rule of .dependency-cruiser.cjs).
 */
export { ContainerModule, inject, injectable, multiInject, optional } from 'inversify';
export type { ServiceIdentifier } from 'inversify';
// The whole contract — definePlugin, TOKENS, PermissionStage, ProviderError and every type a
// plugin names (Tool, ToolInput, ToolContext, PermissionRequest, PermissionVerdict, hook payloads…)
// — so a plugin needs no import from the `mewcode` package itself.
export * from '../types/index.js';
export { defineTool, type ToolSpec } from './define-tool.js';
// Subcommands (`mewcode <name> …`): strict flag parsing with MewCode's usage messages.
export { parseSubcommandArgs, trustProjectFlag, usageError, type ParsedSubcommand, type SubcommandFlags } from './subcommand-args.js';
export { lazyTool, type ToolDefinitionPart } from './lazy-tool.js';
export * from './provider-retry.js';
export { vendorLogger, type VendorLogger } from './vendor-logger.js';
export { containPath, expandHome, isWithin, redirectedByLink, resolveReal, resolveRealSync, errorCode, type Containment } from './path-containment.js';
export { analyzeShellCommand, parseShellCommand, loadShellParser, type ParsedCommand, type ShellAnalysis, type ShellSegment } from './shell-command/index.js';
export { cutBytes, cutLine, LINE_CUT_MARKER } from './text-cuts.js';
// Definition files (agents, commands, skills): frontmatter read as leniently as Claude Code reads it.
export { DEFINITION_KEYS, frontmatterReady, parseFrontmatter, readFrontmatter, type Frontmatter, type FrontmatterOptions } from './frontmatter.js';
export { cutUtf16, decodeUtf8Prefix, utf8BoundaryAtOrAfter, utf8BoundaryAtOrBefore } from './text-cuts.js';

// File tools: race-free, contained file access (A15) and the path conventions of the built-in tools.
export * from './file-tool-support/contained-fs.js';
export * from './file-tool-support/tool-scope.js';
export { resolveToolPath, toolPathAbsolute, realPathOf, displayPath, type ToolPath } from './file-tool-support/tool-path.js';
export { canonicalFileFields, filePathOf, FILE_FIELD_ALIASES } from './file-tool-support/file-fields.js';

// Search tools: the gitignore-aware walker, exact (no-follow) opens, path globs, search locations.
export * from './search-common/walker.js';
export * from './search-common/exact-open.js';
export * from './search-common/path-glob.js';
export { IgnoreFile, parseIgnoreText, parseIgnoreLine, anchoredIgnoreLine, type IgnoreRule, type IgnoreVerdict } from './search-common/gitignore.js';
export { searchToolBinding, type SearchToolServices } from './search-common/search-tool-binding.js';
// Patterns a repository, its settings or the model write, matched in linear time (a crafted glob or
// regex must not keep V8 backtracking for hours): plugins matching such patterns use these.
export { LinearRegExp, UnsupportedRegExp, type LinearRegExpOptions } from './linear-regex/index.js';
export { globMatcher, globRegexTest, picomatchBacktrackSafe, type GlobOptions } from './linear-regex/picomatch.js';
export { displayPath as searchDisplayPath, describeLocation, resolveSearchLocation, type SearchLocation, type Resolved } from './search-common/search-path.js';
