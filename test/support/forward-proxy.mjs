// A forward proxy for tests, run as its own process: CONNECT tunnels (https targets) and
// absolute-URI requests (http targets), as corporate proxies serve them. It prints its port on the
// first line of stdout, then one JSON line per request it handled: { method, target }.
import http from 'node:http';
import net from 'node:net';

const log = (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`);
const server = http.createServer((req, res) => {
  // An http target: the request line carries the absolute URI.
  let target;
  try {
    target = new URL(req.url);
  } catch {
    res.writeHead(400).end('absolute URI required');
    return;
  }
  log({ method: req.method, target: target.href });
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  const upstream = http.request(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => res.writeHead(502).end(String(error)));
  req.pipe(upstream);
});
server.on('connect', (req, client, head) => {
  log({ method: 'CONNECT', target: req.url });
  const [host, port] = req.url.split(':');
  const upstream = net.connect(Number(port), host, () => {
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
