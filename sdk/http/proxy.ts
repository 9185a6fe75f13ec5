/**
 * Outgoing requests behind a proxy (model providers, MCP over HTTP, HTTP hooks, skill installs),
 * read from the environment at each request as curl reads it:
 * - an `https:` target uses `https_proxy`, then `HTTPS_PROXY`, then `all_proxy` / `ALL_PROXY`; an
 *   `http:` target `http_proxy` / `HTTP_PROXY`, then the same fallback (lowercase wins when both
 *   spellings are set; an empty variable counts as unset);
 * - a proxy written without a scheme (`proxy.corp:8080`, very common) is an `http://` proxy, as
 *   for curl, npm, git and pip: an `https:` target goes through it in a CONNECT tunnel; reading it
 *   as `https://` would speak TLS to a plain proxy and fail every request;
 * - `NO_PROXY` / `no_proxy` exempts hosts (no-proxy.ts);
 * - only HTTP(S) proxies exist here: a `socks5://` (or any other) proxy is refused with its
 *   variable named, never silently bypassed (the user may rely on it to reach anything at all).
 * An `https:` target is tunnelled with CONNECT (https-proxy-agent), an `http:` target is sent to
 * the proxy as an absolute URI (http-proxy-agent); both keep their connections alive. TLS to the
 * target uses Node's CA store, which `NODE_EXTRA_CA_CERTS` extends at start-up. The agents load
 * only when a proxy is used.
 */
import type http from 'node:http';
import { noProxyEntryFor } from './no-proxy.js';

/** How a request to one URL leaves the machine. */
export type ProxyRoute =
  /** No proxy variable applies to this scheme. */
  | { kind: 'direct' }
  /** A proxy is set, but `entry` of `variable` (NO_PROXY or no_proxy) exempts the host. */
  | { kind: 'exempt'; proxyVariable: string; variable: string; entry: string }
  /** Through `url` (normalised: it has a scheme), named by `variable`. */
  | { kind: 'proxy'; url: string; variable: string }
  /** The proxy named cannot be used: every request to this URL fails with `message`. */
  | { kind: 'refused'; variable: string; message: string };

export interface ProxyChoice {
  /** The proxy's URL without its credentials, for messages and `mewcode doctor`. */
  display: string;
  agent: http.Agent;
}

const SUPPORTED = new Set(['http:', 'https:']);

/**
 * The code of the error a request gets when the proxy variables name a proxy MewCode cannot use
 * (SOCKS, an unreadable value): the same request a moment later fails alike, so it is not retried.
 */
export const PROXY_REFUSED = 'ERR_MEWCODE_PROXY_REFUSED';
const agents = new Map<string, Promise<http.Agent>>();

/** The proxy a request to `url` goes through now, or undefined for a direct connection. Throws when the proxy set cannot be used. */
export async function proxyFor(url: URL, env: NodeJS.ProcessEnv = process.env): Promise<ProxyChoice | undefined> {
  const proxy = proxyUrlFor(url, env);
  if (!proxy) return undefined;
  const key = `${url.protocol}${proxy}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = makeAgent(url.protocol, proxy);
    agents.set(key, agent);
    agent.catch(() => agents.delete(key));
  }
  return { display: withoutCredentials(proxy), agent: await agent };
}

/** The proxy URL (with a scheme) a request to `url` goes through, or undefined: direct. Throws when the proxy set cannot be used. */
export function proxyUrlFor(url: URL, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const route = proxyRouteFor(url, env);
  if (route.kind === 'refused') throw Object.assign(new Error(route.message), { code: PROXY_REFUSED });
  return route.kind === 'proxy' ? route.url : undefined;
}

/** How a request to `url` leaves the machine, with the variables that decide it (for `mewcode doctor` and the two above). */
export function proxyRouteFor(url: URL, env: NodeJS.ProcessEnv = process.env): ProxyRoute {
  const scheme = url.protocol.replace(/:$/, '');
  const named = firstSet(env, [`${scheme}_proxy`, 'all_proxy']);
  if (!named) return { kind: 'direct' };
  const noProxy = firstSet(env, ['no_proxy']);
  const entry = noProxy ? noProxyEntryFor(noProxy.value, url) : undefined;
  if (noProxy && entry !== undefined) return { kind: 'exempt', proxyVariable: named.name, variable: noProxy.name, entry };
  const proxy = normaliseProxy(named.value);
  let parsed: URL;
  try {
    parsed = new URL(proxy);
  } catch {
    return { kind: 'refused', variable: named.name, message: `${named.name}=${withoutCredentials(named.value)} is not a proxy URL MewCode can read: set it to http://host:port, or unset it` };
  }
  if (!SUPPORTED.has(parsed.protocol)) {
    const kind = parsed.protocol.startsWith('socks') ? 'SOCKS' : parsed.protocol.slice(0, -1);
    const ways = named.name.toUpperCase() === 'ALL_PROXY' ? `set ${scheme.toUpperCase()}_PROXY to an HTTP proxy, list the host in NO_PROXY, or unset ${named.name}` : `set it to an HTTP proxy, list the host in NO_PROXY, or unset it`;
    return { kind: 'refused', variable: named.name, message: `${named.name}=${withoutCredentials(proxy)} is a ${kind} proxy, which MewCode does not support (only http:// and https:// proxies): ${ways}` };
  }
  return { kind: 'proxy', url: proxy, variable: named.name };
}

/** A proxy without a scheme is an `http://` one, as curl, npm, git and pip read it. */
export function normaliseProxy(value: string): string {
  const text = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
}

/**
 * For messages and `mewcode doctor`: the proxy without its user name and password, whatever its
 * form (a scheme-less `user:pass@host` parses as the scheme `user:`, so it is normalised first);
 * what cannot be parsed keeps nothing before its last `@`.
 */
export function displayProxy(proxy: string): { text: string; credentials: boolean } {
  const text = normaliseProxy(proxy);
  try {
    const url = new URL(text);
    return { text: `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`, credentials: url.username !== '' || url.password !== '' };
  } catch {
    const at = text.lastIndexOf('@');
    if (at === -1) return { text, credentials: false };
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
    return { text: `${scheme}***${text.slice(at)}`, credentials: false }; // the mask says it
  }
}

/** `displayProxy` as one string: `http://proxy.corp:3128 (with credentials)`. */
export function withoutCredentials(proxy: string): string {
  const shown = displayProxy(proxy);
  return shown.credentials ? `${shown.text} (with credentials)` : shown.text;
}

/** The first non-empty variable of `names`, each read lowercase first, then uppercase. */
function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const base of names) {
    for (const name of [base.toLowerCase(), base.toUpperCase()]) {
      const value = env[name]?.trim();
      if (value) return { name, value };
    }
  }
  return undefined;
}

async function makeAgent(protocol: string, proxy: string): Promise<http.Agent> {
  if (protocol === 'https:') {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    return new HttpsProxyAgent(proxy, { keepAlive: true });
  }
  const { HttpProxyAgent } = await import('http-proxy-agent');
  return new HttpProxyAgent(proxy, { keepAlive: true });
}
