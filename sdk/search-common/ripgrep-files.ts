/**
 * The project's files as `rg --files` lists them (with the walker's rules as flags,
 * ripgrep-selection.ts): glob's lister when `rg` is on PATH. ripgrep walks on every core; this
 * process only splits its NUL-separated output. Names are bytes: one that is not valid UTF-8 is
 * shown decoded (U+FFFD for the bad bytes) and handed over as bytes too, to be opened as it is.
 */
import { spawnRipgrep } from './find-ripgrep.js';
import { withSelectionArgs } from './ripgrep-selection.js';

export interface RipgrepListOptions {
  rgPath: string;
  root: string;
  /** The directory to list, relative to the root (`''` for the root). */
  startRel: string;
  respectIgnore: boolean;
  /** The user's home directory: a repository holding it gives no rules from above the project (outer-ignore.ts). */
  homeDir?: string;
  /** A file-name glob ripgrep may pre-filter with (a superset of what the caller keeps). */
  typeGlob: string | undefined;
  signal: AbortSignal;
  deadline: number;
  /** Each file, relative to the root; `bytes` is its exact name when that is not valid UTF-8. */
  onFile(relPath: string, bytes: Buffer | undefined): void;
}

export type RipgrepListOutcome = { failed?: undefined; unreadableDirs: number; stopped?: 'deadline' | 'aborted' } | { failed: string };

export function listWithRipgrep(options: RipgrepListOptions): Promise<RipgrepListOutcome> {
  return withSelectionArgs(options.root, options.startRel, options.respectIgnore, options.homeDir, (selection) => {
    const args = [...selection, '--files', '--null'];
    if (options.typeGlob) args.push(`--type-add=mewcodeglob:${options.typeGlob}`, '--type=mewcodeglob');
    args.push('--', options.startRel === '' ? '.' : options.startRel);
    return run(options, args);
  });
}

function run(options: RipgrepListOptions, args: string[]): Promise<RipgrepListOutcome> {
  return new Promise((resolve) => {
    const child = spawnRipgrep(options.rgPath, options.root, args);
    let stderr = '';
    let stopped: 'deadline' | 'aborted' | undefined;
    let spawnError: Error | undefined;
    let pending: Buffer | undefined;

    const stop = (why: 'deadline' | 'aborted'): void => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop('aborted');
    if (options.signal.aborted) stop('aborted');
    options.signal.addEventListener('abort', onAbort, { once: true });
    // A deadline already past stops it now: a timer of 0 ms could fire after a fast ripgrep closed.
    if (Date.now() >= options.deadline) stop('deadline');
    const deadlineTimer = setTimeout(() => stop('deadline'), Math.max(0, options.deadline - Date.now()));

    const handle = (name: Buffer): void => {
      let at = 0;
      while (name[at] === 0x2e && name[at + 1] === 0x2f) at += 2; // `./`
      const bytes = at === 0 ? name : name.subarray(at);
      if (bytes.length === 0) return;
      const rel = bytes.toString('utf8');
      // Only a name that does not survive decoding needs its bytes (rare: checked by a cheap test first).
      const exact = rel.includes('\uFFFD') && !Buffer.from(rel, 'utf8').equals(bytes) ? Buffer.from(bytes) : undefined;
      options.onFile(rel, exact);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      const data = pending ? Buffer.concat([pending, chunk]) : chunk;
      let from = 0;
      let end = data.indexOf(0);
      while (end !== -1) {
        if (!stopped) handle(data.subarray(from, end));
        from = end + 1;
        end = data.indexOf(0, from);
      }
      pending = from < data.length ? Buffer.from(data.subarray(from)) : undefined;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      clearTimeout(deadlineTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (spawnError) return resolve({ failed: spawnError.message });
      if (stopped) return resolve({ unreadableDirs: 0, stopped });
      if (pending) handle(pending);
      const errors = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      if (code === null || (code === 2 && errors.length > 0 && !errors.some((l) => /os error|Permission denied|I\/O error/i.test(l)))) {
        return resolve({ failed: stderr.trim() || `rg exited with ${String(code)}` });
      }
      resolve({ unreadableDirs: errors.filter((l) => /os error|Permission denied|I\/O error/i.test(l)).length });
    });
  });
}
