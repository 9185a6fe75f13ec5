// Skill installs choose their proxy as model requests do (sdk/http/proxy.ts): NO_PROXY ranges are
// honoured, and a proxy MewCode cannot use is refused by name instead of failing obscurely.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpGet, InstallError } from '../../../plugins/skills/install/http-get.js';

let server: http.Server;
let url: string;
const NAMES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'];
const saved = NAMES.map((name) => [name, process.env[name]] as const);

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('listing'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/skills`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  for (const name of NAMES) delete process.env[name];
});

afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const get = () => httpGet(url, { maxBytes: 1000, what: 'the listing', signal: AbortSignal.timeout(10_000), allowedOrigins: new Set([new URL(url).origin]) });

test('a host in a NO_PROXY range is fetched directly, not through the (unreachable) proxy', async () => {
  process.env.HTTP_PROXY = 'http://127.0.0.1:1';
  process.env.NO_PROXY = 'example.test 127.0.0.0/8';
  expect((await get()).toString()).toBe('listing');
});

test('a SOCKS proxy is refused by name, as an install error', async () => {
  process.env.ALL_PROXY = 'socks5://bob:hunter2@127.0.0.1:1';
  const error = await get().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(InstallError);
  expect((error as Error).message).toBe(
    'the listing: ALL_PROXY=socks5://127.0.0.1:1 (with credentials) is a SOCKS proxy, which MewCode does not support (only http:// and https:// proxies): set HTTP_PROXY to an HTTP proxy, list the host in NO_PROXY, or unset ALL_PROXY',
  );
});
