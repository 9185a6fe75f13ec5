/**
 * A local HTTP server that answers like GitHub's contents API and raw host, for install tests
 * (no network). A repository is a map of paths to file bodies; a file may lie about its size in
 * the listing, be sent without Content-Length, or a listing may carry hostile names.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFile {
  body: string | Buffer;
  /** The size the listing states (default: the real size). */
  statedSize?: number;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
  /** The Content-Length header sent (a lie) instead of the real one. */
  contentLength?: number;
  /** Send the headers, then wait this long before the body (a slow server). */
  stallMs?: number;
  /** Answer the download with a 302 to this URL instead. */
  redirectTo?: string;
}

export type FakeTree = Record<string, string | Buffer | FakeFile>;

export interface FakeGithub {
  url: string;
  env: { MEWCODE_SKILLS_GITHUB_API: string; MEWCODE_SKILLS_RAW_BASE: string };
  /** owner/repo → tree; paths are relative to the repository root. */
  repos: Map<string, FakeTree>;
  /** Extra listing entries by folder path (`owner/repo:path`), e.g. hostile names. */
  extraEntries: Map<string, unknown[]>;
  requests: string[];
  close(): Promise<void>;
}

const asFile = (value: string | Buffer | FakeFile): FakeFile => (typeof value === 'string' || Buffer.isBuffer(value) ? { body: value } : value);

export async function startFakeGithub(): Promise<FakeGithub> {
  const repos = new Map<string, FakeTree>();
  const extraEntries = new Map<string, unknown[]>();
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${url.pathname}${url.search}`);
    const contents = /^\/repos\/([^/]+)\/([^/]+)\/contents\/?(.*)$/.exec(url.pathname);
    if (contents) {
      const repo = `${decodeURIComponent(contents[1]!)}/${decodeURIComponent(contents[2]!)}`;
      const folder = decodeURIComponent(contents[3] ?? '').replace(/\/$/, '');
      const ref = url.searchParams.get('ref') ?? 'main';
      const tree = repos.get(repo);
      if (!tree) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      const prefix = folder ? `${folder}/` : '';
      const entries = new Map<string, unknown>();
      for (const [file, value] of Object.entries(tree)) {
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length);
        const [first, ...more] = rest.split('/');
        const child = `${prefix}${first}`;
        if (more.length > 0) entries.set(first!, { name: first, path: child, type: 'dir', url: `${base}/repos/${repo}/contents/${child}?ref=${ref}` });
        else {
          const fake = asFile(value);
          const size = Buffer.byteLength(fake.body);
          entries.set(first!, { name: first, path: child, type: 'file', size: fake.statedSize ?? size, download_url: `${base}/raw/${repo}/${ref}/${child}` });
        }
      }
      if (entries.size === 0 && !(folder in tree) && !extraEntries.has(`${repo}:${folder}`)) return void res.writeHead(404).end('{"message":"Not Found"}');
      if (folder in tree) {
        const fake = asFile(tree[folder]!);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: folder.split('/').at(-1), type: 'file', size: Buffer.byteLength(fake.body) }));
      }
      const listing = [...entries.values(), ...(extraEntries.get(`${repo}:${folder}`) ?? [])];
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listing));
    }
    const raw = /^\/raw\/([^/]+)\/([^/]+)\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (raw) {
      const tree = repos.get(`${decodeURIComponent(raw[1]!)}/${decodeURIComponent(raw[2]!)}`);
      const value = tree?.[decodeURIComponent(raw[4]!)];
      if (value === undefined) return void res.writeHead(404).end('404: Not Found');
      const fake = asFile(value);
      if (fake.redirectTo !== undefined) return void res.writeHead(302, { location: fake.redirectTo }).end();
      const body = Buffer.isBuffer(fake.body) ? fake.body : Buffer.from(fake.body);
      if (fake.stallMs !== undefined) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(body.subarray(0, 1));
        const timer = setTimeout(() => res.end(body.subarray(1)), fake.stallMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (fake.chunked) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        // Several writes: the client must stop reading as soon as the limit is passed.
        for (let offset = 0; offset < body.length; offset += 64 * 1024) res.write(body.subarray(offset, offset + 64 * 1024));
        return void res.end();
      }
      if (fake.contentLength !== undefined) {
        res.writeHead(200, { 'content-length': String(fake.contentLength) });
        return void res.end(body.subarray(0, Math.min(body.length, fake.contentLength)));
      }
      return void res.writeHead(200, { 'content-length': String(body.length) }).end(body);
    }
    res.writeHead(404).end('no route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    env: { MEWCODE_SKILLS_GITHUB_API: base, MEWCODE_SKILLS_RAW_BASE: `${base}/raw` },
    repos,
    extraEntries,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
