/**
 * Network by domain for sandboxed commands (`sandbox.allowed_domains`, A13): the sandbox has
 * no network of its own (bubblewrap's `--unshare-net`), and reaches the outside only through this
 * HTTP proxy, which runs in MewCode (outside the sandbox) on a unix socket bound into it. It
 * accepts `CONNECT host:port` (HTTPS and any TLS, tunnelled untouched) and absolute-form plain
 * HTTP requests, each only for a host on the list; everything else gets 403 and is never
 * connected. Inside the sandbox a small bridge (bridgeSource) listens on 127.0.0.1 and forwards
 * to the socket; HTTP(S)_PROXY point there, so curl, git, npm, pip and most tools use it. A
 * program that ignores the proxy variables simply has no network.
 *
 * Behind a corporate proxy (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY in MewCode's own environment,
 * NO_PROXY honoured, read at each connection) an allowed host is reached through that proxy
 * (upstream-proxy.ts): a CONNECT tunnel through it, or the absolute-URI request sent to it. The
 * allow-list is checked first, on the host the command asked for: a refused host never reaches
 * the upstream proxy.
 *
 * Matching: `example.com` allows exactly that host; `*.example.com` allows its subdomains (not
 * the bare domain). Host names are compared lower-cased, without a trailing dot. IP literals are
 * allowed only when listed literally.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { UpstreamRefusal, openTunnel, reasonPhrase, tunnelTarget, upstreamAnswered, upstreamFor, upstreamUnreachable, type UpstreamRoute } from './upstream-proxy.js';

export interface DomainProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

export interface DomainProxyOptions {
  /** Where a direct connection to an allowed host goes (tests map names to a local server); not used through an upstream proxy, which resolves the name itself. */
  connectTo?: (host: string, port: number) => { host: string; port: number };
  /** Said once per refused host. */
  onRefused?: (host: string) => void;
  /** Where the upstream proxy variables are read, at each connection (process.env by default). */
  env?: () => NodeJS.ProcessEnv;
  /** Said once per distinct refusal by the upstream proxy (its password never in it). */
  onUpstreamError?: (message: string) => void;
}

/** The port the bridge listens on inside the sandbox (its own network namespace: never taken). */
export const BRIDGE_PORT = 3128;

export function hostAllowed(allowed: readonly string[], rawHost: string): boolean {
  const host = rawHost.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
  if (host === '') return false;
  return allowed.some((entry) => {
    const rule = entry.toLowerCase().replace(/\.$/, '');
    if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1;
    return host === rule;
  });
}

export async function startDomainProxy(socketPath: string, allowed: readonly string[], options: DomainProxyOptions = {}): Promise<DomainProxy> {
  const refused = new Set<string>();
  const refuse = (host: string): void => {
    if (refused.has(host)) return;
    refused.add(host);
    options.onRefused?.(host);
  };
  const target = (host: string, port: number) => options.connectTo?.(host, port) ?? { host, port };
  const route = (url: URL | undefined): UpstreamRoute => (url ? upstreamFor(url, options.env?.() ?? process.env) : { kind: 'refused', message: 'MewCode sandbox proxy: the target is no host and port' });
  const upstreamErrors = new Set<string>();
  const upstreamError = (message: string): void => {
    if (upstreamErrors.has(message)) return;
    upstreamErrors.add(message);
    options.onUpstreamError?.(message);
  };
  /** The command's answer when the upstream proxy cannot be used: 502, the message as reason and body. */
  const badGateway = (response: http.ServerResponse, message: string): void => {
    upstreamError(message);
    if (!response.headersSent) response.writeHead(502, reasonPhrase(message), { 'content-type': 'text/plain' });
    response.end(`${message}\n`);
  };
  const sockets = new Set<net.Socket>();
  /** Every socket, client or upstream, so close() ends them all and none keeps MewCode alive. */
  const track = (socket: net.Socket): net.Socket => {
    sockets.add(socket);
    socket.unref();
    socket.on('close', () => sockets.delete(socket));
    return socket;
  };

  const server = http.createServer((request, response) => {
    // Plain HTTP through a proxy: the request line holds an absolute URL.
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      response.writeHead(400).end('MewCode sandbox proxy: expected an absolute http:// URL\n');
      return;
    }
    if (url.protocol !== 'http:' || !hostAllowed(allowed, url.hostname)) {
      refuse(url.hostname);
      response.writeHead(403, { 'content-type': 'text/plain' }).end(`MewCode sandbox: ${url.hostname} is not in sandbox.allowed_domains\n`);
      return;
    }
    const via = route(url);
    if (via.kind === 'refused') return badGateway(response, via.message);
    let gone = false;
    response.on('close', () => (gone = true));
    const headers = forwardedHeaders(request.headers, url.host);
    let upstream: http.ClientRequest;
    if (via.kind === 'proxy') {
      // Through the upstream proxy: the absolute URI (without any user info), its credentials.
      if (via.authorization) headers['proxy-authorization'] = via.authorization;
      const proxyHost = via.url.hostname.replace(/^\[(.*)\]$/, '$1');
      const secure = via.url.protocol === 'https:';
      upstream = (secure ? https : http).request(
        { host: proxyHost, port: Number(via.url.port || (secure ? 443 : 80)), method: request.method, path: `${url.protocol}//${url.host}${url.pathname}${url.search}`, headers },
        (answer) => {
          if (answer.statusCode === 407) {
            answer.resume();
            badGateway(response, upstreamAnswered(via, 407, answer.statusMessage ?? '', `${request.method} ${url.origin}`));
            return;
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', (error) => {
        if (gone) return; // the command went away first: nothing to tell it, nothing to warn about
        if (response.headersSent) response.destroy();
        else badGateway(response, upstreamUnreachable(via, error));
      });
    } else {
      const to = target(url.hostname, Number(url.port || 80));
      upstream = http.request({ host: to.host, port: to.port, method: request.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`MewCode sandbox proxy: ${error.message}\n`);
      });
    }
    upstream.on('socket', (socket) => track(socket));
    response.on('close', () => upstream.destroy()); // the command went away: so does the request
    request.pipe(upstream);
  });

  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [host = '', portText = ''] = splitHostPort(request.url ?? '');
    const port = Number(portText);
    if (!hostAllowed(allowed, host) || !Number.isInteger(port) || port < 1 || port > 65535) {
      refuse(host);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nMewCode sandbox: ${host} is not in sandbox.allowed_domains\n`);
      return;
    }
    const via = route(tunnelTarget(host, port));
    if (via.kind === 'refused') return void tunnelRefused(client, via.message);
    if (via.kind === 'proxy') return void throughUpstream(via, host, port, client, head);
    const to = target(host, port);
    const upstream = track(net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    }));
    const drop = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      drop();
    });
    // Either side closing ends the tunnel, so no half-open upstream outlives its command.
    upstream.on('close', drop);
    client.on('close', drop);
    client.on('error', drop);
  });

  const tunnelRefused = (client: net.Socket, message: string): void => {
    upstreamError(message);
    if (client.writable) client.end(`HTTP/1.1 502 ${reasonPhrase(message)}\r\ncontent-type: text/plain\r\n\r\n${message}\n`);
    else client.destroy();
  };

  /** A tunnel through the upstream proxy; the command's CONNECT is answered once the upstream's is. */
  const throughUpstream = (via: Extract<UpstreamRoute, { kind: 'proxy' }>, host: string, port: number, client: net.Socket, head: Buffer): void => {
    const { socket: upstream, ready } = openTunnel(via, `${host.includes(':') ? `[${host}]` : host}:${port}`);
    track(upstream);
    const drop = (): void => {
      upstream.destroy();
      client.destroy();
    };
    client.on('close', drop);
    client.on('error', drop);
    ready.then(
      (rest) => {
        upstream.on('close', drop);
        upstream.on('error', drop);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) client.write(rest);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      },
      (error: Error) => tunnelRefused(client, error instanceof UpstreamRefusal ? error.message : upstreamUnreachable(via, error)),
    );
  };
  server.on('connection', (socket: net.Socket) => void track(socket));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The proxy must not keep MewCode alive: it serves commands, and each command keeps its own
  // connection open while it runs.
  server.unref();
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The command's headers for the next hop: its proxy headers were for this proxy, which wants none. */
function forwardedHeaders(headers: http.IncomingHttpHeaders, host: string): http.OutgoingHttpHeaders {
  const { 'proxy-authorization': _auth, 'proxy-connection': _connection, ...rest } = headers;
  return { ...rest, host };
}

/** `host:port`, `[v6]:port`. */
function splitHostPort(authority: string): [string, string] {
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (v6) return [v6[1] ?? '', v6[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, ''] : [authority.slice(0, at), authority.slice(at + 1)];
}

/**
 * The bridge inside the sandbox: listens on 127.0.0.1:BRIDGE_PORT, forwards each connection to the
 * proxy socket, then runs the command and exits with its status (so the command's exit code and
 * signals are the caller's, and the bridge ends with it). Runs with the node that runs MewCode.
 */
export function bridgeSource(socketPath: string): string {
  return `
const net = require('node:net');
const { spawn } = require('node:child_process');
const server = net.createServer((client) => {
  const upstream = net.connect(${JSON.stringify(socketPath)});
  client.pipe(upstream).pipe(client);
  const drop = () => { client.destroy(); upstream.destroy(); };
  client.on('error', drop);
  upstream.on('error', drop);
});
server.listen(${BRIDGE_PORT}, '127.0.0.1', () => {
  const [file, ...args] = process.argv.slice(1);
  const child = spawn(file, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    server.close();
    if (!signal) process.exit(code ?? 1);
    // Die of the same signal where node can (the caller reads 128+n); node ignores SIGPIPE and
    // treats SIGUSR1 as "start the inspector", so fall back to the exit status a shell reports.
    process.removeAllListeners(signal);
    try { process.kill(process.pid, signal); } catch {}
    setTimeout(() => process.exit(128 + (require('node:os').constants.signals[signal] ?? 0)), 50);
  });
  child.on('error', (error) => { process.stderr.write(String(error.message) + '\\n'); process.exit(127); });
});
server.on('error', (error) => { process.stderr.write('MewCode sandbox proxy bridge: ' + error.message + '\\n'); process.exit(126); });
`;
}

/** What a command in the sandbox sees: the proxy, for every common spelling of the variables. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${BRIDGE_PORT}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, all_proxy: url, NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1' };
}
