// Which proxy a request goes through, read from the real process environment as every request
// reads it (model providers, MCP over HTTP, HTTP hooks, skill installs): the scheme's variable,
// the ALL_PROXY fallback, NO_PROXY with curl's spellings, and proxies that cannot be used.
import { proxyUrlFor } from '../../sdk/http/proxy.js';

const NAMES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'];

/** The proxy for `url` with exactly `env`'s proxy variables set (undefined: direct). */
async function proxyOf(url: string, env: Record<string, string>): Promise<string | undefined> {
  const saved = NAMES.map((name) => [name, process.env[name]] as const);
  for (const name of NAMES) delete process.env[name];
  Object.assign(process.env, env);
  try {
    return await proxyUrlFor(new URL(url));
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const P = 'http://proxy.test:3128';

describe('a proxy written without a scheme', () => {
  test('is an http:// proxy for https: and http: targets (CONNECT for https), as curl, npm, git and pip read it', async () => {
    expect(await proxyOf('https://api.anthropic.com/v1/messages', { HTTPS_PROXY: '127.0.0.1:18182' })).toBe('http://127.0.0.1:18182');
    expect(await proxyOf('https://api.anthropic.com/', { HTTPS_PROXY: ' proxy.corp:8080 ' })).toBe('http://proxy.corp:8080');
    expect(await proxyOf('http://ollama.lan:11434/', { HTTP_PROXY: 'proxy.corp:8080' })).toBe('http://proxy.corp:8080');
    expect(await proxyOf('https://api.openai.com/', { HTTPS_PROXY: 'alice:pw@proxy.corp:3128' })).toBe('http://alice:pw@proxy.corp:3128');
    // A scheme that is written stays.
    expect(await proxyOf('https://api.openai.com/', { HTTPS_PROXY: 'https://proxy.corp:443' })).toBe('https://proxy.corp:443');
  });

  test('in whichever variable applies: lowercase before uppercase, the scheme before ALL_PROXY; an empty variable is unset', async () => {
    expect(await proxyOf('https://a.test/', { https_proxy: 'lower:1', HTTPS_PROXY: 'upper:2' })).toBe('http://lower:1');
    expect(await proxyOf('https://a.test/', { https_proxy: '', HTTPS_PROXY: 'upper:2' })).toBe('http://upper:2');
    expect(await proxyOf('https://a.test/', { ALL_PROXY: 'all:3', HTTP_PROXY: 'plain:4' })).toBe('http://all:3');
    expect(await proxyOf('http://a.test/', { all_proxy: 'all:3', HTTPS_PROXY: 'secure:5' })).toBe('http://all:3');
    expect(await proxyOf('http://a.test/', { HTTPS_PROXY: 'secure:5' })).toBeUndefined();
  });
});

describe("NO_PROXY as curl reads it", () => {
  const via = (url: string, noProxy: string) => proxyOf(url, { HTTPS_PROXY: P, HTTP_PROXY: P, NO_PROXY: noProxy });

  test('IPv6 loopback, bare (the form the OS sandbox writes), in full, in brackets and as a range', async () => {
    for (const entry of ['::1', '0:0:0:0:0:0:0:1', '[::1]', '::1/128', 'localhost,127.0.0.1,::1']) {
      expect([entry, await via('https://[::1]:8443/v1', entry)]).toEqual([entry, undefined]);
      expect([entry, await via('http://[0:0:0:0:0:0:0:1]/', entry)]).toEqual([entry, undefined]);
    }
    expect(await via('https://[::2]/', '::1')).toBe(P);
    expect(await via('https://[fd12:3456::1]/', 'fd00::/8')).toBeUndefined();
    expect(await via('https://[fe80::1]/', 'fd00::/8')).toBe(P);
  });

  test('a name covers the names below it at a label boundary, with or without a leading . or *.', async () => {
    expect(await via('https://api.corp.test/', 'corp.test')).toBeUndefined();
    expect(await via('https://corp.test/', '.corp.test')).toBeUndefined();
    expect(await via('https://a.b.corp.test/', '*.corp.test')).toBeUndefined();
    expect(await via('https://corp.test/', '*.corp.test')).toBeUndefined();
    expect(await via('https://API.Corp.Test./', 'CORP.test')).toBeUndefined();
    expect(await via('https://evilcorp.test/', 'corp.test')).toBe(P);
    expect(await via('https://evilcorp.test/', '.corp.test')).toBe(P);
    expect(await via('https://corp.test.evil/', 'corp.test')).toBe(P);
  });

  test('entries separated by commas and white space; * exempts every host, alone or in a list', async () => {
    expect(await via('https://api.corp.test/', 'a.test  b.test,\tcorp.test ,')).toBeUndefined();
    expect(await via('https://anything.example/', 'a.test, *')).toBeUndefined();
    expect(await via('https://api.corp.test/', 'a.test,,b.test')).toBe(P);
  });

  test('IPv4 addresses and ranges; names are never resolved', async () => {
    expect(await via('http://10.1.2.3:8080/', '10.0.0.0/8')).toBeUndefined();
    expect(await via('http://127.9.9.9/', '127.0.0.0/8')).toBeUndefined();
    expect(await via('http://11.0.0.1/', '10.0.0.0/8')).toBe(P);
    expect(await via('https://localhost/', '127.0.0.1,::1')).toBe(P);
    expect(await via('https://127.0.0.1/', 'localhost')).toBe(P);
    // A name is not a suffix of an address.
    expect(await via('https://10.0.0.1/', '0.0.1')).toBe(P);
    // Nonsense matches nothing (it does not exempt everything).
    expect(await via('https://10.0.0.1/', '10.0.0.0/40,[::1')).toBe(P);
  });

  test('entry:port matches that port only (the default one when the URL has none)', async () => {
    expect(await via('https://api.corp.test:8443/', 'corp.test:8443')).toBeUndefined();
    expect(await via('https://api.corp.test/', 'corp.test:8443')).toBe(P);
    expect(await via('https://127.0.0.1/', '127.0.0.1:443')).toBeUndefined();
    expect(await via('http://127.0.0.1/', '127.0.0.1:443')).toBe(P);
    expect(await via('https://[::1]:8443/', '[::1]:8443')).toBeUndefined();
    expect(await via('https://[::1]:9443/', '[::1]:8443')).toBe(P);
    expect(await via('https://10.2.3.4:443/', '10.0.0.0/8:443')).toBeUndefined();
  });

  test('lowercase no_proxy wins over NO_PROXY', async () => {
    expect(await proxyOf('https://api.corp.test/', { HTTPS_PROXY: P, no_proxy: 'corp.test', NO_PROXY: 'other.test' })).toBeUndefined();
    expect(await proxyOf('https://other.test/', { HTTPS_PROXY: P, no_proxy: 'corp.test', NO_PROXY: 'other.test' })).toBe(P);
  });
});

describe('a proxy that cannot be used is refused by name, its password never shown', () => {
  test('SOCKS: ALL_PROXY=socks5://… and HTTPS_PROXY=socks5h://…', async () => {
    await expect(proxyOf('https://api.anthropic.com/', { ALL_PROXY: 'socks5://bob:hunter2@127.0.0.1:1080' })).rejects.toThrow(
      'ALL_PROXY=socks5://127.0.0.1:1080 (with credentials) is a SOCKS proxy, which MewCode does not support (only http:// and https:// proxies): set HTTPS_PROXY to an HTTP proxy, list the host in NO_PROXY, or unset ALL_PROXY',
    );
    await expect(proxyOf('https://api.anthropic.com/', { https_proxy: 'socks5h://proxy.corp:1080' })).rejects.toThrow(/^https_proxy=socks5h:\/\/proxy\.corp:1080 is a SOCKS proxy/);
    const refusal = await proxyOf('https://api.anthropic.com/', { ALL_PROXY: 'socks5://bob:hunter2@127.0.0.1:1080' }).catch((error: Error) => error.message);
    expect(refusal).not.toContain('hunter2');
  });

  test('only where it applies: the scheme with an HTTP proxy and the hosts in NO_PROXY are unaffected', async () => {
    const env = { HTTPS_PROXY: P, ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: 'localhost' };
    expect(await proxyOf('https://api.anthropic.com/', env)).toBe(P);
    expect(await proxyOf('http://localhost:11434/', env)).toBeUndefined();
    await expect(proxyOf('http://ollama.lan:11434/', env)).rejects.toThrow(/^ALL_PROXY=socks5:\/\/127\.0\.0\.1:1080 is a SOCKS proxy.*set HTTP_PROXY/);
  });

  test('a value that is no URL at all: nothing before its last @ is shown', async () => {
    const refusal = await proxyOf('https://api.anthropic.com/', { HTTPS_PROXY: 'alice:TOP SECRET@proxy corp:3128' }).then(
      () => 'not refused',
      (error: Error) => error.message,
    );
    expect(refusal).toBe('HTTPS_PROXY=http://***@proxy corp:3128 is not a proxy URL MewCode can read: set it to http://host:port, or unset it');
  });
});
