/**
 * The mcp plugin (M1–M9): MCP servers' tools as MewCode tools.
 *
 * Start-up: nothing at boot. `start()` reads the server entries (config, `.mcp.json`, trust, and
 * the servers the run adds: CliOptions.mcpServers) and connects every server concurrently; the
 * first model request waits for them at most `mcp.startup_wait_ms` (default 1500) and then goes
 * without the slow ones, whose tools join at a later turn. The MCP SDK is loaded only when a
 * server is configured. Shutdown closes every session within 5 s and leaves no child behind
 * (sdk/process-reaper.ts covers crashes too).
 *
 * Settings (`mcp:`): startup_wait_ms, tool_search (auto | always | never), tool_search_share
 * (of the context window, default 0.1), sampling (deny | allow; honoured only from the user's
 * own files).
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { ConfigIssue, ConfigSection, ResolvedConfig } from '../../types/config.js';
import type { McpServers, McpServerStatus } from '../../types/mcp.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';
import type { McpSettings } from './settings.js';
import { claudeJsonMayHaveServers } from './claude-json-probe.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export type { McpSettings, ToolSearchMode } from './settings.js';

/** Also in server-sources.ts (the runtime); repeated here so boot does not load that module. */
const MCP_JSON = '.mcp.json';

const NAME = 'mcp';

export const DEFAULT_STARTUP_WAIT_MS = 1_500;
export const MAX_STARTUP_WAIT_MS = 60_000;
export const DEFAULT_TOOL_SEARCH_SHARE = 0.1;

const DEFAULTS: McpSettings = { startupWaitMs: DEFAULT_STARTUP_WAIT_MS, toolSearch: 'auto', toolSearchShare: DEFAULT_TOOL_SEARCH_SHARE, sampling: 'deny' };

/** `mcp:` without zod (nothing of it loads at boot). */
export const MCP_SECTION: ConfigSection<McpSettings> = {
  key: NAME,
  parse(raw) {
    if (raw === undefined || raw === null) return { ok: true, value: DEFAULTS };
    if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, issues: [{ path: [], message: 'Expected a mapping' }] };
    const issues: ConfigIssue[] = [];
    const value = { ...DEFAULTS };
    for (const [key, entry] of Object.entries(raw as Record<string, unknown>)) {
      switch (key) {
        case 'startup_wait_ms':
          if (typeof entry === 'number' && Number.isInteger(entry) && entry >= 0 && entry <= MAX_STARTUP_WAIT_MS) value.startupWaitMs = entry;
          else issues.push({ path: [key], message: `Expected a whole number of milliseconds from 0 to ${MAX_STARTUP_WAIT_MS}` });
          break;
        case 'tool_search':
          if (entry === 'auto' || entry === 'always' || entry === 'never') value.toolSearch = entry;
          else if (entry === true || entry === false) value.toolSearch = entry ? 'always' : 'never';
          else issues.push({ path: [key], message: 'Expected auto, always or never' });
          break;
        case 'tool_search_share':
          if (typeof entry === 'number' && entry > 0 && entry <= 1) value.toolSearchShare = entry;
          else issues.push({ path: [key], message: 'Expected a number above 0 and at most 1 (a share of the context window)' });
          break;
        case 'sampling':
          if (entry === 'deny' || entry === 'allow') value.sampling = entry;
          else issues.push({ path: [key], message: 'Expected deny or allow' });
          break;
        default:
          issues.push({ path: [key], message: `Unknown key "${terminalSafe(key)}"` });
      }
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
  },
};

export interface McpPluginOptions {
  /** The environment `${VAR}` reads and stdio servers inherit (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * This kernel's servers: the manager once start() made it (nothing before the runtime is loaded,
 * nor for a run with no server). Never handed out: the manager holds the MCP tools' own objects,
 * whose execute runs a server's tool past the permission chain and the audit log. Other plugins
 * get `contractOf(holder)` under TOKENS.McpServers.
 */
class McpStatusHolder {
  #manager: (McpServers & { closeAll(): Promise<void> }) | undefined;
  /** This kernel is shutting down: a start() still under way must not start servers after it. */
  #closed = false;
  /** Resolved once start() knows whether there are servers (and has made the manager). */
  readonly #started: Promise<void>;
  readonly #markStarted: () => void;
  constructor() {
    let markStarted!: () => void;
    this.#started = new Promise((resolve) => (markStarted = resolve));
    this.#markStarted = markStarted;
  }
  get closed(): boolean {
    return this.#closed;
  }
  markStarted(): void {
    this.#markStarted();
  }
  adopt(manager: McpServers & { closeAll(): Promise<void> }): void {
    this.#manager = manager;
  }
  status(): McpServerStatus[] {
    return this.#manager?.status() ?? [];
  }
  async settled(): Promise<void> {
    await this.#started;
    await this.#manager?.settled();
  }
  async close(): Promise<void> {
    this.#closed = true;
    await this.#manager?.closeAll();
  }
}

/** What TOKENS.McpServers hands out: the status and the first connects, each status a copy. */
function contractOf(holder: McpStatusHolder): McpServers {
  return Object.freeze({
    status: () => holder.status().map((server) => ({ ...server, undefinedVariables: [...server.undefinedVariables] })),
    settled: () => holder.settled(),
  });
}

/** The holder, for this plugin's apply and start only: a symbol of this module's, which no other plugin can name. */
const HOLDER: ServiceIdentifier<McpStatusHolder> = Symbol('mcp/status-holder');

/** Whether anything names a server: the run's own servers, a `mcp_servers:` section, a Claude Code plugin's servers, `~/.claude.json`'s or a `.mcp.json` file. */
async function anythingConfigured(kernel: KernelApi): Promise<boolean> {
  if (kernel.cli?.mcpServers && Object.keys(kernel.cli.mcpServers).length > 0) return true;
  if (kernel.cli?.strictMcpConfig) return false;
  const config = kernel.container.isBound(TOKENS.Config) ? kernel.container.get<ResolvedConfig>(TOKENS.Config) : undefined;
  const servers = config?.section('mcp_servers');
  if (servers !== undefined && servers !== null) return true;
  if (kernel.container.isBound(TOKENS.ClaudePluginBundles) && kernel.container.get(TOKENS.ClaudePluginBundles).list().some((bundle) => bundle.loaded && bundle.mcpServers.some((part) => Object.keys(part.value).length > 0))) return true;
  if ((kernel.cli?.settingSources?.includes('user') ?? true) && claudeJsonMayHaveServers(kernel.homeDir)) return true;
  if (kernel.cli?.settingSources && !kernel.cli.settingSources.includes('project')) return false;
  return access(path.join(kernel.projectRoot, MCP_JSON)).then(
    () => true,
    () => false,
  );
}

export function createMcpPlugin(options: McpPluginOptions = {}): MewcodePlugin {
  // One plugin object may serve several kernels in a process (tests, custom builds): each
  // kernel's servers live in its own status holder and close at that kernel's sessionEnd.
  const env = options.env ?? process.env;
  return definePlugin({
    name: NAME,
    version: '0.1.0',
    config: MCP_SECTION,
    subcommands: [
      {
        name: 'mcp',
        usage: 'mcp list [--trust-project]',
        summary: 'connect to every configured MCP server and list each: state, transport, tool count, unset variables, last error, log file',
        run: async (context) => (await import('./mcp-subcommand.js')).runMcpCommand(context),
      },
    ],
    // A server the configuration names but that cannot be used (a bad key) or may not start yet
    // (an untrusted project's) is said in doctor too, not only in a run's warnings.
    doctorChecks: [
      {
        name: 'mcp',
        run: (context) => {
          const kernel = context.kernel;
          if (!kernel?.container.isBound(TOKENS.McpServers)) return [];
          return kernel.container
            .get<McpServers>(TOKENS.McpServers)
            .status()
            .filter((server) => server.state === 'skipped' || server.state === 'untrusted')
            .map((server) => ({ status: 'warn' as const, check: 'mcp', message: `server "${server.name}" (${server.source}) is ${server.state === 'skipped' ? 'not used' : 'not started'}: ${server.lastError ?? server.state}` }));
        },
      },
    ],
    bindings: new ContainerModule(({ bind }) => {
      const holder = new McpStatusHolder();
      bind(HOLDER).toConstantValue(holder);
      bind(TOKENS.McpServers).toConstantValue(contractOf(holder));
    }),
    apply(kernel) {
      const holder = kernel.container.get(HOLDER);
      // M9: shutdown closes every session within 5 s (sessionEnd comes before any dispose).
      kernel.hooks.sessionEnd.tapPromise(NAME, () => holder.close());
    },
    // start() bounds its own wait by mcp.startup_wait_ms; this only keeps the kernel from warning first.
    startTimeoutMs: MAX_STARTUP_WAIT_MS + 1_000,
    async start(kernel) {
      const holder = kernel.container.get(HOLDER);
      try {
        await startServers(kernel, holder);
      } finally {
        holder.markStarted();
      }
    },
  });

  async function startServers(kernel: KernelApi, holder: McpStatusHolder): Promise<void> {
    // The wait counts from here, not from when the servers were read: the first request is
    // delayed by at most startup_wait_ms in all.
    const settings = kernel.config<McpSettings>(NAME) ?? DEFAULTS;
    const deadline = monotonicMs() + settings.startupWaitMs;
    if (!(await anythingConfigured(kernel))) return;
    const { startMcp } = await import('./runtime.js');
    if (holder.closed) return;
    const { manager, connects } = await startMcp(kernel, env, settings);
    holder.adopt(manager);
    holder.markStarted();
    if (holder.closed) {
      await manager.closeAll(); // shut down while the entries were being read
      return;
    }
    if (manager.size === 0) return;
    // Not unref'd: the servers' processes are, and a wait on them alone would let the event loop
    // empty before the run (or `mewcode doctor`) had done anything.
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      connects.then(() => 'all' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - monotonicMs()));
      }),
    ]);
    clearTimeout(timer);
    if (waited === 'timeout') {
      const slow = manager.status().filter((server) => server.state === 'connecting').map((server) => server.name);
      if (slow.length > 0) kernel.notify('notice', `mcp: still connecting to ${slow.join(', ')} after ${settings.startupWaitMs} ms; going on, their tools join when they are ready`);
    }
  }
}

export default createMcpPlugin();
