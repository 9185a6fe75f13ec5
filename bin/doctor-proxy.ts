/**
 * `mewcode doctor`'s proxy check: how the model requests leave the machine, resolved exactly as
 * each request resolves it (sdk/http/proxy.ts: the variable for the URL's scheme, the ALL_PROXY
 * fallback, NO_PROXY), then what other requests (MCP over HTTP, HTTP hooks, skill installs) do
 * per scheme. A proxy's user name and password are never printed. NODE_EXTRA_CA_CERTS, which
 * Node reads at start-up for every TLS connection, gets a line of its own.
 */
import { accessSync, constants } from 'node:fs';
import type { CheckLine } from './doctor-report.js';
import { displayProxy, proxyRouteFor, type ProxyRoute } from '../sdk/http/proxy.js';

const OTHERS = 'MCP over HTTP, HTTP hooks, skill installs';

/** `endpoint`: the URL model requests go to, when a provider was set up. */
export function checkProxy(env: NodeJS.ProcessEnv, endpoint?: string): CheckLine[] {
  return [...proxyLines(env, endpoint), ...caLines(env)];
}

function proxyLines(env: NodeJS.ProcessEnv, endpoint: string | undefined): CheckLine[] {
  const noProxy = env.no_proxy?.trim() ? `no_proxy=${env.no_proxy.trim()}` : env.NO_PROXY?.trim() ? `NO_PROXY=${env.NO_PROXY.trim()}` : undefined;
  // Any host of each scheme, NO_PROXY aside: what a request goes through unless exempted.
  const https = proxyRouteFor(new URL('https://proxy-check.invalid/'), { ...env, no_proxy: '', NO_PROXY: '' });
  const http = proxyRouteFor(new URL('http://proxy-check.invalid/'), { ...env, no_proxy: '', NO_PROXY: '' });
  if (https.kind === 'direct' && http.kind === 'direct') {
    const ignored = noProxy ? ` (${noProxy} has nothing to exempt)` : '';
    return [{ status: 'ok', check: 'proxy', message: `no proxy configured (no HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): requests go out directly${ignored}` }];
  }
  const schemes = `https: ${summary(https)}, http: ${summary(http)}${noProxy ? `, except hosts in ${noProxy}` : ''}`;
  const lines: CheckLine[] = [];
  const target = parseUrl(endpoint);
  let modelRefusedBy: string | undefined;
  if (target) {
    const route = proxyRouteFor(target, env);
    const where = `model requests to ${target.origin}`;
    if (route.kind === 'refused') {
      modelRefusedBy = route.variable;
      lines.push({ status: 'fail', check: 'proxy', message: `${where} fail: ${route.message}`, hint: 'every model request fails until then' });
    } else {
      lines.push({ status: 'ok', check: 'proxy', message: `${where}: ${modelRoute(route, target)}; other requests (${OTHERS}): ${schemes}` });
    }
  } else {
    lines.push({ status: 'ok', check: 'proxy', message: `requests (model, ${OTHERS}): ${schemes}` });
  }
  // A proxy that cannot be used for a scheme, said once per variable.
  const said = new Set(modelRefusedBy === undefined ? [] : [modelRefusedBy]);
  for (const [scheme, route] of [['https', https], ['http', http]] as const) {
    if (route.kind !== 'refused' || said.has(route.variable)) continue;
    said.add(route.variable);
    lines.push({ status: 'warn', check: 'proxy', message: route.message, hint: `requests to ${scheme}: URLs fail until then` });
  }
  return lines;
}

function through(url: string, variable: string): string {
  const shown = displayProxy(url);
  return `through ${shown.text} (${variable}${shown.credentials ? ', with credentials' : ''})`;
}

function parseUrl(text: string | undefined): URL | undefined {
  try {
    return text === undefined ? undefined : new URL(text);
  } catch {
    return undefined;
  }
}

function modelRoute(route: Exclude<ProxyRoute, { kind: 'refused' }>, target: URL): string {
  if (route.kind === 'proxy') return through(route.url, route.variable);
  if (route.kind === 'exempt') return `directly (${route.variable} entry "${route.entry}" matches; ${route.proxyVariable} not used)`;
  const scheme = target.protocol.slice(0, -1).toUpperCase();
  return `directly (no ${scheme}_PROXY or ALL_PROXY for ${target.protocol} URLs)`;
}

function summary(route: ProxyRoute): string {
  if (route.kind === 'proxy') return through(route.url, route.variable);
  if (route.kind === 'refused') return `refused (${route.variable}, below)`;
  return 'directly';
}

function caLines(env: NodeJS.ProcessEnv): CheckLine[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    accessSync(file, constants.R_OK);
  } catch {
    return [{ status: 'warn', check: 'proxy', message: `NODE_EXTRA_CA_CERTS=${file} cannot be read: Node ignores it, so TLS through a gateway or proxy with a company CA fails`, hint: 'point it at a readable PEM file of CA certificates' }];
  }
  return [{ status: 'ok', check: 'proxy', message: `NODE_EXTRA_CA_CERTS=${file}: its CA certificates are trusted for TLS too (read at Node's start-up)` }];
}
