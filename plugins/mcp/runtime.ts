/**
 * The part of the mcp plugin a run loads only when a server is configured (index.ts stays small
 * at boot): the manager, its connections and the SDK behind them.
 */
import type { ServiceIdentifier } from 'inversify';
import { configScopeAt } from '../../config/scope.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { ManagedPolicy } from '../../types/managed.js';
import type { OutputLimits } from '../../types/output-limits.js';
import type { KernelApi } from '../../types/plugin.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import type { PermissionSettings, ProviderRegistry, ToolRegistry } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { ClientHandlers } from './client-handlers.js';
import { McpManager } from './manager.js';
import { loadServerSources } from './server-sources.js';
import type { McpSettings } from './settings.js';
import { commandCodeChangedSince } from '../../config/trust-code.js';

const NAME = 'mcp';

function optional<T>(kernel: KernelApi, token: ServiceIdentifier<T>): T | undefined {
  return kernel.container.isBound(token) ? kernel.container.get<T>(token) : undefined;
}

/** `mcp.sampling: allow` counts only from the user's own files (a repository cannot spend the user's tokens). */
function samplingAllowed(kernel: KernelApi, settings: McpSettings): boolean {
  if (settings.sampling !== 'allow') return false;
  const config = optional<ResolvedConfig>(kernel, TOKENS.Config);
  const scope = config ? configScopeAt(config, [NAME, 'sampling']) : undefined;
  if (scope === 'user' || scope === 'local') return true;
  kernel.warn(`${NAME}: ${config?.locate([NAME, 'sampling']) ?? 'mcp.sampling'}: sampling: allow is ignored outside your own configuration (~/.mewcode/config.yaml)`);
  return false;
}

function createManager(kernel: KernelApi, env: NodeJS.ProcessEnv, settings: McpSettings): McpManager {
  // Project code changed after this moment was not what the user trusted (connection.ts changedCode).
  const sessionStartedAt = Date.now();
  const providers = (): ProviderRegistry | undefined => optional<ProviderRegistry>(kernel, TOKENS.ProviderRegistry);
  const handlers = new ClientHandlers({
    version: kernel.version,
    roots: () => [kernel.projectRoot, ...(optional<PermissionSettings>(kernel, TOKENS.PermissionSettings)?.additionalDirectories() ?? [])],
    samplingAllowed: samplingAllowed(kernel, settings),
    provider: () => providers()?.active(),
    send: (request, provider, signal) => kernel.sendModelRequest(request, { reason: 'sampling', provider, signal }),
    canElicit: () => false,
  });
  return new McpManager({
    projectRoot: kernel.projectRoot,
    homeDir: kernel.homeDir,
    clientVersion: kernel.version,
    env,
    registry: kernel.container.get<ToolRegistry>(TOKENS.ToolRegistry),
    handlers,
    sandbox: () => optional<CommandSandbox>(kernel, TOKENS.CommandSandbox),
    sandboxForcedBy: () => optional<ManagedPolicy>(kernel, TOKENS.ManagedPolicy)?.sandbox.forceEnabled?.where,
    limits: () => optional<OutputLimits>(kernel, TOKENS.OutputLimits),
    contextWindow: () => providers()?.active().contextWindow ?? 200_000,
    toolSearch: settings.toolSearch,
    toolSearchShare: settings.toolSearchShare,
    warn: (message) => kernel.warn(message),
    notify: (message) => kernel.notify('notice', message),
    projectTrusted: () => optional<WorkspaceTrust>(kernel, TOKENS.WorkspaceTrust)?.isTrusted() === true,
    codeChangedSince: (entry) => commandCodeChangedSince(entry, kernel.projectRoot, sessionStartedAt, kernel.homeDir),
  });
}

/** Read the entries, create the manager, start every connect; resolves with the manager and its connects. */
export async function startMcp(kernel: KernelApi, env: NodeJS.ProcessEnv, settings: McpSettings): Promise<{ manager: McpManager; connects: Promise<void> }> {
  const manager = createManager(kernel, env, settings);
  const sources = await loadServerSources({
    config: optional<ResolvedConfig>(kernel, TOKENS.Config),
    trust: optional<WorkspaceTrust>(kernel, TOKENS.WorkspaceTrust),
    projectRoot: kernel.projectRoot,
    homeDir: kernel.homeDir,
    env,
    warn: (message) => kernel.warn(message),
    ...(kernel.container.isBound(TOKENS.ManagedPolicy) ? { managed: kernel.container.get(TOKENS.ManagedPolicy) } : {}),
    projectFiles: kernel.cli?.settingSources?.includes('project') ?? true,
    ...(kernel.cli?.mcpServers ? { added: { servers: kernel.cli.mcpServers, ...(kernel.cli.mcpServerOrigins ? { origins: kernel.cli.mcpServerOrigins } : {}) } } : {}),
    ...(kernel.container.isBound(TOKENS.ClaudePluginBundles) ? { plugins: kernel.container.get(TOKENS.ClaudePluginBundles).list() } : {}),
  });
  manager.configure(sources);
  return { manager, connects: manager.connectAll() };
}
