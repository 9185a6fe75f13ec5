/**
 * Outgoing requests behind a proxy: `HTTPS_PROXY` / `HTTP_PROXY` / `ALL_PROXY` and `NO_PROXY`
 * (either case; read at each request, as curl, git and npm do) pick the proxy per target URL
 * (proxy-from-env); an `https:` target is tunnelled with CONNECT (https-proxy-agent), an `http:`
 * target is sent to the proxy as an absolute URI (http-proxy-agent). Both agents keep their
 * connections alive. TLS to the target uses Node's CA store, which `NODE_EXTRA_CA_CERTS` extends
 * at start-up (a gateway with a company CA). The libraries load only when a proxy is set.
 */
import type http from 'node:http';

export interface ProxyChoice {
  /** The proxy's URL without its credentials, for messages and `mewcode doctor`. */
  display: string;
  agent: http.Agent;
}

const agents = new Map<string, Promise<http.Agent>>();

/** The proxy a request to `url` goes through now, or undefined for a direct connection. */
export async function proxyFor(url: URL): Promise<ProxyChoice | undefined> {
  const proxy = await proxyUrlFor(url);
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

/** The proxy URL the environment names for `url` ('' or undefined: none). */
export async function proxyUrlFor(url: URL): Promise<string | undefined> {
  if (!anyProxyVariable()) return undefined; // the common case: nothing to load
  const { getProxyForUrl } = await import('proxy-from-env');
  return getProxyForUrl(url.href) || undefined;
}

/** What the environment says about proxies, for `mewcode doctor` (credentials never shown). */
export function describeProxyEnvironment(env: NodeJS.ProcessEnv = process.env): { name: string; value: string }[] {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS'];
  return names.filter((name) => env[name]).map((name) => ({ name, value: /proxy$/i.test(name) && !/^no_/i.test(name) ? withoutCredentials(env[name]!) : env[name]! }));
}

function anyProxyVariable(): boolean {
  const env = process.env;
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || env.ALL_PROXY || env.all_proxy || env.npm_config_https_proxy || env.npm_config_http_proxy || env.npm_config_proxy);
}

async function makeAgent(protocol: string, proxy: string): Promise<http.Agent> {
  if (protocol === 'https:') {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    return new HttpsProxyAgent(proxy, { keepAlive: true });
  }
  const { HttpProxyAgent } = await import('http-proxy-agent');
  return new HttpProxyAgent(proxy, { keepAlive: true });
}

function withoutCredentials(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
      return `${url.href} (with credentials)`;
    }
    return url.href;
  } catch {
    return '(an unparsable proxy URL)';
  }
}
