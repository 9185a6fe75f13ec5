/**
 * Network by domain behind a corporate proxy: the sandbox's domain proxy (which MewCode runs
 * outside the sandbox) chains to the proxy the host environment names (HTTPS_PROXY / HTTP_PROXY /
 * ALL_PROXY, NO_PROXY honoured), as MewCode's own requests do. Everything is real: a forward proxy
 * process that alone "resolves" the test names (the machine has no DNS for them, as behind a
 * corporate proxy) and wants a password, a plain HTTP and a self-signed HTTPS target, curl
 * inside bubblewrap. The allow-list is still checked on the host the command asked for, before
 * any upstream connection.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { securityTally } from '../../security/attempts.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = securityTally('sandbox-upstream-proxy');
const PASSWORD = 'S3cret-upstream-pw';
const seen: string[] = [];
const proxyLog: { method: string; target: string; denied?: number }[] = [];
let upstream: ChildProcess;
let upstreamPort = 0;
let httpPort = 0;
let httpsPort = 0;
let closedPort = 0;
let httpServer: http.Server;
let httpsServer: https.Server;
let certs: string;
let fx: SandboxFixture;

beforeAll(async () => {
  certs = mkdtempSync(path.join(os.tmpdir(), 'mc-upstream-certs-'));
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=registry.test'], { cwd: certs, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  const answer = (scheme: string) => (request: http.IncomingMessage, response: http.ServerResponse) => {
    seen.push(`${scheme} ${request.method} ${request.headers.host} ${request.url}`);
    response.end(`hello-${scheme}-target\n`);
  };
  httpServer = http.createServer(answer('http'));
  httpsServer = https.createServer({ key: readFileSync(path.join(certs, 'key.pem')), cert: readFileSync(path.join(certs, 'cert.pem')) }, answer('https'));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
  httpPort = (httpServer.address() as AddressInfo).port;
  httpsPort = (httpsServer.address() as AddressInfo).port;
  // A port nothing listens on: the upstream proxy that refuses connections.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));

  upstream = spawn(process.execPath, [path.join(process.cwd(), 'test', 'support', 'forward-proxy.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FORWARD_PROXY_AUTH: `alice:${PASSWORD}`, FORWARD_PROXY_RESOLVE_TO: '127.0.0.1', FORWARD_PROXY_DENY: 'blocked.corp.test' },
  });
  const lines = createInterface({ input: upstream.stdout! });
  upstreamPort = await new Promise<number>((resolve) => {
    lines.once('line', (port) => {
      lines.on('line', (line) => proxyLog.push(JSON.parse(line)));
      resolve(Number(port));
    });
  });
  // Direct connections (a NO_PROXY host) go to the local targets; chained ones are the upstream's to resolve.
  fx = await sandboxFixture({ sandboxYaml: '\n  allowed_domains: [registry.test, "*.corp.test"]', proxyConnectTo: (_host, port) => ({ host: '127.0.0.1', port }) });
}, 60_000);

afterAll(async () => {
  await fx?.sandbox.dispose();
  upstream?.kill('SIGTERM');
  await new Promise((resolve) => httpServer?.close(resolve));
  await new Promise((resolve) => httpsServer?.close(resolve));
  rmSync(certs, { recursive: true, force: true });
  tally.save();
});

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY'].flatMap((name) => [name, name.toLowerCase()]);

/** Runs `command` in the sandbox while MewCode's own environment holds `vars` (and no other proxy variable). */
async function withHostEnv(vars: Record<string, string>, command: string): Promise<string> {
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARIABLES) delete process.env[name];
  Object.assign(process.env, vars);
  try {
    return (await fx.run(command)).content;
  } finally {
    for (const name of PROXY_VARIABLES) delete process.env[name];
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  }
}

const curl = (args: string) => `curl -s -S -m 8 ${args}; echo " curl=$?"`;
const withPassword = () => `http://alice:${PASSWORD}@127.0.0.1:${upstreamPort}`;
const upstreamShown = () => `http://127.0.0.1:${upstreamPort}`;

describe('an allowed host is reached through the upstream proxy', () => {
  test('https (CONNECT): tunnelled through the upstream, with its credentials', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: https', fx.status)) return;
    const mark = proxyLog.length;
    const out = await withHostEnv({ HTTPS_PROXY: withPassword() }, curl(`-k https://registry.test:${httpsPort}/pkg`));
    expect(out).toContain('hello-https-target');
    expect(proxyLog.slice(mark)).toEqual([{ method: 'CONNECT', target: `registry.test:${httpsPort}` }]);
  }, 30_000);

  test('plain http: the absolute-URI request goes to the upstream (lowercase http_proxy, a scheme-less value)', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: http', fx.status)) return;
    const mark = proxyLog.length;
    const out = await withHostEnv({ http_proxy: `alice:${PASSWORD}@127.0.0.1:${upstreamPort}` }, curl(`http://api.corp.test:${httpPort}/simple?x=1`));
    expect(out).toContain('hello-http-target');
    expect(proxyLog.slice(mark)).toEqual([{ method: 'GET', target: `http://api.corp.test:${httpPort}/simple?x=1` }]);
  }, 30_000);

  test('ALL_PROXY is the fallback for both schemes', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: ALL_PROXY', fx.status)) return;
    const mark = proxyLog.length;
    const out = await withHostEnv({ ALL_PROXY: withPassword() }, `${curl(`-k https://registry.test:${httpsPort}/a`)}; ${curl(`http://registry.test:${httpPort}/b`)}`);
    expect(out).toContain('hello-https-target');
    expect(out).toContain('hello-http-target');
    expect(proxyLog.slice(mark).map((entry) => entry.method)).toEqual(['CONNECT', 'GET']);
  }, 30_000);
});

describe('NO_PROXY: a listed host is reached directly, as for MewCode\'s own requests', () => {
  test.each([
    ['https', () => curl(`-k https://api.corp.test:${httpsPort}/`), 'hello-https-target'],
    ['http', () => curl(`http://api.corp.test:${httpPort}/`), 'hello-http-target'],
  ])('%s', async (_scheme, command, expected) => {
    if (skipWithoutSandbox(tally, 'upstream proxy: NO_PROXY', fx.status)) return;
    const mark = proxyLog.length;
    const out = await withHostEnv({ HTTPS_PROXY: withPassword(), HTTP_PROXY: withPassword(), NO_PROXY: 'example.com,.corp.test' }, command());
    expect(out).toContain(expected);
    expect(proxyLog.slice(mark)).toEqual([]);
  }, 30_000);
});

describe('a host not allowed is refused before the upstream proxy is asked', () => {
  test.each([
    ['https', () => curl(`-k https://denied.test:${httpsPort}/`)],
    ['http', () => curl(`http://denied.test:${httpPort}/`)],
    ['the bare domain of a *.name entry', () => curl(`http://corp.test:${httpPort}/`)],
  ])('%s', async (name, command) => {
    if (skipWithoutSandbox(tally, `upstream proxy: refused ${name}`, fx.status)) return;
    const mark = proxyLog.length;
    const before = seen.length;
    const out = await withHostEnv({ HTTPS_PROXY: withPassword(), HTTP_PROXY: withPassword() }, command());
    const escaped = proxyLog.length > mark || seen.length > before || out.includes('-target');
    tally.attempt(`sandbox-upstream-proxy: ${name} to an unlisted host`, escaped);
    expect({ escaped, log: proxyLog.slice(mark) }).toEqual({ escaped: false, log: [] });
  }, 30_000);
});

describe('the upstream proxy\'s refusals are named (never its password)', () => {
  test('407 on a CONNECT: the command gets an error naming the upstream, and MewCode warns', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: 407 CONNECT', fx.status)) return;
    const mark = proxyLog.length;
    const before = seen.length;
    const out = await withHostEnv({ HTTPS_PROXY: `http://alice:wrong-${PASSWORD}@127.0.0.1:${upstreamPort}` }, curl(`-v -k https://registry.test:${httpsPort}/`));
    expect(proxyLog.slice(mark)).toEqual([{ method: 'CONNECT', target: `registry.test:${httpsPort}`, denied: 407 }]);
    expect(out).toMatch(new RegExp(`< HTTP/1.1 502 .*upstream proxy ${upstreamShown().replace(/[.]/g, '\\.')}.*407`));
    expect(out).not.toContain(PASSWORD);
    expect(fx.warnings.join('\n')).toMatch(new RegExp(`upstream proxy ${upstreamShown().replace(/[.]/g, '\\.')} \\(HTTPS_PROXY, with credentials\\) answered 407`));
    expect(fx.warnings.join('\n')).not.toContain(PASSWORD);
    expect(seen.length).toBe(before);
  }, 30_000);

  test('403 on a CONNECT (a host the upstream proxy filters): named, with what to do', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: 403 CONNECT', fx.status)) return;
    const out = await withHostEnv({ https_proxy: withPassword() }, curl(`-v -k https://blocked.corp.test:${httpsPort}/`));
    expect(out).toMatch(new RegExp(`< HTTP/1.1 502 .*upstream proxy ${upstreamShown().replace(/[.]/g, '\\.')} \\(https_proxy, with credentials\\) answered 403 Forbidden for CONNECT blocked\\.corp\\.test`));
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain('hello-https-target');
  }, 30_000);

  test('407 on plain http (no credentials): the body names the upstream proxy', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: 407 http', fx.status)) return;
    const out = await withHostEnv({ HTTP_PROXY: upstreamShown() }, curl(`-i http://registry.test:${httpPort}/`));
    expect(out).toMatch(/^HTTP\/1\.1 502 /m);
    expect(out).toContain(`upstream proxy ${upstreamShown()} (HTTP_PROXY) answered 407`);
  }, 30_000);

  test('an upstream proxy that refuses connections is named', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: refused connection', fx.status)) return;
    const dead = `http://bob:${PASSWORD}@127.0.0.1:${closedPort}`;
    const out = await withHostEnv({ HTTPS_PROXY: dead, HTTP_PROXY: dead }, `${curl(`-v -k https://registry.test:${httpsPort}/`)}; ${curl(`http://registry.test:${httpPort}/`)}`);
    expect(out).toMatch(new RegExp(`< HTTP/1.1 502 .*upstream proxy http://127\\.0\\.0\\.1:${closedPort}`));
    expect(out).toMatch(new RegExp(`cannot reach the upstream proxy http://127\\.0\\.0\\.1:${closedPort} \\(HTTP_PROXY, with credentials\\).*ECONNREFUSED`));
    expect(out).not.toContain(PASSWORD);
  }, 30_000);

  test('a SOCKS proxy in the host environment is refused with its variable named, never bypassed', async () => {
    if (skipWithoutSandbox(tally, 'upstream proxy: socks', fx.status)) return;
    const before = seen.length;
    const out = await withHostEnv({ ALL_PROXY: `socks5://127.0.0.1:${closedPort}` }, curl(`http://registry.test:${httpPort}/`));
    expect(out).toContain('is a SOCKS proxy');
    expect(out).toContain('ALL_PROXY');
    expect(seen.length).toBe(before);
  }, 30_000);
});
