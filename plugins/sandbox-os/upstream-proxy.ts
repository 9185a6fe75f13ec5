/**
 * The domain proxy behind a corporate proxy: when MewCode's own environment names a proxy for a
 * target (HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, NO_PROXY exempting), the sandbox's allowed hosts
 * are reached through it, as MewCode's own requests are; otherwise a network that only allows
 * traffic through that proxy could never reach them. The route is decided by the same function
 * as every other request (sdk/http/proxy.ts), read at each connection. Only the route lives here:
 * the allow-list check stays in domain-proxy.ts, before anything here runs.
 *
 * An upstream proxy's refusal (407, 403, unreachable, a SOCKS proxy MewCode cannot speak) comes
 * back as one line naming that proxy without its password, for the command and for MewCode's
 * warning; a 407 is never passed through, or the command would ask for credentials for MewCode's
 * proxy, which has none.
 */
import net from 'node:net';
import tls from 'node:tls';
import { displayProxy, proxyRouteFor, type ProxyRoute } from '../../sdk/http/proxy.js';

export type UpstreamRoute =
  | { kind: 'direct' }
  /** `shown`: `http://proxy.corp:3128 (HTTPS_PROXY, with credentials)`, never the password. */
  | { kind: 'proxy'; url: URL; variable: string; shown: string; authorization?: string }
  | { kind: 'refused'; message: string };

/** How a connection to `target` (an `http:` or `https:` URL) leaves the machine now. */
export function upstreamFor(target: URL, env: NodeJS.ProcessEnv): UpstreamRoute {
  const route = proxyRouteFor(target, env);
  if (route.kind === 'refused') return { kind: 'refused', message: `MewCode sandbox proxy: ${route.message}` };
  if (route.kind !== 'proxy') return { kind: 'direct' };
  const url = new URL(route.url);
  const shown = `${displayProxy(route.url).text} (${route.variable}${url.username || url.password ? ', with credentials' : ''})`;
  const authorization = url.username || url.password ? `Basic ${Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`).toString('base64')}` : undefined;
  return { kind: 'proxy', url, variable: route.variable, shown, ...(authorization ? { authorization } : {}) };
}

/** A URL's user or password as typed (`p%40ss` is `p@ss`); a stray `%` is kept as it is rather than failing the request. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The target of a CONNECT, as a URL the proxy variables are read for (a tunnel is taken for https). */
export function tunnelTarget(host: string, port: number): URL | undefined {
  try {
    return new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}`);
  } catch {
    return undefined;
  }
}

/** What the command and MewCode's warning say when the upstream proxy answers `status` instead of the target's answer. */
export function upstreamAnswered(upstream: Extract<UpstreamRoute, { kind: 'proxy' }>, status: number, reason: string, what: string): string {
  const hint =
    status === 407
      ? `: put its user and password in ${upstream.variable} (http://user:password@host:port)`
      : status === 403
        ? ': that proxy does not allow this host (ask whoever runs it), or list the host in NO_PROXY if it is reachable directly'
        : '';
  return `MewCode sandbox proxy: the upstream proxy ${upstream.shown} answered ${status} ${reason} for ${what}${hint}`.trim();
}

export function upstreamUnreachable(upstream: Extract<UpstreamRoute, { kind: 'proxy' }>, error: Error): string {
  return `MewCode sandbox proxy: cannot reach the upstream proxy ${upstream.shown}: ${error.message}`;
}

/** An error line as an HTTP reason phrase (visible characters only). */
export function reasonPhrase(message: string): string {
  return message.replace(/[^\x20-\x7e]/g, ' ').slice(0, 400);
}

export class UpstreamRefusal extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

const MAX_HEAD = 64 * 1024;

/**
 * A CONNECT tunnel to `authority` through the upstream proxy. `socket` is returned at once (so the
 * caller can end it with the command); `ready` gives the bytes that followed the proxy's answer,
 * or fails with an UpstreamRefusal naming the proxy.
 */
export function openTunnel(upstream: Extract<UpstreamRoute, { kind: 'proxy' }>, authority: string): { socket: net.Socket; ready: Promise<Buffer> } {
  const host = upstream.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const secure = upstream.url.protocol === 'https:';
  const port = Number(upstream.url.port || (secure ? 443 : 80));
  const socket = secure ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }) }) : net.connect(port, host);
  const ready = new Promise<Buffer>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (error: Error): void => {
      socket.off('data', onData);
      reject(error instanceof UpstreamRefusal ? error : new UpstreamRefusal(upstreamUnreachable(upstream, error)));
      socket.destroy();
    };
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD) fail(new UpstreamRefusal(`MewCode sandbox proxy: the upstream proxy ${upstream.shown} sent an answer too long to read`));
        return;
      }
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('close', onClose);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const match = /^HTTP\/\d(?:\.\d)? (\d{3})(?: (.*))?$/.exec(statusLine);
      const status = match ? Number(match[1]) : 0;
      if (status >= 200 && status < 300) {
        socket.pause();
        resolve(head.subarray(end + 4));
        return;
      }
      socket.destroy();
      const message = match
        ? upstreamAnswered(upstream, status, (match[2] ?? '').trim(), `CONNECT ${authority}`)
        : `MewCode sandbox proxy: the upstream proxy ${upstream.shown} gave no HTTP answer to CONNECT ${authority}`;
      reject(new UpstreamRefusal(message, status));
    };
    const onClose = (): void => fail(new Error('it closed the connection before answering'));
    socket.on('data', onData);
    socket.on('error', fail);
    socket.on('close', onClose);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      const auth = upstream.authorization ? `Proxy-Authorization: ${upstream.authorization}\r\n` : '';
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    });
  });
  return { socket, ready };
}

/**
 * For `mewcode doctor`: where the sandbox's proxy sends allowed hosts, per scheme (NO_PROXY aside,
 * then named), or undefined when no proxy variable is set.
 */
export function describeUpstreams(env: NodeJS.ProcessEnv): string | undefined {
  const anyHost = { ...env, no_proxy: '', NO_PROXY: '' };
  const https = proxyRouteFor(new URL('https://proxy-check.invalid/'), anyHost);
  const http = proxyRouteFor(new URL('http://proxy-check.invalid/'), anyHost);
  if (https.kind === 'direct' && http.kind === 'direct') return undefined;
  const noProxy = env.no_proxy?.trim() ? `no_proxy=${env.no_proxy.trim()}` : env.NO_PROXY?.trim() ? `NO_PROXY=${env.NO_PROXY.trim()}` : undefined;
  return `the sandbox's proxy chains to the upstream proxy (https: ${routeText(https)}, http: ${routeText(http)}${noProxy ? `, except hosts in ${noProxy}` : ''})`;
}

function routeText(route: ProxyRoute): string {
  if (route.kind === 'proxy') {
    const shown = displayProxy(route.url);
    return `through ${shown.text} (${route.variable}${shown.credentials ? ', with credentials' : ''})`;
  }
  if (route.kind === 'refused') return `refused, ${route.variable} cannot be used (see the proxy line)`;
  return 'directly';
}
