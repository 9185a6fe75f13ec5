/**
 * `NO_PROXY` as curl reads it, so one value means the same to MewCode as to curl, git and the
 * commands it runs (the OS sandbox writes `localhost,127.0.0.1,::1` for them):
 * - entries separated by commas and/or white space; `*` alone exempts every host;
 * - a name matches itself and every name below it, at a label boundary (`corp.test` covers
 *   `api.corp.test`, not `evilcorp.test`); a leading `.` or `*.` changes nothing (`.corp.test`
 *   covers `corp.test` too); case and a trailing dot are ignored;
 * - an IP address matches that address in any spelling (`::1` = `0:0:0:0:0:0:0:1`), bare or in
 *   brackets (`[::1]`); `addr/bits` matches a range (`10.0.0.0/8`, `fd00::/8`); names are never
 *   resolved, so `127.0.0.1` does not cover `localhost`;
 * - `entry:port` (`[v6]:port` for IPv6) matches only that port (the URL's, or 80/443 by scheme).
 */
import type net from 'node:net';
import { builtinOnFirstUse } from '../lazy-builtin.js';

const nodeNet = builtinOnFirstUse<typeof net>('node:net');

type Entry = { kind: 'all' } | { kind: 'name'; name: string; port?: number } | { kind: 'ip'; address: string; bits?: number; port?: number };

/** The entry of `list` that exempts `url` from the proxy, or undefined when none does. */
export function noProxyEntryFor(list: string, url: URL): string | undefined {
  const host = targetHost(url);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  for (const raw of list.split(/[\s,]+/)) {
    const entry = parseEntry(raw);
    if (entry && matches(entry, host, port)) return raw;
  }
  return undefined;
}

function targetHost(url: URL): string {
  let host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.$/, '');
}

function parseEntry(raw: string): Entry | undefined {
  const text = raw.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === '*') return { kind: 'all' };
  const isIP = nodeNet().isIP;
  // A bare IPv6 address is all colons: never read its last group as a port.
  if (isIP(text) !== 0) return { kind: 'ip', address: text };
  let rest = text;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](.*)$/.exec(rest);
  if (bracketed) {
    rest = bracketed[1]!;
    const after = bracketed[2]!;
    if (after.startsWith('/')) rest += after;
    else if (/^:\d+$/.test(after)) port = Number(after.slice(1));
    else if (after !== '') return undefined;
  } else {
    const withPort = /^([^:]+):(\d+)$/.exec(rest);
    if (withPort) {
      rest = withPort[1]!;
      port = Number(withPort[2]);
    }
  }
  const range = /^([^/]+)\/(\d{1,3})$/.exec(rest);
  if (range && isIP(range[1]!) !== 0) return { kind: 'ip', address: range[1]!, bits: Number(range[2]), ...(port !== undefined ? { port } : {}) };
  if (isIP(rest) !== 0) return { kind: 'ip', address: rest, ...(port !== undefined ? { port } : {}) };
  if (rest.includes('/') || rest.includes(':') || rest.includes('[')) return undefined; // not a host name: ignored, as curl does
  const name = rest.replace(/^\*?\./, '').replace(/\.$/, '');
  if (name === '' || name.includes('*')) return undefined;
  return { kind: 'name', name, ...(port !== undefined ? { port } : {}) };
}

function matches(entry: Entry, host: string, port: number): boolean {
  if (entry.kind === 'all') return true;
  if (entry.port !== undefined && entry.port !== port) return false;
  const family = nodeNet().isIP(host);
  if (entry.kind === 'name') return family === 0 && (host === entry.name || host.endsWith(`.${entry.name}`));
  if (family === 0) return false;
  const entryFamily = nodeNet().isIP(entry.address) === 6 ? 'ipv6' : 'ipv4';
  try {
    const list = new (nodeNet().BlockList)();
    if (entry.bits === undefined) list.addAddress(entry.address, entryFamily);
    else list.addSubnet(entry.address, entry.bits, entryFamily);
    return list.check(host, family === 6 ? 'ipv6' : 'ipv4');
  } catch {
    return false; // a prefix longer than the address (10.0.0.0/40): matches nothing
  }
}
