/**
 * Behind a proxy, through the built CLI: a real forward proxy process (CONNECT for https targets,
 * absolute-URI forwarding for http ones) and a gateway with a self-signed CA (NODE_EXTRA_CA_CERTS),
 * both started here; NO_PROXY honoured; a proxy written without a scheme is an http:// one;
 * `mewcode doctor` says which proxy the model requests go through.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import tls from 'node:tls';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario, singleJsonObject, tempDir } from './helpers.js';
import type { ScriptedServer } from '../scripted-server/index.js';

let certs: string;
let proxy: ChildProcess;
let proxyUrl: string;
const proxyLog: { method: string; target: string }[] = [];

function openssl(args: string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
}

beforeAll(async () => {
  await prepareCli();
  certs = tempDir('mewcode-proxy-certs-');
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=MewCode Test CA'], certs);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'gateway.key', '-out', 'gateway.csr', '-subj', '/CN=localhost'], certs);
  writeFileSync(join(certs, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(['x509', '-req', '-in', 'gateway.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'gateway.pem', '-days', '2', '-extfile', 'ext.cnf'], certs);
  proxy = spawn(process.execPath, [join(REPO_ROOT, 'test', 'support', 'forward-proxy.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proxy.stdout! });
  proxyUrl = await new Promise<string>((resolve) => {
    lines.once('line', (port) => {
      lines.on('line', (line) => proxyLog.push(JSON.parse(line)));
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}, 60_000);

afterAll(() => {
  proxy?.kill('SIGTERM');
  removeTempDirs();
});

/** A TLS gateway in front of the scripted server, with the test CA's certificate for localhost. */
async function gateway(server: ScriptedServer): Promise<{ url: string; close(): void }> {
  const port = Number(new URL(server.url).port);
  const tlsServer = tls.createServer({ key: readFileSync(join(certs, 'gateway.key')), cert: readFileSync(join(certs, 'gateway.pem')) }, (socket) => {
    const upstream = net.connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const close = () => (socket.destroy(), upstream.destroy());
    socket.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  return { url: `https://localhost:${(tlsServer.address() as net.AddressInfo).port}`, close: () => tlsServer.close() };
}

const since = (mark: number) => proxyLog.slice(mark);

test('HTTP_PROXY: a request to an http endpoint goes to the proxy as an absolute URI', async () => {
  await scenario([{ text: 'Through the proxy.' }], async (s) => {
    const mark = proxyLog.length;
    const r = await s.run(['-p', 'hi'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Through the proxy.\n');
    expect(since(mark)).toContainEqual({ method: 'POST', target: `${s.server.url}/v1/messages` });
  });
});

test('HTTPS_PROXY + NODE_EXTRA_CA_CERTS: a CONNECT tunnel to a gateway whose CA only that file names', async () => {
  await scenario([{ text: 'Tunnelled.' }], async (s) => {
    const gw = await gateway(s.server);
    try {
      const mark = proxyLog.length;
      const r = await s.run(['-p', 'hi'], { env: { ANTHROPIC_BASE_URL: gw.url, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: join(certs, 'ca.pem') } });
      expect(r.stdout).toBe('Tunnelled.\n');
      expect(since(mark)).toEqual([{ method: 'CONNECT', target: new URL(gw.url).host }]);
      expect(s.requests).toHaveLength(1);
    } finally {
      gw.close();
    }
  });
});

test('a proxy written without a scheme (HTTPS_PROXY=host:port) is a plain HTTP proxy: an https target goes through it in a CONNECT tunnel', async () => {
  await scenario([{ text: 'Scheme-less.' }], async (s) => {
    const gw = await gateway(s.server);
    try {
      const mark = proxyLog.length;
      const r = await s.run(['-p', 'hi'], { env: { ANTHROPIC_BASE_URL: gw.url, HTTPS_PROXY: new URL(proxyUrl).host, NODE_EXTRA_CA_CERTS: join(certs, 'ca.pem') } });
      expect([r.code, r.stderr, r.stdout]).toEqual([0, '', 'Scheme-less.\n']);
      expect(since(mark)).toEqual([{ method: 'CONNECT', target: new URL(gw.url).host }]);
    } finally {
      gw.close();
    }
  });
});

test('lowercase https_proxy, the OpenAI protocol', async () => {
  await scenario(
    [{ text: 'OpenAI via proxy.' }],
    async (s) => {
      const gw = await gateway(s.server);
      try {
        const mark = proxyLog.length;
        const r = await s.run(['-p', 'hi', '--output-format', 'json'], { env: { OPENAI_BASE_URL: `${gw.url}/v1`, https_proxy: proxyUrl, NODE_EXTRA_CA_CERTS: join(certs, 'ca.pem') } });
        expect(singleJsonObject(r.stdout)).toMatchObject({ is_error: false, result: 'OpenAI via proxy.' });
        expect(since(mark).map((e) => e.method)).toEqual(['CONNECT']);
      } finally {
        gw.close();
      }
    },
    'openai',
  );
});

test('NO_PROXY: a listed host is reached directly', async () => {
  await scenario([{ text: 'Direct.' }], async (s) => {
    const gw = await gateway(s.server);
    try {
      const mark = proxyLog.length;
      const r = await s.run(['-p', 'hi'], { env: { ANTHROPIC_BASE_URL: gw.url, HTTPS_PROXY: proxyUrl, NO_PROXY: 'example.com,localhost', NODE_EXTRA_CA_CERTS: join(certs, 'ca.pem') } });
      expect(r.stdout).toBe('Direct.\n');
      expect(since(mark)).toEqual([]);
    } finally {
      gw.close();
    }
  });
});

test('without the CA the gateway is refused with a certificate error (exit 1), through the proxy all the same', async () => {
  await scenario([{ text: 'never' }], async (s) => {
    const gw = await gateway(s.server);
    try {
      writeFileSync(join(s.cwd, '.mewcode.yaml'), `providers: [{name: gw, protocol: anthropic, model: x, api_key: k, base_url: "${gw.url}", max_retries: 0}]\n`);
      const mark = proxyLog.length;
      const r = await s.run(['-p', 'hi', '--trust-project'], { env: { HTTPS_PROXY: proxyUrl } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/certificate/i);
      expect(since(mark)[0]).toEqual({ method: 'CONNECT', target: new URL(gw.url).host });
      expect(s.requests).toHaveLength(0);
    } finally {
      gw.close();
    }
  });
});

test('mewcode doctor says which proxy the model requests go through, never its password, even written without a scheme', async () => {
  await scenario([], async (s) => {
    const endpoint = { ANTHROPIC_BASE_URL: 'https://llm.example.test/v1' };
    const r = await s.run(['doctor'], { env: { ...endpoint, HTTPS_PROXY: 'alice:s3cret@proxy.example:3128', NO_PROXY: 'localhost' } });
    expect(r.stdout).toMatch(/\nok +proxy +model requests to https:\/\/llm\.example\.test: through http:\/\/proxy\.example:3128 \(HTTPS_PROXY, with credentials\); .*except hosts in NO_PROXY=localhost\n/);
    expect(r.stdout + r.stderr).not.toContain('s3cret');
    const exempt = await s.run(['doctor'], { env: { ...endpoint, HTTPS_PROXY: 'http://proxy.example:3128', NO_PROXY: 'example.test' } });
    expect(exempt.stdout).toMatch(/\nok +proxy +model requests to https:\/\/llm\.example\.test: directly \(NO_PROXY entry "example\.test" matches; HTTPS_PROXY not used\)/);
    const none = await s.run(['doctor'], { env: { NO_PROXY: 'localhost' } });
    expect(none.stdout).toMatch(/\nok +proxy +no proxy configured \(no HTTPS_PROXY, HTTP_PROXY or ALL_PROXY\): requests go out directly/);
  });
});

test('a SOCKS proxy (ALL_PROXY=socks5://…) is refused at once, naming the variable, not retried as a network error', async () => {
  await scenario([{ text: 'never' }], async (s) => {
    const r = await s.run(['-p', 'hi'], { env: { ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ALL_PROXY=socks5://127.0.0.1:1080 is a SOCKS proxy, which MewCode does not support');
    expect(r.stderr).not.toMatch(/retrying in/);
    expect(s.requests).toHaveLength(0);
  });
});
