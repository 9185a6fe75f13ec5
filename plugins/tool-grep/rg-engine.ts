/**
 * The ripgrep engine. ripgrep walks and searches natively (parallel, SIMD literals), but the
 * *choice of files* is ours, so that it equals the fallback's exactly whatever rg version is
 * installed:
 * - `--no-ignore` turns off every ignore file ripgrep would read by itself (.gitignore, .ignore,
 *   .rgignore, global excludes, parents); the project walker decides instead, and what it left
 *   out is handed over with `--ignore-file` as anchored literal paths (`/dist/`, `/a/b.log`),
 *   which ripgrep matches relative to its working directory, the project root.
 * - `--hidden` plus an override glob excluding directories named `.*` (`!.*` + `/`): hidden
 *   files are searched, hidden directories are not (the walker's rule). Symlinks are not
 *   followed (ripgrep's default, and the walker's).
 * - `--encoding none` (no BOM sniffing or transcoding), `--no-mmap` (a NUL byte is always seen),
 *   `--json` (binary files are reported with `binary_offset` and dropped, like the fallback's
 *   "NUL anywhere" rule), no config file (`--no-config`).
 * - The `glob` filter is given to ripgrep only as a file-name type filter when that is a superset
 *   (`*.ts`), and every result is filtered again with the same picomatch matcher the fallback uses.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileHitBudget, type LineHit, type ResultCollector } from './results.js';
import type { EngineOutcome } from './re2js-engine.js';

export interface RipgrepSearchOptions {
  rgPath: string;
  root: string;
  /** The start relative to the root (`''` for the root). */
  startRel: string;
  /** The Rust-syntax pattern (see pattern.ts). */
  pattern: string;
  /** Anchored ignore lines from the walker; undefined when ignore files are not honoured. */
  ignoreLines: readonly string[] | undefined;
  /** File-name glob for `--type-add` (a superset of `accept`), if any. */
  typeGlob: string | undefined;
  /** Final filter on paths relative to the root. */
  accept: (relPath: string) => boolean;
  collector: ResultCollector;
  signal: AbortSignal;
  deadline: number;
}

export type RipgrepOutcome = (EngineOutcome & { failed?: undefined }) | { failed: 'pattern' | 'engine'; message: string };

const PATTERN_ERROR = /regex parse error|error parsing regex|not allowed in a regex|multiline mode is enabled|size limit|exceeds/i;
const ENGINE_ERROR = /unrecognized|unexpected argument|Found argument|invalid value|error: /i;
const STDERR_CAP = 64 * 1024;

interface FileState {
  matches: number;
  hits: LineHit[] | undefined;
  budget: FileHitBudget;
}

type RgText = { text?: string; bytes?: string } | undefined;

function decode(value: RgText): string {
  if (!value) return '';
  if (typeof value.text === 'string') return value.text;
  return typeof value.bytes === 'string' ? Buffer.from(value.bytes, 'base64').toString('utf8') : '';
}

function normalisePath(raw: string): string {
  let p = raw;
  while (p.startsWith('./')) p = p.slice(2);
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

export function ripgrepArgs(options: Pick<RipgrepSearchOptions, 'startRel' | 'pattern' | 'typeGlob'>, request: ResultCollector['request'], ignoreFile: string | undefined): string[] {
  const args = ['--no-config', '--json', '--no-mmap', '--encoding=none', '--hidden', '--no-ignore', '--glob=!.*/'];
  if (ignoreFile) args.push(`--ignore-file=${ignoreFile}`);
  if (options.typeGlob) args.push(`--type-add=mewcodeglob:${options.typeGlob}`, '--type=mewcodeglob');
  if (request.mode === 'content') {
    if (request.before > 0) args.push(`--before-context=${request.before}`);
    if (request.after > 0) args.push(`--after-context=${request.after}`);
  }
  args.push(`--regexp=${options.pattern}`, '--', options.startRel === '' ? '.' : options.startRel);
  return args;
}

export async function searchWithRipgrep(options: RipgrepSearchOptions): Promise<RipgrepOutcome> {
  const { collector } = options;
  const wantLines = collector.request.mode === 'content';
  let ignoreFile: string | undefined;
  if (options.ignoreLines && options.ignoreLines.length > 0) {
    ignoreFile = path.join(os.tmpdir(), `mewcode-grep-${process.pid}-${randomBytes(6).toString('hex')}.ignore`);
    writeFileSync(ignoreFile, `${options.ignoreLines.join('\n')}\n`);
  }
  try {
    return await run(options, ripgrepArgs(options, collector.request, ignoreFile), wantLines);
  } finally {
    if (ignoreFile) rmSync(ignoreFile, { force: true });
  }
}

function run(options: RipgrepSearchOptions, args: string[], wantLines: boolean): Promise<RipgrepOutcome> {
  const { collector } = options;
  const { limit, after } = collector.request;
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    const child = spawn(options.rgPath, args, { cwd: options.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const files = new Map<string, FileState>();
    let stderr = '';
    let pending = '';
    let stopped: 'deadline' | 'aborted' | undefined;
    let spawnError: Error | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    const stop = (why: 'deadline' | 'aborted'): void => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
      killTimer.unref();
    };
    const onAbort = (): void => stop('aborted');
    if (options.signal.aborted) stop('aborted');
    options.signal.addEventListener('abort', onAbort, { once: true });
    const deadlineTimer = setTimeout(() => stop('deadline'), Math.max(0, options.deadline - Date.now()));

    const handle = (line: string): void => {
      if (line === '') return;
      let message: { type: string; data: Record<string, unknown> };
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      const data = message.data;
      if (message.type === 'begin') {
        files.set(decode(data.path as RgText), { matches: 0, hits: wantLines ? [] : undefined, budget: new FileHitBudget(limit, after) });
      } else if (message.type === 'match' || message.type === 'context') {
        const state = files.get(decode(data.path as RgText));
        if (!state) return;
        const isMatch = message.type === 'match';
        if (isMatch) state.matches++;
        const line = Number(data.line_number);
        if (state.hits && state.budget.accept(line, isMatch)) state.hits.push({ line, text: decode(data.lines as RgText), match: isMatch });
      } else if (message.type === 'end') {
        const key = decode(data.path as RgText);
        const state = files.get(key);
        files.delete(key);
        if (!state || (data.binary_offset ?? null) !== null) return; // binary: a NUL byte was seen
        const rel = normalisePath(key);
        if (options.accept(rel)) collector.addFile(rel, state.matches, state.hits);
      }
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let nl = pending.indexOf('\n');
      let from = 0;
      while (nl !== -1) {
        handle(pending.slice(from, nl));
        from = nl + 1;
        nl = pending.indexOf('\n', from);
      }
      pending = pending.slice(from);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_CAP) stderr += chunk;
    });
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      clearTimeout(deadlineTimer);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      handle(pending);
      if (spawnError) return resolve({ failed: 'engine', message: spawnError.message });
      if (stopped) return resolve({ unreadable: 0, stopped });
      const errors = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      if (code === 2 && collector.fileCount === 0 && PATTERN_ERROR.test(stderr)) return resolve({ failed: 'pattern', message: stderr.trim() });
      if (code !== 0 && code !== 1 && collector.fileCount === 0 && errors.length > 0 && ENGINE_ERROR.test(errors[0]!) && !/os error/.test(errors[0]!)) {
        return resolve({ failed: 'engine', message: stderr.trim() });
      }
      if (code === null) return resolve({ failed: 'engine', message: 'ripgrep was killed' });
      resolve({ unreadable: errors.filter((l) => /os error|Permission denied|I\/O error/i.test(l)).length });
    });
  });
}
