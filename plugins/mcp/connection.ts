/**
 * One MCP server: connect (initialize + tools/list) under its own timeout, keep its tool list
 * current (`notifications/tools/list_changed`), call tools, notice a crash and reconnect on the
 * next use with backoff (M5, M7, M8), close (M9).
 *
 * A connect that runs out of time is abandoned whole: the child is killed and the client closed,
 * so no half-open session stays behind. A failure of one server touches no other.
 */
import path from 'node:path';
import { terminalSafe } from '../../config/terminal-safe.js';
import type { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { sharedNodeFetch } from '../../sdk/http/node-fetch.js';
import type { ClientHandlers } from './client-handlers.js';
import type { ServerLog } from './server-log.js';
import type { ServerConfig } from './server-config.js';
import { loadMcpSdk, type McpSdk } from './sdk-loader.js';
import { serverEnvironment } from './server-env.js';
import { absolutePathEntries } from '../../types/host-path.js';
import { GroupStdioTransport } from './stdio-transport.js';
import type { StoredOAuthProvider } from './oauth.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';

export type ServerState = 'connecting' | 'connected' | 'failed' | 'disabled' | 'untrusted' | 'skipped' | 'closed';
export type TransportKind = 'stdio' | 'http' | 'sse';

export interface ConnectionDeps {
  projectRoot: string;
  homeDir: string;
  clientVersion: string;
  log: ServerLog;
  handlers: ClientHandlers;
  sandbox(): CommandSandbox | undefined;
  /**
   * The managed file (`file:line:col`) that forces the OS sandbox on, if any: then every stdio
   * server runs inside it as with `sandbox: true` (the organisation's boundary covers the
   * servers' code as it covers bash), and one that cannot is not started.
   */
  sandboxForcedBy?(): string | undefined;
  /** The server's tool list changed (connected, re-listed, or gone with a crash). */
  toolsChanged(connection: McpConnection): void;
  env: NodeJS.ProcessEnv;
  /** The OAuth client for a remote server's URL (tokens stored per URL). */
  oauth(url: string): StoredOAuthProvider;
  /** Tell the user something now (the authorisation URL). */
  notify(message: string): void;
  /** Whether the project is trusted (a server's default working directory depends on it). */
  projectTrusted(): boolean;
  /**
   * The first file of project code a server's command would run that changed during this session
   * (config/trust-code.ts `commandCodeChangedSince`), or undefined. A server the host runs in a
   * trusted project runs the project as it was trusted: one whose code a sandboxed command may
   * have rewritten since (a lazy import, a launcher slower than the first command) is not called.
   */
  codeChangedSince?(entry: { command: string; args: readonly string[]; env?: Record<string, string>; cwd?: string }): string | undefined;
}

/** Connect rounds of a remote server: OAuth (401, redirect, code) and the SSE fallback each take one. */
const MAX_REMOTE_ROUNDS = 5;

/** Reconnect backoff after a crash or failed connect: 1 s, doubling, at most 30 s. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
/** tools/list pages followed at most (a server that pages forever must not hang the connect). */
export const MAX_TOOL_PAGES = 50;

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?(progress: { progress: number; total?: number; message?: string }): void;
}

export class McpConnection {
  state: ServerState = 'connecting';
  lastError: string | undefined;
  tools: McpTool[] = [];
  transportKind: TransportKind;
  /** When the last connect started and how many failed in a row (for the backoff). */
  private attempts = 0;
  private nextAttemptAt = 0;
  private client: SdkClient | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<void> | undefined;
  private closing = false;
  /** The user is authorising this server in the browser (OAuth). */
  private authorizing = false;
  /** Bumped by each connect attempt and when one is abandoned (see open()). */
  private generation = 0;
  private deadlineAt = 0;

  constructor(
    readonly config: ServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.transportKind = config.type;
  }

  get name(): string {
    return this.config.name;
  }

  /** Connect unless already connected or connecting; resolves when it settled (never rejects). */
  connect(): Promise<void> {
    if (this.state === 'connected' || this.closing) return Promise.resolve();
    this.connecting ??= this.attempt().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async attempt(): Promise<void> {
    this.state = 'connecting';
    const started = monotonicMs();
    const timeoutMs = this.config.connectTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let abandoned = false;
    const generation = ++this.generation;
    const work = this.open(generation);
    this.deadlineAt = Date.now() + timeoutMs;
    const expired = new Promise<'timeout'>((resolve) => {
      // Re-armed while the user is authorising in the browser, and after it for a full timeout.
      const arm = (ms: number): void => {
        timer = setTimeout(() => {
          const left = this.deadlineAt - Date.now();
          if (this.authorizing || left > 0) arm(this.authorizing ? 1000 : left);
          else resolve('timeout');
        }, ms);
        timer.unref();
      };
      arm(timeoutMs);
    });
    try {
      const outcome = await Promise.race([work.then(() => 'ok' as const), expired]);
      if (outcome === 'timeout') {
        abandoned = true;
        this.generation++; // the attempt still running must not install anything now
        throw new Error(`did not answer initialize and tools/list within ${timeoutMs} ms (connect_timeout_ms); the connection was abandoned`);
      }
      this.attempts = 0;
      this.state = 'connected';
      this.lastError = undefined;
      this.deps.log.write(`connected in ${Math.round(monotonicMs() - started)} ms over ${this.transportKind}, ${this.tools.length} tools`);
      this.deps.toolsChanged(this);
    } catch (error) {
      await this.drop();
      if (abandoned) work.catch(() => undefined);
      this.failWith(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private failWith(error: unknown): void {
    if (this.closing) return;
    this.attempts++;
    this.nextAttemptAt = Date.now() + Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** (this.attempts - 1));
    const tail = this.deps.log.recentStderr();
    this.lastError = `${describeError(error)}${tail ? ` (stderr: ${tail})` : ''}`;
    this.state = 'failed';
    this.deps.log.write(`failed: ${this.lastError}`);
    // The tools of a server that crashed stay offered (K3): their next call reconnects it.
  }

  /**
   * One connect. After every wait it checks that it is still the current attempt (a timeout or
   * close() may have abandoned it): an abandoned attempt kills what it started and installs
   * nothing, so it can never overwrite a newer attempt's client.
   */
  private async open(generation: number): Promise<void> {
    const config = this.config;
    const abandoned = (): boolean => this.closing || generation !== this.generation;
    const giveUp = (): never => {
      throw new Error('the connection attempt was abandoned');
    };
    if (config.type === 'stdio') {
      // Spawned before the SDK is loaded: the server's own start-up overlaps with the load, which
      // compiles synchronously; waiting for the spawn first lets every other server spawn too.
      const transport = await this.stdioTransport();
      if (abandoned()) giveUp();
      this.transport = transport;
      await transport.spawn();
      if (abandoned()) {
        transport.kill();
        giveUp();
      }
      this.deps.log.write(`started pid ${transport.pid}: ${[config.command, ...config.args].join(' ')}`);
      const sdk = await loadMcpSdk();
      if (abandoned()) {
        transport.kill();
        giveUp();
      }
      transport.attach(sdk);
      const client = this.deps.handlers.createClient(sdk, this);
      this.client = client;
      await client.connect(transport);
      if (abandoned()) {
        transport.kill();
        giveUp();
      }
      // A launcher slower than the session's first command (uv sync, a download) read the code
      // after it may have changed.
      const stopped = await this.changedCode();
      if (stopped) {
        transport.kill();
        throw new Error(stopped);
      }
      this.watch(sdk, client);
    } else {
      const sdk = await loadMcpSdk();
      if (abandoned()) giveUp();
      const client = this.deps.handlers.createClient(sdk, this);
      this.client = client;
      await this.connectRemote(sdk, client);
      if (abandoned()) {
        await client.close().catch(() => undefined);
        giveUp();
      }
      this.watch(sdk, client);
    }
    const tools = await this.listTools(this.client!);
    if (abandoned()) giveUp();
    this.tools = tools;
  }

  /** Crash detection, tool list changes and the server's log messages. */
  private watch(sdk: McpSdk, client: SdkClient): void {
    client.onclose = () => this.lost('the connection closed');
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      void this.relist();
    });
    client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      this.deps.log.write(`[${level}]${logger ? ` ${logger}:` : ''} ${typeof data === 'string' ? data : JSON.stringify(data)}`);
    });
  }

  private async stdioTransport(): Promise<GroupStdioTransport> {
    const config = this.config;
    if (config.type !== 'stdio') throw new Error('not a stdio server');
    const trusted = this.deps.projectTrusted();
    // In an untrusted project the user's own servers start in the home directory: `npx` or `uvx`
    // would otherwise read the repository's .npmrc, node_modules or pyproject.toml.
    const base = trusted ? this.deps.projectRoot : this.deps.homeDir;
    const cwd = config.cwd ? path.resolve(base, config.cwd) : base;
    // Untrusted, `npx` or `uvx` is not looked up in the project either (direnv's PATH_add
    // node_modules/.bin, or one a sandboxed command wrote there before a restart).
    const env = serverEnvironment(trusted ? this.deps.env : { ...this.deps.env, PATH: absolutePathEntries(this.deps.env.PATH, [this.deps.projectRoot, process.cwd()]) }, config.env);
    const argv = [config.command, ...config.args];
    let file = config.command;
    let args: readonly string[] = config.args;
    let release: (() => Promise<void>) | undefined;
    let stop: AbortSignal | undefined;
    const forcedBy = this.deps.sandboxForcedBy?.();
    if (config.sandbox || forcedBy) {
      const why = config.sandbox ? 'sandbox: true' : `managed settings force the OS sandbox on (${forcedBy}) for every stdio server`;
      const sandbox = this.deps.sandbox();
      if (!sandbox) throw new Error(`${why}, but this build has no command sandbox; not started`);
      const wrapped = await sandbox.wrap({ argv, cwd, projectRoot: this.deps.projectRoot, homeDir: this.deps.homeDir, longLived: true });
      if (wrapped.kind === 'refused') throw new Error(`${why}, but the sandbox refused it: ${wrapped.message}`);
      if (wrapped.kind === 'unsandboxed') throw new Error(`${why}, but no OS sandbox can run here (${wrapped.status.reason ?? wrapped.status.mechanism}); not started without one`);
      file = wrapped.launch.file;
      args = wrapped.launch.args;
      Object.assign(env, wrapped.launch.env ?? {});
      release = () => wrapped.launch.release();
      stop = wrapped.launch.stop;
    }
    const stderrFd = await this.deps.log.stderrFd();
    return new GroupStdioTransport({ file, args, cwd, env, stderrFd, ...(release ? { release } : {}), ...(stop ? { stop } : {}) });
  }

  /**
   * Streamable HTTP; a 4xx answer to it (an old server) → legacy SSE on the same URL. A 401 starts
   * OAuth (oauth.ts): the user is shown the authorisation URL, the connect waits for the browser
   * to come back (outside the connect timeout), and the tokens are kept for the next run.
   */
  private async connectRemote(sdk: McpSdk, client: SdkClient): Promise<void> {
    const config = this.config;
    if (config.type === 'stdio') throw new Error('not a remote server');
    const url = new URL(config.url);
    const requestInit = { headers: { ...config.headers } };
    const fetch = sharedNodeFetch() as unknown as typeof globalThis.fetch;
    // A configured Authorization header is the user's own scheme: no OAuth on top of it.
    const configuredAuth = Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
    const oauth = configuredAuth ? undefined : this.deps.oauth(config.url);
    const make = (kind: 'http' | 'sse', authProvider: StoredOAuthProvider | undefined): Transport & { finishAuth(code: string): Promise<void> } =>
      kind === 'http'
        ? new sdk.StreamableHTTPClientTransport(url, { requestInit, fetch, ...(authProvider ? { authProvider } : {}) })
        : new sdk.SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch } as never, ...(authProvider ? { authProvider } : {}) });
    let kind: 'http' | 'sse' = config.type;
    let auth = oauth?.hasTokens() ? oauth : undefined;
    for (let round = 0; round < MAX_REMOTE_ROUNDS; round++) {
      const transport = make(kind, auth);
      this.transport = transport;
      try {
        await client.connect(transport);
        this.transportKind = kind;
        return;
      } catch (error) {
        await transport.close().catch(() => undefined);
        const status = httpStatusOf(error);
        if (error instanceof sdk.UnauthorizedError || status === 401) {
          if (!oauth) throw new Error(`the server answered 401 to the configured Authorization header: ${describeError(error)}`);
          if (!auth) {
            // The first 401: from now on with OAuth (a callback port is needed before registering).
            auth = oauth;
            await oauth.preparePort();
            continue;
          }
          const pending = oauth.takePending();
          if (!pending) throw error;
          const code = await this.waitForUser(pending.url, pending.code);
          await transport.finishAuth(code);
          continue;
        }
        if (kind === 'http' && status !== undefined && status >= 400 && status < 500 && status !== 403) {
          this.deps.log.write(`Streamable HTTP answered ${status}; trying legacy SSE`);
          kind = 'sse';
          continue;
        }
        throw error;
      }
    }
    throw new Error('could not connect: the authorisation did not complete');
  }

  /** The user authorises in the browser; the connect timeout does not run meanwhile. */
  private async waitForUser(url: URL, code: Promise<string>): Promise<string> {
    this.authorizing = true;
    this.lastError = `waiting for authorisation: open ${url.href}`;
    this.deps.log.write(`authorisation needed: ${url.href}`);
    this.deps.notify(`MCP server "${this.name}" needs authorisation. Open this URL in a browser:\n  ${url.href}`);
    try {
      return await code;
    } finally {
      this.authorizing = false;
      this.lastError = undefined;
      this.deadlineAt = Date.now() + this.config.connectTimeoutMs;
    }
  }

  private async listTools(client: SdkClient): Promise<McpTool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) return tools;
    }
    this.deps.log.write(`tools/list returned more than ${MAX_TOOL_PAGES} pages; the rest are not used`);
    return tools;
  }

  private async relist(): Promise<void> {
    const client = this.client;
    if (!client || this.state !== 'connected') return;
    try {
      this.tools = await this.listTools(client);
      this.deps.log.write(`tools changed: ${this.tools.length} tools`);
      this.deps.toolsChanged(this);
    } catch (error) {
      this.deps.log.write(`re-listing tools after tools/list_changed failed: ${describeError(error)}`);
    }
  }

  /** The transport went away while connected (a crash): failed, and reconnected on next use. */
  private lost(why: string): void {
    if (this.closing || this.state !== 'connected') return;
    this.client = undefined;
    this.transport = undefined;
    this.failWith(new Error(`the server went away: ${why}`));
    // A crash is not the server's choice of backoff: the first reconnect may happen at once.
    if (this.attempts === 1) this.nextAttemptAt = 0;
  }

  /** Reconnect if the server failed or crashed and the backoff allows; else the reason it cannot be used. */
  async ready(): Promise<SdkClient | string> {
    if (this.state === 'connecting' && this.connecting) await this.connecting;
    if (this.state === 'failed' && !this.closing) {
      const wait = this.nextAttemptAt - Date.now();
      if (wait > 0) return `MCP server "${this.name}" is not connected (last error: ${this.lastError}); the next reconnect attempt is allowed in ${Math.ceil(wait / 1000)} s`;
      await this.connect();
    }
    if (this.state !== 'connected' || !this.client) return `MCP server "${this.name}" is not connected${this.lastError ? ` (${this.lastError})` : ''}`;
    return this.client;
  }

  /** Why this server must not run now: it runs on the host in a trusted project and its project code changed this session. */
  private async changedCode(): Promise<string | undefined> {
    const config = this.config;
    if (config.type !== 'stdio' || config.sandbox || this.deps.sandboxForcedBy?.() || !this.deps.projectTrusted()) return undefined;
    const changed = this.deps.codeChangedSince?.({ command: config.command, args: config.args, ...(config.env ? { env: config.env } : {}), ...(config.cwd ? { cwd: config.cwd } : {}) });
    if (changed === undefined) return undefined;
    const why = `its code in the project changed during this session (${changed}), which commands in the OS sandbox may have written; it is not run again on your machine in this session`;
    if (this.state !== 'failed' || this.lastError !== why) {
      await this.drop();
      this.lastError = why;
      this.state = 'failed';
      this.nextAttemptAt = Number.POSITIVE_INFINITY;
      this.deps.log.write(`stopped: ${why}`);
      this.deps.notify(`MCP server "${this.name}": ${why}`);
    }
    return `MCP server "${this.name}" was stopped: ${why}`;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const call = async (): Promise<unknown> => {
      const stopped = await this.changedCode();
      if (stopped) throw new Error(stopped);
      const client = await this.ready();
      if (typeof client === 'string') throw new Error(client);
      const sdk = await loadMcpSdk();
      return client.callTool({ name: tool, arguments: args }, sdk.CallToolResultSchema, {
        signal: options.signal,
        timeout: options.timeoutMs,
        ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: false } : {}),
      });
    };
    try {
      return await call();
    } catch (error) {
      const gone = this.remoteGone(error);
      if (gone === undefined) throw error;
      // The server forgot this session (restarted, expired) or cannot be reached: a new session
      // on the next use. A forgotten session never ran the call, so that one is tried again now.
      await this.drop(); // the old session's client and streams go (they would only hold sockets)
      this.lost(gone.why);
      if (!gone.retry || options.signal.aborted) throw error;
      return call();
    }
  }

  /** A remote server that no longer knows our session (404, or a 400 naming the session), or is unreachable. */
  private remoteGone(error: unknown): { why: string; retry: boolean } | undefined {
    if (this.config.type === 'stdio' || this.state !== 'connected') return undefined;
    const status = httpStatusOf(error);
    const message = (error as Error)?.message ?? '';
    if (status === 404 || (status === 400 && /session/i.test(message))) return { why: `the server no longer knows the session (${status})`, retry: true };
    if (/ECONNREFUSED|ECONNRESET|fetch failed|socket hang up/i.test(`${message} ${String((error as { cause?: unknown })?.cause ?? '')}`)) return { why: 'the server cannot be reached', retry: false };
    return undefined;
  }

  private async drop(): Promise<void> {
    const transport = this.transport;
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    if (transport instanceof GroupStdioTransport) transport.kill();
    if (client) client.onclose = undefined;
    await Promise.allSettled([client?.close(), transport?.close()]);
  }

  /** M9: close the session (stdio: stdin, SIGTERM, SIGKILL to the group). */
  async close(): Promise<void> {
    this.closing = true;
    const transport = this.transport;
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    if (client) client.onclose = undefined;
    if (transport instanceof GroupStdioTransport) await transport.close().catch(() => undefined);
    await client?.close().catch(() => undefined);
    await this.connecting?.catch(() => undefined);
    await this.drop();
    this.state = 'closed';
    this.deps.log.close();
  }

  /** A request the server made of MewCode, and what became of it, for the server's log. */
  noteRequest(line: string): void {
    this.deps.log.write(line);
  }

  /** Last resort at a deadline: kill without waiting. */
  kill(): void {
    if (this.transport instanceof GroupStdioTransport) this.transport.kill();
  }

  get pid(): number | undefined {
    return this.transport instanceof GroupStdioTransport ? this.transport.pid : undefined;
  }
}

function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  const match = /\b(4\d\d|5\d\d)\b/.exec((error as Error)?.message ?? '');
  return match ? Number(match[1]) : undefined;
}

/** One line without control characters: it may quote a server's (or its HTTP body's) bytes. */
export function describeError(error: unknown): string {
  return terminalSafe(describeRaw(error));
}

function describeRaw(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code;
  let message = error.message;
  if (code === 'ENOENT' && (error as NodeJS.ErrnoException).syscall?.startsWith('spawn')) message = `command not found: ${(error as NodeJS.ErrnoException).path ?? message}`;
  if (cause instanceof Error && !message.includes(cause.message)) message += `: ${cause.message}`;
  return message;
}
