/**
 * Which ES modules a child process of the built CLI loads: a resolve hook (node:module register,
 * given through NODE_OPTIONS=--import and so inherited by child processes) appends `<pid> <url>`
 * for every file it resolves to a log, and `<pid> <ms> request:` when the process sends its first
 * HTTP request (node:http's diagnostics channel), so a test can cut at the moment the request left
 * rather than at its arrival, which a loaded machine delays.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempDir } from './helpers.js';

export function hookImport(): { nodeOptions: string; log: string } {
  const dir = tempDir('mewcode-load-hook-');
  const log = join(dir, 'loaded.txt');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:')) appendFileSync(log, process.pid + ' ' + Date.now() + ' ' + result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';
import diagnostics from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
const log = ${JSON.stringify(log)};
register('./hooks.mjs', import.meta.url, { data: { log } });
let sent = false;
diagnostics.subscribe('http.client.request.start', () => {
  if (!sent) appendFileSync(log, process.pid + ' ' + Date.now() + ' ${FIRST_REQUEST}\\n');
  sent = true;
});
`,
  );
  writeFileSync(log, '');
  return { nodeOptions: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}`, log };
}

const FIRST_REQUEST = 'request:first';

/** When (ms since the epoch) each process sent its first HTTP request. */
export function firstRequests(log: string): Map<number, number> {
  return new Map(logLines(log).filter((record) => record.url === FIRST_REQUEST).map((record) => [record.pid, record.at]));
}

/** Each resolve the hook saw: the process, when (ms since the epoch) and the file's URL. */
export function loadRecords(log: string): { pid: number; at: number; url: string }[] {
  return logLines(log).filter((record) => record.url !== FIRST_REQUEST);
}

function logLines(log: string): { pid: number; at: number; url: string }[] {
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [pid, at, ...url] = line.split(' ');
    return { pid: Number(pid), at: Number(at), url: url.join(' ') };
  });
}

/** The files the hook saw resolve, each once. */
export function loadedFiles(log: string): string[] {
  return [...new Set(loadRecords(log).map((record) => record.url))].map((url) => fileURLToPath(url));
}
