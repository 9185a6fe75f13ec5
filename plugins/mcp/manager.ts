/**
 * All configured MCP servers of one kernel: connects them concurrently, keeps the tool registry
 * in step with what each offers (sorted by full name, K3: the list changes only when a server's
 * tools do), decides between sending every MCP tool and the search tool (context budget), and
 * closes everything within a deadline (M9).
 */
import path from 'node:path';
import type { McpServers, McpServerStatus } from '../../types/mcp.js';
import type { ToolRegistry } from '../../types/services.js';
import type { Tool } from '../../types/tools.js';
import { toolDefinition } from '../../types/tools.js';
import type { ClientHandlers } from './client-handlers.js';
import { McpConnection, type ConnectionDeps } from './connection.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import type { OutputLimits } from '../../types/output-limits.js';
import { ServerLog, logDirectory } from './server-log.js';
import { oauthStorePath, StoredOAuthProvider } from './oauth.js';
import type { ServerSources } from './server-sources.js';
import { adaptTools } from './tool-adapter.js';
import type { ToolSearchMode } from './settings.js';
import { createToolSearchTool, estimateDefinitionTokens, TOOL_SEARCH_NAME } from './tool-search.js';

/** M9: shutdown closes every session within this. */
export const SHUTDOWN_DEADLINE_MS = 5_000;


export interface ManagerDeps {
  projectRoot: string;
  homeDir: string;
  clientVersion: string;
  env: NodeJS.ProcessEnv;
  registry: ToolRegistry;
  handlers: ClientHandlers;
  sandbox(): CommandSandbox | undefined;
  /** The managed file that forces the OS sandbox on (every stdio server then runs in it). */
  sandboxForcedBy?(): string | undefined;
  limits(): OutputLimits | undefined;
  /** The active provider's context window, for the budget. */
  contextWindow(): number;
  toolSearch: ToolSearchMode;
  /** Share of the context window the MCP definitions may take before search takes over. */
  toolSearchShare: number;
  warn(message: string): void;
  notify(message: string): void;
  projectTrusted(): boolean;
  codeChangedSince?: ConnectionDeps['codeChangedSince'];
}

/**
 * Its state is `#private`: the registered tools are the MCP adapters themselves, whose execute
 * runs a server's tool with no permission check; only the kernel's runner reaches them, through
 * the registry's sealed facades.
 */
export class McpManager implements McpServers {
  readonly #connections: McpConnection[] = [];
  readonly #notStarted: McpServerStatus[] = [];
  /** What this manager put in the registry, by name, with its definition's JSON. */
  readonly #registered = new Map<string, { tool: Tool; key: string }>();
  /** Tools the search tool made callable (search mode only). */
  readonly #loaded = new Set<string>();
  readonly #logPaths = new Map<string, string>();
  #firstConnects: Promise<void> = Promise.resolve();
  #closed = false;

  readonly #deps: ManagerDeps;

  constructor(deps: ManagerDeps) {
    this.#deps = deps;
  }

  /** Create a connection per enabled, trusted server; list the others in the status. */
  configure(sources: ServerSources): void {
    const logs = logDirectory(this.#deps.homeDir, this.#deps.projectRoot);
    for (const server of sources.servers) {
      if (!server.enabled) {
        this.#notStarted.push({ name: server.name, state: 'disabled', transport: server.type, source: server.where, toolCount: 0, undefinedVariables: server.undefinedVariables });
        continue;
      }
      const log = new ServerLog(path.join(logs, `${server.name}.log`));
      this.#connections.push(
        new McpConnection(server, {
          projectRoot: this.#deps.projectRoot,
          homeDir: this.#deps.homeDir,
          clientVersion: this.#deps.clientVersion,
          log,
          handlers: this.#deps.handlers,
          sandbox: this.#deps.sandbox,
          ...(this.#deps.sandboxForcedBy ? { sandboxForcedBy: this.#deps.sandboxForcedBy } : {}),
          env: this.#deps.env,
          toolsChanged: () => this.#sync(),
          oauth: (url) => new StoredOAuthProvider(oauthStorePath(this.#deps.homeDir), url),
          notify: (message) => this.#deps.notify(message),
          projectTrusted: this.#deps.projectTrusted,
          ...(this.#deps.codeChangedSince ? { codeChangedSince: this.#deps.codeChangedSince } : {}),
        }),
      );
      this.#logPaths.set(server.name, log.file);
    }
    for (const server of sources.untrusted) {
      this.#notStarted.push({
        name: server.name,
        state: 'untrusted',
        transport: 'unknown',
        source: server.where,
        toolCount: 0,
        undefinedVariables: [],
        lastError: 'a project server: trust the project to start it (the start-up dialog, or --trust-project)',
      });
    }
    for (const server of sources.skipped ?? []) {
      this.#notStarted.push({ name: server.name, state: 'skipped', transport: 'unknown', source: server.where, toolCount: 0, undefinedVariables: [], lastError: server.reason });
    }
  }

  get size(): number {
    return this.#connections.length;
  }

  /** Start every connect at once; one failing server delays or breaks no other (M5). */
  connectAll(): Promise<void> {
    this.#firstConnects = Promise.all(
      this.#connections.map((connection) =>
        connection.connect().then(() => {
          if (connection.state === 'failed') this.#deps.warn(`mcp: server "${connection.name}" failed to connect: ${connection.lastError}`);
        }),
      ),
    ).then(() => undefined);
    return this.#firstConnects;
  }

  settled(): Promise<void> {
    return this.#firstConnects;
  }

  status(): McpServerStatus[] {
    const live = this.#connections.map((connection): McpServerStatus => {
      const status: McpServerStatus = {
        name: connection.name,
        state: connection.state,
        transport: connection.transportKind,
        source: connection.config.where,
        toolCount: connection.tools.length,
        undefinedVariables: connection.config.undefinedVariables,
      };
      if (connection.lastError) status.lastError = connection.lastError;
      const log = this.#logPaths.get(connection.name);
      if (log) status.logPath = log;
      if (connection.pid !== undefined && connection.state === 'connected') status.pid = connection.pid;
      return status;
    });
    return [...live, ...this.#notStarted].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every MCP tool of every connected server, by full name; a duplicate full name keeps the first. */
  #allTools(): Tool[] {
    const byName = new Map<string, Tool>();
    for (const connection of this.#connections) {
      // A crashed server keeps its last tools (its next call reconnects it); a closed one has none.
      if (connection.state === 'closed' || connection.tools.length === 0) continue;
      for (const tool of adaptTools(connection, { limits: this.#deps.limits, warn: (m) => this.#deps.warn(m) })) {
        if (byName.has(tool.name)) this.#deps.warn(`mcp: two servers offer a tool named ${tool.name}; the one of server "${byName.get(tool.name)!.hints?.mcp?.server}" is used`);
        else byName.set(tool.name, tool);
      }
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  #searchMode(tools: readonly Tool[]): boolean {
    if (this.#deps.toolSearch === 'never' || tools.length === 0) return false;
    if (this.#deps.toolSearch === 'always') return true;
    return estimateDefinitionTokens(tools) > this.#deps.contextWindow() * this.#deps.toolSearchShare;
  }

  /** Bring the registry in line with the servers' tools; unchanged tools keep their objects (K3). */
  #sync(): void {
    if (this.#closed) return;
    const all = this.#allTools();
    const desired = new Map<string, Tool>();
    if (this.#searchMode(all)) {
      const deferred = all.filter((tool) => !this.#loaded.has(tool.name));
      for (const tool of all) if (this.#loaded.has(tool.name)) desired.set(tool.name, tool);
      if (deferred.length > 0) {
        desired.set(
          TOOL_SEARCH_NAME,
          createToolSearchTool(
            {
              deferred: () => this.#allTools().filter((tool) => !this.#loaded.has(tool.name)),
              load: (names) => {
                for (const name of names) this.#loaded.add(name);
                this.#sync();
              },
            },
            deferred.map((tool) => tool.name),
          ),
        );
      }
    } else {
      for (const tool of all) desired.set(tool.name, tool);
    }
    for (const [name] of this.#registered) {
      if (!desired.has(name)) {
        this.#deps.registry.unregister(name);
        this.#registered.delete(name);
      }
    }
    for (const [name, tool] of desired) {
      const key = JSON.stringify([toolDefinition(tool), tool.readOnly, tool.hints]);
      const current = this.#registered.get(name);
      if (current?.key === key) continue;
      this.#deps.registry.register(tool);
      this.#registered.set(name, { tool, key });
    }
  }

  /** M9: close all concurrently; whatever is still open at the deadline is killed. */
  async closeAll(deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const [name] of this.#registered) this.#deps.registry.unregister(name);
    this.#registered.clear();
    // The deadline keeps the process alive (it is not unref'd): the servers' processes and pipes
    // are unref'd so that a run never waits for them, and a close waiting on them alone would
    // otherwise let the event loop empty with this promise unsettled (the caller's output lost).
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deadlineMs);
    });
    await Promise.race([Promise.allSettled(this.#connections.map((connection) => connection.close())), deadline]);
    clearTimeout(timer);
    for (const connection of this.#connections) connection.kill();
  }
}
