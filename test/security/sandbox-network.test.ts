/**
 * Adversarial: network by domain inside the OS sandbox (issue 8, `sandbox.allowed_domains`). The
 * sandbox has no network of its own; MewCode's proxy lets listed hosts through and refuses the
 * rest. Every name is mapped to one local server on the host, so "escaped" means the server saw
 * a request it must not have: a refused host, a direct connection, or a trick with the proxy.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostAllowed } from '../../plugins/sandbox-os/domain-proxy.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from '../plugins/sandbox-os/fixture.js';
import { securityTally } from './attempts.js';

const tally = securityTally('sandbox-network');
let server: http.Server;
let port = 0;
const seen: string[] = [];
let fx: SandboxFixture;
let offline: SandboxFixture;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.headers.host} ${request.url}`);
    response.end('hello-from-host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const toLocal = (_host: string, p: number) => ({ host: '127.0.0.1', port: p });
  fx = await sandboxFixture({ sandboxYaml: '\n  allowed_domains: [allowed.test, "*.good.test"]', proxyConnectTo: toLocal });
  offline = await sandboxFixture({ proxyConnectTo: toLocal });
}, 30_000);
afterAll(async () => {
  await fx?.sandbox.dispose();
  await offline?.sandbox.dispose();
  await new Promise((resolve) => server.close(resolve));
  tally.save();
});

const curl = (args: string) => `curl -s -S -m 5 ${args}; echo " curl=$?"`;

describe('allowed hosts are reachable through the proxy', () => {
  test.each([
    ['plain HTTP to a listed host', () => curl(`http://allowed.test:${port}/ok`)],
    ['a tunnel (CONNECT) to a subdomain of a *.name entry', () => curl(`-p http://api.good.test:${port}/ok`)],
  ])('%s', async (_name, command) => {
    if (skipWithoutSandbox(tally, 'network by domain', fx.status)) return;
    const before = seen.length;
    const result = await fx.run(command());
    expect(result.content).toContain('hello-from-host');
    expect(seen.length).toBe(before + 1);
  });
  test.each([
    ['a plain exit status', 'exit 3'],
    ['death by SIGTERM', 'kill -TERM $$'],
    ['death by SIGPIPE (which node ignores)', 'kill -PIPE $$'],
    ['death by SIGUSR1 (which node takes for its inspector)', 'kill -USR1 $$'],
  ])('the bridge in front of the command keeps its exit status: %s', async (_name, command) => {
    if (skipWithoutSandbox(tally, 'network by domain', fx.status)) return;
    const [withBridge, without] = await Promise.all([fx.run(command), offline.run(command)]);
    expect(withBridge.content.split('\n')[0]).toBe(without.content.split('\n')[0]);
  }, 20_000);
  test('the sandbox says which hosts it allows', () => {
    if (skipWithoutSandbox(tally, 'network by domain', fx.status)) return;
    expect(fx.status).toMatchObject({ active: true, network: false, allowedDomains: ['allowed.test', '*.good.test'] });
  });
});

const attempts: [string, () => string][] = [
  ['plain HTTP to an unlisted host', () => curl(`http://denied.test:${port}/`)],
  ['CONNECT to an unlisted host', () => curl(`-p http://denied.test:${port}/`)],
  ['the bare domain of a *.name entry', () => curl(`http://good.test:${port}/`)],
  ['a listed name as a prefix of another domain', () => curl(`http://allowed.test.evil.test:${port}/`)],
  ['a listed name as a suffix without a dot', () => curl(`-p http://evilallowed.test:${port}/`)],
  ['a listed Host header on an unlisted URL', () => curl(`-H 'Host: allowed.test' http://denied.test:${port}/`)],
  ['userinfo that looks like a listed host', () => curl(`http://allowed.test@denied.test:${port}/`)],
  ['an IP literal', () => curl(`http://127.0.0.1:${port}/`)],
  ['bypassing the proxy (--noproxy)', () => curl(`--noproxy '*' http://127.0.0.1:${port}/`)],
  ['bypassing the proxy (-x "")', () => curl(`-x '' http://127.0.0.1:${port}/`)],
  ['a raw socket to the host', () => `python3 -c "import socket;s=socket.create_connection(('127.0.0.1',${port}),2);s.send(b'GET / HTTP/1.0\\r\\n\\r\\n');print(s.recv(100))"`],
  ['a raw CONNECT with a tricky authority', () => `python3 -c "import socket;s=socket.create_connection(('127.0.0.1',3128),2);s.send(b'CONNECT allowed.test:${port}@denied.test:${port} HTTP/1.1\\r\\n\\r\\n');print(s.recv(200))"`],
  ['a raw CONNECT to a port that is no number', () => `python3 -c "import socket;s=socket.create_connection(('127.0.0.1',3128),2);s.send(b'CONNECT allowed.test:${port}x HTTP/1.1\\r\\n\\r\\n');print(s.recv(200))"`],
  ['an origin-form request to the proxy (no absolute URL)', () => `python3 -c "import socket;s=socket.create_connection(('127.0.0.1',3128),2);s.send(b'GET / HTTP/1.1\\r\\nHost: allowed.test:${port}\\r\\n\\r\\n');print(s.recv(200))"`],
];

describe.each(attempts)('attempt: %s', (name, command) => {
  test('never reaches the host', async () => {
    if (skipWithoutSandbox(tally, `network by domain: ${name}`, fx.status)) return;
    const before = seen.length;
    const result = await fx.run(command());
    const escaped = seen.length > before || result.content.includes('hello-from-host');
    tally.attempt(`sandbox-network: ${name}`, escaped);
    expect({ name, escaped, output: escaped ? result.content.slice(0, 300) : '' }).toEqual({ name, escaped: false, output: '' });
  }, 20_000);
});

describe('without allowed_domains the network stays off', () => {
  test.each([
    ['a listed-looking host', () => curl(`http://allowed.test:${port}/`)],
    ['the proxy port', () => curl(`-x http://127.0.0.1:3128 http://allowed.test:${port}/`)],
  ])('%s', async (name, command) => {
    if (skipWithoutSandbox(tally, `network off: ${name}`, offline.status)) return;
    const before = seen.length;
    const result = await offline.run(command());
    const escaped = seen.length > before || result.content.includes('hello-from-host');
    tally.attempt(`sandbox-network: offline, ${name}`, escaped);
    expect(escaped).toBe(false);
  }, 20_000);
});

test('hostAllowed: exact names, *.name for subdomains only, case and trailing dots folded', () => {
  const list = ['registry.npmjs.org', '*.github.com'];
  expect(hostAllowed(list, 'registry.npmjs.org')).toBe(true);
  expect(hostAllowed(list, 'REGISTRY.npmjs.org.')).toBe(true);
  expect(hostAllowed(list, 'npmjs.org')).toBe(false);
  expect(hostAllowed(list, 'evil-registry.npmjs.org')).toBe(false);
  expect(hostAllowed(list, 'api.github.com')).toBe(true);
  expect(hostAllowed(list, 'github.com')).toBe(false);
  expect(hostAllowed(list, 'github.com.evil.io')).toBe(false);
  expect(hostAllowed(list, 'xgithub.com')).toBe(false);
  expect(hostAllowed(list, '')).toBe(false);
});
