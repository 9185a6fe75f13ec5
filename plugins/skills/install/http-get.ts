/**
 * One bounded HTTP GET for installs: the body is never trusted to be the size it announced — a
 * Content-Length over the limit is refused before reading, and the stream is cut the moment it
 * passes the limit (a server lying about a file's size cannot fill the disk). Redirects are
 * followed (at most 3) only to origins the caller allows. Node's own http/https (through a proxy
 * agent when HTTPS_PROXY, HTTP_PROXY or ALL_PROXY names one, sdk/http/proxy.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { proxyFor } from '../../../sdk/http/proxy.js';

export class InstallError extends Error {}

export interface GetOptions {
  maxBytes: number;
  /** What is being fetched, for messages ("the listing of …", "scripts/run.sh"). */
  what: string;
  signal: AbortSignal;
  allowedOrigins: ReadonlySet<string>;
  headers?: Record<string, string>;
}

const MAX_REDIRECTS = 3;

export async function httpGet(url: string, options: GetOptions, redirects = 0): Promise<Buffer> {
  const target = new URL(url);
  if (!options.allowedOrigins.has(target.origin)) throw new InstallError(`${options.what}: refusing to download from ${target.origin}`);
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
  if (!client) throw new InstallError(`${options.what}: unsupported protocol ${target.protocol}`);
  // Behind HTTPS_PROXY / HTTP_PROXY / ALL_PROXY (NO_PROXY honoured), through the proxy; one that cannot be used (SOCKS) is refused by name.
  const proxy = await proxyFor(target).catch((error: Error) => {
    throw new InstallError(`${options.what}: ${error.message}`);
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.get(target, { headers: { 'User-Agent': 'mewcode', Accept: 'application/vnd.github.v3+json', ...options.headers }, signal: options.signal, ...(proxy ? { agent: proxy.agent } : {}) }, resolve);
    request.on('error', reject);
  }).catch((error: Error) => {
    throw new InstallError(options.signal.aborted ? `${options.what}: the install took too long or was cancelled` : `${options.what}: ${error.message}`);
  });
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume();
    if (redirects >= MAX_REDIRECTS) throw new InstallError(`${options.what}: too many redirects`);
    return httpGet(new URL(response.headers.location, target).toString(), options, redirects + 1);
  }
  if (status !== 200) {
    const text = (await readCapped(response, 1024, options).catch(() => Buffer.alloc(0))).toString('utf8');
    if (status === 403 || status === 429) throw new InstallError(`${options.what}: HTTP ${status} (GitHub's rate limit, or access denied): ${text.trim().slice(0, 300)}`);
    if (status === 404) throw new InstallError(`${options.what}: not found (HTTP 404) at ${url}`);
    throw new InstallError(`${options.what}: HTTP ${status}`);
  }
  const announced = Number(response.headers['content-length']);
  if (Number.isFinite(announced) && announced > options.maxBytes) {
    response.destroy();
    throw new InstallError(`${options.what} is ${announced} bytes, over the ${options.maxBytes}-byte limit`);
  }
  return readCapped(response, options.maxBytes, options, true);
}

/** The body, or an error as soon as it passes `maxBytes` (strict: over-long is an error, not a cut). */
function readCapped(response: http.IncomingMessage, maxBytes: number, options: GetOptions, strict = false): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
    };
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        // Settled before the socket is destroyed: the abort that follows is this refusal, not a network error.
        if (strict) settle(() => reject(new InstallError(`${options.what} sent more than ${maxBytes} bytes (over the limit, whatever size it claimed); refused`)));
        else settle(() => resolve(Buffer.concat(chunks)));
        response.destroy();
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => settle(() => resolve(Buffer.concat(chunks))));
    response.on('error', (error) => settle(() => reject(new InstallError(options.signal.aborted ? `${options.what}: the install took too long or was cancelled` : `${options.what}: ${error.message}`))));
    response.on('aborted', () => settle(() => reject(new InstallError(options.signal.aborted ? `${options.what}: the install took too long or was cancelled` : `${options.what}: the connection closed early`))));
  });
}
