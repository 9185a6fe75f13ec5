// A forward proxy for tests, run as its own process: CONNECT tunnels (https targets) and
// absolute-URI requests (http targets), as corporate proxies serve them. It prints its port on the
// first line of stdout, then one JSON line per request it handled: { method, target }.
// Optional, from its environment:
// - FORWARD_PROXY_AUTH=user:password: a request without that Basic Proxy-Authorization gets 407
//   (logged with `denied: 407`), as an authenticating corporate proxy answers;
// - FORWARD_PROXY_RESOLVE_TO=127.0.0.1: every host name is reached at that address, so tests can
//   use names only the proxy "resolves" (as behind a corporate proxy, where the client has no DNS
//   for outside names).
import http from 'node:http';
import net from 'node:net';

const auth = process.env.FORWARD_PROXY_AUTH;
const resolveTo = process.env.FORWARD_PROXY_RESOLVE_TO;
const expected = auth ? `Basic ${Buffer.from(auth).toString('base64')}` : undefined;
const deny = new Set((process.env.FORWARD_PROXY_DENY ?? '').split(',').filter(Boolean));
const log = (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`);
const authorised = (req) => expected === undefined || req.headers['proxy-authorization'] === expected;
const DENIED = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\ncontent-length: 0\r\n\r\n';

const server = http.createServer((req, res) => {
  // An http target: the request line carries the absolute URI.
  let target;
  try {
    target = new URL(req.url);
  } catch {
    res.writeHead(400).end('absolute URI required');
    return;
  }
  if (!authorised(req)) {
    log({ method: req.method, target: target.href, denied: 407 });
    res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end('proxy authentication required\n');
    return;
  }
  if (deny.has(target.hostname)) {
    log({ method: req.method, target: target.href, denied: 403 });
    res.writeHead(403).end('blocked by policy\n');
    return;
  }
  log({ method: req.method, target: target.href });
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = http.request(target, { method: req.method, headers, ...(resolveTo ? { host: resolveTo, hostname: resolveTo } : {}) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => res.writeHead(502).end(String(error)));
  req.pipe(upstream);
});
server.on('connect', (req, client, head) => {
  if (!authorised(req)) {
    log({ method: 'CONNECT', target: req.url, denied: 407 });
    client.end(DENIED);
    return;
  }
  const [host, port] = req.url.split(':');
  if (deny.has(host)) {
    log({ method: 'CONNECT', target: req.url, denied: 403 });
    client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  log({ method: 'CONNECT', target: req.url });
  const upstream = net.connect(Number(port), resolveTo ?? host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  const close = () => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on('error', close);
  client.on('error', close);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
