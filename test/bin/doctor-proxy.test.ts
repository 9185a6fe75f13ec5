// `mewcode doctor`'s proxy lines: the route the model requests take, resolved as a request
// resolves it, and never a proxy's password.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProxy } from '../../bin/doctor-proxy.js';

const ANTHROPIC = 'https://api.anthropic.com';
const text = (lines: ReturnType<typeof checkProxy>) => lines.map((line) => `${line.status} ${line.message}${line.hint ? ` — ${line.hint}` : ''}`);

test('the proxy the model requests go through, with its variable; a scheme-less one is http:// and its password is not shown', () => {
  const lines = text(checkProxy({ HTTPS_PROXY: 'alice:TOPSECRET@proxy.corp:3128' }, `${ANTHROPIC}/v1?key=k`));
  expect(lines).toEqual([
    'ok model requests to https://api.anthropic.com: through http://proxy.corp:3128 (HTTPS_PROXY, with credentials); other requests (MCP over HTTP, HTTP hooks, skill installs): https: through http://proxy.corp:3128 (HTTPS_PROXY, with credentials), http: directly',
  ]);
});

test('a value that is no URL keeps nothing before its last @', () => {
  const lines = text(checkProxy({ https_proxy: 'alice:TOP SECRET@proxy corp:3128' }, ANTHROPIC));
  expect(lines.join('\n')).not.toContain('SECRET');
  expect(lines[0]).toBe('fail model requests to https://api.anthropic.com fail: https_proxy=http://***@proxy corp:3128 is not a proxy URL MewCode can read: set it to http://host:port, or unset it — every model request fails until then');
});

test('NO_PROXY alone configures no proxy', () => {
  expect(text(checkProxy({ NO_PROXY: 'localhost' }, ANTHROPIC))).toEqual(['ok no proxy configured (no HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): requests go out directly (NO_PROXY=localhost has nothing to exempt)']);
});

test('a proxy is set but not used for the model endpoint: NO_PROXY covers it, or its scheme has none', () => {
  expect(text(checkProxy({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '.corp.test,::1' }, 'https://llm.corp.test/v1'))[0]).toBe(
    'ok model requests to https://llm.corp.test: directly (NO_PROXY entry ".corp.test" matches; HTTPS_PROXY not used); other requests (MCP over HTTP, HTTP hooks, skill installs): https: through http://proxy.corp:3128 (HTTPS_PROXY), http: directly, except hosts in NO_PROXY=.corp.test,::1',
  );
  expect(text(checkProxy({ HTTPS_PROXY: 'http://proxy.corp:3128' }, 'http://127.0.0.1:11434/v1'))[0]).toMatch(/^ok model requests to http:\/\/127\.0\.0\.1:11434: directly \(no HTTP_PROXY or ALL_PROXY for http: URLs\); /);
});

test('a SOCKS proxy fails the check when the model requests would use it, warns when only the other scheme would', () => {
  expect(text(checkProxy({ ALL_PROXY: 'socks5://bob:pw@127.0.0.1:1080' }, ANTHROPIC))).toEqual([
    'fail model requests to https://api.anthropic.com fail: ALL_PROXY=socks5://127.0.0.1:1080 (with credentials) is a SOCKS proxy, which MewCode does not support (only http:// and https:// proxies): set HTTPS_PROXY to an HTTP proxy, list the host in NO_PROXY, or unset ALL_PROXY — every model request fails until then',
  ]);
  const lines = text(checkProxy({ HTTPS_PROXY: 'proxy.corp:3128', ALL_PROXY: 'socks5h://127.0.0.1:1080' }, ANTHROPIC));
  expect(lines[0]).toMatch(/^ok model requests to https:\/\/api\.anthropic\.com: through http:\/\/proxy\.corp:3128 \(HTTPS_PROXY\); .*http: refused \(ALL_PROXY, below\)$/);
  expect(lines[1]).toMatch(/^warn ALL_PROXY=socks5h:\/\/127\.0\.0\.1:1080 is a SOCKS proxy.*set HTTP_PROXY to an HTTP proxy.* — requests to http: URLs fail until then$/);
  expect(lines).toHaveLength(2);
});

test('without a provider, the route per scheme; NODE_EXTRA_CA_CERTS on a line of its own, warned when unreadable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mewcode-doctor-proxy-'));
  try {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    expect(text(checkProxy({ HTTP_PROXY: 'http://proxy.corp:3128', NODE_EXTRA_CA_CERTS: ca }))).toEqual([
      'ok requests (model, MCP over HTTP, HTTP hooks, skill installs): https: directly, http: through http://proxy.corp:3128 (HTTP_PROXY)',
      `ok NODE_EXTRA_CA_CERTS=${ca}: its CA certificates are trusted for TLS too (read at Node's start-up)`,
    ]);
    expect(text(checkProxy({ NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') }))[1]).toMatch(/^warn NODE_EXTRA_CA_CERTS=.*missing\.pem cannot be read: Node ignores it/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
