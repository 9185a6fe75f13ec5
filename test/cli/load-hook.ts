/**
 * Which ES modules a child process of the built CLI loads: a resolve hook (node:module register,
 * given through NODE_OPTIONS=--import and so inherited by child processes) appends `<pid> <url>`
 * for every file it resolves to a log, and `<pid> <ms> request:` when the process sends its first
 * HTTP request (node:http's diagnostics channel), so a test can cut at the moment the request left
 * rather than at its arrival, which a loaded machine delays, and `<pid> <ms> warm-up:` when the
 * kernel's idle warm-up starts (which a loaded machine may start before the request has left).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WARM_UP_CHANNEL } from '../../kernel/kernel.js';
import { REPO_ROOT, tempDir } from './helpers.js';

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
diagnostics.subscribe(${JSON.stringify(WARM_UP_CHANNEL)}, () => {
  appendFileSync(log, process.pid + ' ' + Date.now() + ' ${WARM_UP}\\n');
});
`,
  );
  writeFileSync(log, '');
  return { nodeOptions: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}`, log };
}

const FIRST_REQUEST = 'request:first';
const WARM_UP = 'warm-up:';

/**
 * Where in the log each process sent its first HTTP request. Records are appended as things happen
 * (the main thread's and the resolve hook's alike), so a record's place in the log orders it: finer
 * than the clock, whose milliseconds a request and the warm-up it raced can share.
 */
export function firstRequests(log: string): Map<number, number> {
  return new Map(logLines(log).filter((record) => record.url === FIRST_REQUEST).map((record) => [record.pid, record.seq]));
}

/** Where in the log each process's kernel started its idle warm-up. */
export function warmUpStarts(log: string): Map<number, number> {
  return new Map(logLines(log).filter((record) => record.url === WARM_UP).map((record) => [record.pid, record.seq]));
}

/** Each resolve the hook saw: the process, its place in the log and the file's URL. */
export function loadRecords(log: string): { pid: number; seq: number; url: string }[] {
  return logLines(log).filter((record) => record.url !== FIRST_REQUEST && record.url !== WARM_UP);
}

function logLines(log: string): { pid: number; seq: number; url: string }[] {
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line, seq) => {
    const [pid, , ...url] = line.split(' ');
    return { pid: Number(pid), seq, url: url.join(' ') };
  });
}

/** The files the hook saw resolve, each once. */
export function loadedFiles(log: string): string[] {
  return [...new Set(loadRecords(log).map((record) => record.url))].map((url) => fileURLToPath(url));
}

const DIST = join(REPO_ROOT, 'dist') + '/';

/**
 * The bundle's files (dist/) each process loaded; with `untilFirstRequest`, only those resolved
 * before the process sent its first HTTP request or started its idle warm-up, whichever came first
 * (a loaded machine may start the warm-up while the provider still builds the request).
 */
export function distFilesByProcess(log: string, untilFirstRequest = false): Map<number, Set<string>> {
  const sent = firstRequests(log);
  const warmed = warmUpStarts(log);
  const byPid = new Map<number, Set<string>>();
  for (const { pid, seq, url } of loadRecords(log)) {
    if (untilFirstRequest && seq > Math.min(sent.get(pid) ?? Infinity, warmed.get(pid) ?? Infinity)) continue;
    const file = decodeURIComponent(new URL(url).pathname);
    if (!file.startsWith(DIST)) continue;
    if (!byPid.has(pid)) byPid.set(pid, new Set());
    byPid.get(pid)!.add(file);
  }
  return byPid;
}
