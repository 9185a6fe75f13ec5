/**
 * "Is this file tracked by git?" — asked when a saved session is resumed (a transcript committed
 * to the repository came with it). Never used to trust a file: an untracked file may as well
 * have come in an archive. A file outside any repository counts as tracked (with a warning).
 *
 * Read from the repository's index directly (no process, nothing the repository controls can
 * run): the index of format 2 or 3 stores every tracked path in full, sorted, so a walk from the
 * start reads only up to where the path would be (for a project at the repository root, the
 * first few entries: `.mewcode/…` sorts before letters and digits). Also counted as tracked: an ancestor directory tracked as a link or submodule (a file
 * reached through a committed link) or collapsed in a sparse index, and the file's real path
 * when a link inside the repository leads to it. When the index cannot answer with certainty
 * (format 4's compressed paths, a split index, a damaged index), `git ls-files` is
 * asked with fsmonitor and hooks off, no system or global config and a timeout; if even that
 * fails, the file is treated as tracked (fail closed) and the answer says why.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { absolutePathEntries } from '../types/host-path.js';
import { isPathStrictlyWithin } from '../types/path-within.js';
import { readGitFile } from '../types/small-file.js';

export interface TrackedAnswer {
  tracked: boolean;
  /** Set when the answer is a fail-closed guess. */
  warning?: string;
}

const GIT_TIMEOUT_MS = 3000;
/** On these platforms the usual file systems ignore case: `.MewCode/Config.Local.yaml` is the same file. */
const CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

interface Repository {
  worktree: string;
  gitDir: string;
}

/** The repository whose working tree holds `dir` (as git finds it: the nearest `.git` upwards). */
function findRepository(dir: string): Repository | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { worktree: current, gitDir: dotGit };
    if (stat?.isFile()) {
      // A worktree or submodule: `.git` is a file `gitdir: <path>`.
      const match = /^gitdir:\s*(.+?)\s*$/m.exec(readGitFile(dotGit));
      if (match?.[1]) return { worktree: current, gitDir: path.resolve(current, match[1]) };
    }
    if (path.dirname(current) === current) return undefined;
  }
}

/** Repository-relative paths with `/`; undefined when `file` is not inside `worktree`. */
function relativeTo(worktree: string, file: string): string | undefined {
  if (!isPathStrictlyWithin(worktree, file)) return undefined;
  return path.relative(worktree, file).split(path.sep).join('/');
}

/** The paths whose presence in the index makes `rel` count as tracked. */
function candidatePaths(rel: string): string[] {
  const parts = rel.split('/');
  const candidates = [rel];
  for (let i = 1; i < parts.length; i++) {
    const ancestor = parts.slice(0, i).join('/');
    candidates.push(ancestor, `${ancestor}/`); // a link or submodule; a sparse-index directory
  }
  return candidates;
}

type IndexAnswer = 'tracked' | 'untracked' | 'unsure';

/** Reads the index from the start in growing chunks, so a walk that stops early reads little. */
class IndexReader {
  private buffer = Buffer.alloc(0);
  private ended = false;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}

  /** True when bytes [0, end) are available. */
  ensure(end: number): boolean {
    while (this.buffer.length < end && !this.ended) {
      const want = Math.min(this.size, Math.max(end, this.buffer.length * 2, 16 * 1024));
      const next = Buffer.allocUnsafe(want);
      this.buffer.copy(next, 0);
      const read = readSync(this.fd, next, this.buffer.length, want - this.buffer.length, this.buffer.length);
      if (read <= 0) this.ended = true;
      this.buffer = next.subarray(0, this.buffer.length + Math.max(0, read));
      if (this.buffer.length >= this.size) this.ended = true;
    }
    return this.buffer.length >= end;
  }

  get bytes(): Buffer {
    return this.buffer;
  }
}

/**
 * Walks the entries of an index of format 2 or 3 (sorted by path, byte order) until every
 * candidate is passed. `hashLength` is 20 (SHA-1) or 32 (SHA-256); a malformed entry (padding
 * that is not NUL, a file cut short) answers "unsure".
 */
function walkIndex(reader: IndexReader, version: number, count: number, hashLength: number, wanted: readonly Buffer[]): IndexAnswer {
  const last = wanted.reduce((max, path) => (Buffer.compare(path, max) > 0 ? path : max));
  const flagsAt = 40 + hashLength; // ctime, mtime, dev, ino, mode, uid, gid, size: 10 × 4 bytes
  let offset = 12;
  for (let entry = 0; entry < count; entry++) {
    if (!reader.ensure(offset + flagsAt + 4)) return 'unsure';
    let bytes = reader.bytes;
    const flags = bytes.readUInt16BE(offset + flagsAt);
    const extended = version === 3 && (flags & 0x4000) !== 0 ? 2 : 0;
    const nameAt = offset + flagsAt + 2 + extended;
    let nameLength = flags & 0xfff;
    if (nameLength === 0xfff) {
      // A long name: its length is where its NUL is.
      let end = -1;
      for (let upTo = nameAt + 0x1000; end === -1; upTo *= 2) {
        const complete = reader.ensure(upTo);
        end = reader.bytes.indexOf(0, nameAt);
        if (end === -1 && !complete) return 'unsure';
      }
      nameLength = end - nameAt;
    }
    const entryLength = (flagsAt + 2 + extended + nameLength + 8) & ~7;
    if (!reader.ensure(offset + entryLength)) return 'unsure';
    bytes = reader.bytes;
    for (let pad = nameAt + nameLength; pad < offset + entryLength; pad++) if (bytes[pad] !== 0) return 'unsure';
    const name = bytes.subarray(nameAt, nameAt + nameLength);
    const compared = CASE_INSENSITIVE ? Buffer.from(name.toString('latin1').toLowerCase(), 'latin1') : name;
    if (wanted.some((path) => path.equals(compared))) return 'tracked';
    // Sorted by path: once past the last candidate, none of them can follow (case folding aside).
    if (!CASE_INSENSITIVE && Buffer.compare(name, last) > 0) return 'untracked';
    offset += entryLength;
  }
  return 'untracked';
}

function searchIndex(file: string, hashLength: number, paths: readonly string[]): IndexAnswer {
  let fd: number | undefined;
  try {
    // Non-blocking, a regular file only: a FIFO planted as the index would stop the start for good.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile()) return 'unsure';
    const size = info.size;
    const reader = new IndexReader(fd, size);
    if (!reader.ensure(12) || reader.bytes.toString('latin1', 0, 4) !== 'DIRC') return 'unsure';
    const version = reader.bytes.readUInt32BE(4);
    const count = reader.bytes.readUInt32BE(8);
    if (version !== 2 && version !== 3) return 'unsure'; // 4 compresses paths: git reads it
    const wanted = paths.map((path) => Buffer.from(CASE_INSENSITIVE ? path.toLowerCase() : path, 'utf8'));
    return walkIndex(reader, version, count, hashLength, wanted);
  } catch {
    return 'unsure';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function askGit(file: string): Promise<TrackedAnswer> {
  const { execFile } = await import('node:child_process'); // loaded only on this rare path
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = value;
  env.PATH = absolutePathEntries(process.env.PATH, [path.dirname(file), process.cwd()]); // git is found outside the project (types/host-path.ts)
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    // No transport: a partial clone's missing object would be fetched (types/host-path.ts hostGitEnv).
    GIT_ALLOW_PROTOCOL: 'none',
    GIT_NO_LAZY_FETCH: '1',
  });
  const args = ['-c', 'core.fsmonitor=', '-c', 'core.hooksPath=/dev/null', 'ls-files', '--error-unmatch', '--', file];
  return new Promise((resolve) => {
    execFile('git', args, { cwd: path.dirname(file), env, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) return resolve({ tracked: true });
      const code = (error as { code?: unknown }).code;
      if (code === 1 && /did not match/.test(String(stderr))) return resolve({ tracked: false });
      const why = typeof code === 'number' ? String(stderr).trim().split('\n')[0] || `git exited with ${code}` : error.message;
      resolve({ tracked: true, warning: `could not tell whether ${file} is tracked by git (${why}); treating it as part of the project` });
    });
  });
}

/** Whether `file` (which exists) is tracked by the git repository around it. */
export async function isTrackedByGit(file: string): Promise<TrackedAnswer> {
  const lexical = path.resolve(file);
  let repository: Repository | undefined;
  try {
    repository = findRepository(path.dirname(lexical));
  } catch (error) {
    return { tracked: true, warning: `could not look for the git repository around ${lexical} (${(error as Error).message}); treating it as part of the project` };
  }
  // Outside any repository nothing tells a file the user wrote from one that came in a downloaded
  // archive: fail closed, as a project file (its settings then need the project's trust).
  if (!repository) return { tracked: true, warning: `${lexical} is not in a git repository, so MewCode cannot tell that it is your own file; it is treated as part of the project (keep personal settings in ~/.mewcode/, or use git)` };

  const paths = new Set<string>();
  const rel = relativeTo(repository.worktree, lexical);
  if (rel !== undefined) for (const candidate of candidatePaths(rel)) paths.add(candidate);
  try {
    const realRel = relativeTo(realpathSync(repository.worktree), realpathSync(lexical));
    if (realRel !== undefined) paths.add(realRel);
  } catch {
    // The real path is only an extra candidate.
  }
  if (paths.size === 0) return { tracked: false };

  const indexFile = path.join(repository.gitDir, 'index');
  // No index: a fresh `git init` tracks nothing, but a downloaded archive can ship a `.git` without
  // one just as well, and nothing tells the two apart: fail closed, as for no repository at all.
  if (!existsSync(indexFile)) {
    return { tracked: true, warning: `the git repository around ${lexical} has no index, so MewCode cannot tell that the file is your own; it is treated as part of the project (git add a file, or keep personal settings in ~/.mewcode/)` };
  }
  const answer = searchIndex(indexFile, objectHashLength(repository.gitDir), [...paths]);
  if (answer === 'tracked') return { tracked: true };
  if (answer === 'untracked' && !hasSplitIndex(repository.gitDir)) return { tracked: false };
  return askGit(lexical);
}

/** 32 in a SHA-256 repository (`extensions.objectformat = sha256` in its shared config), else 20. */
function objectHashLength(gitDir: string): number {
  try {
    const commonDir = existsSync(path.join(gitDir, 'commondir')) ? path.resolve(gitDir, readGitFile(path.join(gitDir, 'commondir')).trim()) : gitDir;
    return /^\s*objectformat\s*=\s*sha256\s*$/im.test(readGitFile(path.join(commonDir, 'config'))) ? 32 : 20;
  } catch {
    return 20; // a wrong guess only makes the walk find a malformed entry and ask git
  }
}

/** A split index keeps unchanged entries in `sharedindex.*`, so the main index alone is not enough. */
function hasSplitIndex(gitDir: string): boolean {
  try {
    return readdirSync(gitDir).some((name) => name.startsWith('sharedindex.'));
  } catch {
    return true;
  }
}
