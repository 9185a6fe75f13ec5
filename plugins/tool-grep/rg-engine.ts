/**
 * The ripgrep engine finds the files that match; the lines shown are always read by this
 * process. ripgrep walks and searches natively (parallel, SIMD literals), so it answers "which
 * files match" fast, but it opens files and directories by path: a symlink swapped in while it
 * runs would be followed out of the project (A15). So its answer is only a candidate list:
 * each candidate is searched again with re2js through a descriptor verified to be exactly the file
 * the name denotes (re2js-engine.ts, exact-open.ts), and only that search produces lines and counts.
 * A swap can at most make ripgrep miss or propose a file; it can never put outside content in
 * the result. The output is the fallback's by construction.
 *
 * The *choice of files* is ours, so that it equals the fallback's exactly whatever rg version is
 * installed:
 * - `--no-ignore` turns off every ignore file ripgrep would read by itself (.gitignore, .ignore,
 *   .rgignore, global excludes, parents); the project walker decides instead, and what it left
 *   out is handed over with `--ignore-file` as anchored literal paths (`/dist/`, `/a/b.log`),
 *   which ripgrep matches relative to its working directory, the project root.
 * - `--hidden` plus an override glob excluding directories named `.*` (`!.*` + `/`): hidden
 *   files are searched, hidden directories are not (the walker's rule). Symlinks are not
 *   followed (no `--follow`: ripgrep's default, and the walker's).
 * - `--encoding none` (no BOM sniffing or transcoding), `--no-mmap`, no config file
 *   (`--no-config`), `--files-with-matches --null` (one NUL-terminated name per matching file).
 * - The `glob` filter is given to ripgrep only as a file-name type filter when that is a superset
 *   (`*.ts`), and every candidate is filtered again with the same matcher the fallback uses.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  signal: AbortSignal;
  deadline: number;
}

/** `candidates`: files (relative to the root, accepted) ripgrep found a match in. */
export type RipgrepOutcome = (EngineOutcome & { failed?: undefined; candidates: string[] }) | { failed: 'pattern' | 'engine'; message: string };

const PATTERN_ERROR = /regex parse error|error parsing regex|not allowed in a regex|multiline mode is enabled|size limit|exceeds/i;
const ENGINE_ERROR = /unrecognized|unexpected argument|Found argument|invalid value|error: /i;
const STDERR_CAP = 64 * 1024;

function normalisePath(raw: string): string {
  let p = raw;
  while (p.startsWith('./')) p = p.slice(2);
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

export function ripgrepArgs(options: Pick<RipgrepSearchOptions, 'startRel' | 'pattern' | 'typeGlob'>, ignoreFile: string | undefined): string[] {
  const args = ['--no-config', '--files-with-matches', '--null', '--no-mmap', '--encoding=none', '--hidden', '--no-ignore', '--glob=!.*/'];
  if (ignoreFile) args.push(`--ignore-file=${ignoreFile}`);
  if (options.typeGlob) args.push(`--type-add=mewcodeglob:${options.typeGlob}`, '--type=mewcodeglob');
  args.push(`--regexp=${options.pattern}`, '--', options.startRel === '' ? '.' : options.startRel);
  return args;
}

export async function searchWithRipgrep(options: RipgrepSearchOptions): Promise<RipgrepOutcome> {
  let ignoreFile: string | undefined;
  if (options.ignoreLines && options.ignoreLines.length > 0) {
    ignoreFile = path.join(os.tmpdir(), `mewcode-grep-${process.pid}-${randomBytes(6).toString('hex')}.ignore`);
    writeFileSync(ignoreFile, `${options.ignoreLines.join('\n')}\n`);
  }
  try {
    return await run(options, ripgrepArgs(options, ignoreFile));
  } finally {
    if (ignoreFile) rmSync(ignoreFile, { force: true });
  }
}

function run(options: RipgrepSearchOptions, args: string[]): Promise<RipgrepOutcome> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.RIPGREP_CONFIG_PATH;
    const child = spawn(options.rgPath, args, { cwd: options.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const candidates: string[] = [];
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

    const handle = (name: string): void => {
      if (name === '') return;
      const rel = normalisePath(name);
      if (options.accept(rel)) candidates.push(rel);
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let end = pending.indexOf('\0');
      let from = 0;
      while (end !== -1) {
        handle(pending.slice(from, end));
        from = end + 1;
        end = pending.indexOf('\0', from);
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
      if (stopped) return resolve({ unreadable: 0, stopped, candidates });
      const errors = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      if (code === 2 && candidates.length === 0 && PATTERN_ERROR.test(stderr)) return resolve({ failed: 'pattern', message: stderr.trim() });
      if (code !== 0 && code !== 1 && candidates.length === 0 && errors.length > 0 && ENGINE_ERROR.test(errors[0]!) && !/os error/.test(errors[0]!)) {
        return resolve({ failed: 'engine', message: stderr.trim() });
      }
      if (code === null) return resolve({ failed: 'engine', message: 'ripgrep was killed' });
      resolve({ unreadable: errors.filter((l) => /os error|Permission denied|I\/O error/i.test(l)).length, candidates });
    });
  });
}
