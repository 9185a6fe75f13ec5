/**
 * OAuth for remote MCP servers that answer 401 with OAuth metadata, using the
 * SDK's client flow (discovery, dynamic client registration, PKCE, refresh): this file is the
 * `OAuthClientProvider` it asks for, plus the local callback.
 *
 * - The authorisation URL is shown to the user (a notice, by the connection); the browser comes back to
 *   `http://127.0.0.1:<port>/callback`, a one-request listener bound to loopback only, which
 *   checks the `state` it sent and hands the code to the transport (`finishAuth`).
 * - Client registration, tokens, the PKCE verifier and the callback port are stored per server
 *   URL in `~/.mewcode/mcp-oauth.json`: mode 0600, written to a temporary file and renamed,
 *   never through a link. Keyed by URL, not by name, so a project's server of the same name
 *   pointing elsewhere never receives another server's token.
 */
import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, openSync, closeSync, fstatSync, renameSync, writeSync, lstatSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { readConfigDescriptor } from '../../config/config-file.js';

/** How long a connect waits for the user to finish authorising in the browser. */
export const AUTHORIZATION_WAIT_MS = 5 * 60_000;

interface StoredServer {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  callbackPort?: number;
}

interface StoreFile {
  version: 1;
  servers: Record<string, StoredServer>;
}

export function oauthStorePath(homeDir: string): string {
  return path.join(homeDir, '.mewcode', 'mcp-oauth.json');
}

/** The whole store; a missing or unreadable file is an empty one (a link is refused, not followed). */
function readStore(file: string): StoreFile {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const text = readConfigDescriptor(fd, fstatSync(fd).size);
      const parsed = (text === undefined ? undefined : JSON.parse(text)) as StoreFile | undefined;
      if (parsed?.version === 1 && typeof parsed.servers === 'object' && parsed.servers !== null) return parsed;
    } finally {
      closeSync(fd);
    }
  } catch {
    // none yet, or unusable: start over
  }
  return { version: 1, servers: {} };
}

function writeStore(file: string, store: StoreFile): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    if (lstatSync(file).isSymbolicLink()) throw new Error(`${file} is a symbolic link; MewCode does not write tokens through it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, `${JSON.stringify(store, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

export interface PendingAuthorization {
  /** The URL the user must open. */
  url: URL;
  /** Resolves to the authorisation code once the browser came back. */
  code: Promise<string>;
  cancel(): void;
}

export class StoredOAuthProvider implements OAuthClientProvider {
  private expectedState: string | undefined;
  private pending: PendingAuthorization | undefined;
  private port: number;

  constructor(
    private readonly file: string,
    private readonly serverUrl: string,
    port?: number,
  ) {
    this.port = port ?? this.stored().callbackPort ?? 0;
  }

  /** Read once (the SDK asks for the tokens on every request), refreshed by every change. */
  private cache: StoredServer | undefined;

  private stored(): StoredServer {
    this.cache ??= readStore(this.file).servers[this.serverUrl] ?? {};
    return this.cache;
  }

  private update(change: (server: StoredServer) => void): void {
    const store = readStore(this.file);
    const server = store.servers[this.serverUrl] ?? {};
    change(server);
    store.servers[this.serverUrl] = server;
    writeStore(this.file, store);
    this.cache = server;
  }

  hasTokens(): boolean {
    return this.stored().tokens !== undefined;
  }

  /** Pick the callback port before the flow needs it (kept, so the registered redirect URI stays valid). */
  async preparePort(): Promise<void> {
    if (this.port !== 0 && (await portFree(this.port))) return;
    const previous = this.port;
    this.port = await freeLoopbackPort();
    this.update((server) => {
      server.callbackPort = this.port;
      // The registration names the old redirect URI: register again.
      if (previous !== 0) delete server.client;
    });
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MewCode',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.stored().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.update((server) => (server.client = client));
  }

  tokens(): OAuthTokens | undefined {
    return this.stored().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.update((server) => {
      server.tokens = tokens;
      delete server.codeVerifier;
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.update((server) => (server.codeVerifier = codeVerifier));
  }

  codeVerifier(): string {
    const verifier = this.stored().codeVerifier;
    if (!verifier) throw new Error('no PKCE code verifier was saved for this authorisation');
    return verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.update((server) => {
      if (scope === 'all' || scope === 'client') delete server.client;
      if (scope === 'all' || scope === 'tokens') delete server.tokens;
      if (scope === 'all' || scope === 'verifier') delete server.codeVerifier;
    });
  }

  /** The SDK wants the user sent to `url`: listen for the way back; the connection shows the URL (takePending). */
  async redirectToAuthorization(url: URL): Promise<void> {
    this.pending?.cancel();
    this.pending = await listenForCallback(this.port, this.expectedState);
    this.pending.url = url;
  }

  /** The authorisation in progress since the last redirect, if any (taken once). */
  takePending(): PendingAuthorization | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

const PAGE = (title: string): string => `<!doctype html><meta charset="utf-8"><title>MewCode</title><p>${title}</p>`;

/** One callback on 127.0.0.1:`port`; anything but a matching `state` and a code is refused. */
function listenForCallback(port: number, state: string | undefined): Promise<PendingAuthorization> {
  return new Promise((resolve, reject) => {
    let server: Server | undefined;
    let settle!: { resolve(code: string): void; reject(error: Error): void };
    const code = new Promise<string>((ok, fail) => (settle = { resolve: ok, reject: fail }));
    code.catch(() => undefined);
    const timer = setTimeout(() => finish(new Error(`authorisation was not completed within ${AUTHORIZATION_WAIT_MS / 1000} s`)), AUTHORIZATION_WAIT_MS);
    timer.unref();
    const finish = (outcome: string | Error): void => {
      clearTimeout(timer);
      server?.close();
      server?.closeAllConnections();
      if (typeof outcome === 'string') settle.resolve(outcome);
      else settle.reject(outcome);
    };
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname !== '/callback') {
        response.writeHead(404).end();
        return;
      }
      const error = url.searchParams.get('error');
      const received = url.searchParams.get('code');
      if (state !== undefined && url.searchParams.get('state') !== state) {
        response.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('This answer does not belong to the authorisation MewCode started.'));
        return;
      }
      if (error || !received) {
        response.writeHead(400, { 'content-type': 'text/html' }).end(PAGE(`Authorisation failed: ${error ?? 'no code'}.`));
        finish(new Error(`the authorisation server answered: ${error ?? 'no code'} ${url.searchParams.get('error_description') ?? ''}`.trim()));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(PAGE('MewCode is authorised. You can close this tab.'));
      finish(received);
    });
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server!.unref();
      resolve({ url: new URL('about:blank'), code, cancel: () => finish(new Error('authorisation cancelled')) });
    });
  });
}
