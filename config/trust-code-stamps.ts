/**
 * Remembers, per user, what the trust scan found a project's code to load and its digest, with
 * the stamp of every file of it and of every folder on the way from the project root, so a start
 * whose code did not change reads stamps instead of hashing hundreds of files again (a server on
 * the MCP SDK loads ≈ 550 files from node_modules: ≈ 300 ms hashed, a few ms stamped).
 *
 * A stamp is device, inode, size, and the modification and change times in nanoseconds. The
 * change time cannot be set by a process (a write, a rename, a chmod or a link all move it to the
 * clock's now), so a sandboxed command cannot rewrite a file and keep its stamp; a file added
 * beside one (a `lib` that `require('./lib')` would take before `lib.js`) changes its folder's
 * stamp. A stamp whose change time is within STAMP_SETTLE_MS of when it was taken is not reused
 * (a write in the same clock tick would leave it as it was, as git's racy-clean rule says).
 *
 * Kept in ~/.mewcode/trust-code-cache.json (0600, read only when the user owns it and no one else
 * can write it, as trust.json): a command in the OS sandbox cannot write the home directory.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { readPrivateFile, writePrivateFile } from './trust-store.js';
import { isPathStrictlyWithin } from '../types/path-within.js';

export const STAMP_SETTLE_MS = 2000;
/** Projects remembered (the most recently scanned). */
export const MAX_CACHED_PROJECTS = 32;

export interface CachedCode {
  digest: string;
  size: number;
  loads: number;
  /** Path (absolute) → stamp, of every file of it and every folder from the project root down to them. */
  stamps: Record<string, string>;
  /** When the stamps were taken (ms since the epoch). */
  at: number;
  /** The folders of its Python files: searched first when they run (trust-code-python-path.ts). */
  pythonDirs: string[];
}

interface CacheFile {
  version: 1;
  projects: Record<string, { used: number; code: Record<string, CachedCode> }>;
}

export const codeCachePath = (homeDir: string): string => path.join(homeDir, '.mewcode', 'trust-code-cache.json');

export function stampOf(file: string): string | undefined {
  try {
    const info = statSync(file, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return undefined;
  }
}

const ctimeMsOf = (stamp: string): number => Number(BigInt(stamp.slice(stamp.lastIndexOf(':') + 1)) / 1_000_000n);

/** The stamps of `files` and of every folder between `root` and them (the root included). */
export function stampsOf(files: Iterable<string>, root: string): Record<string, string> | undefined {
  const stamps: Record<string, string> = {};
  const add = (target: string): boolean => {
    if (Object.hasOwn(stamps, target)) return true;
    const stamp = stampOf(target);
    if (stamp === undefined) return false;
    stamps[target] = stamp;
    return true;
  };
  for (const file of files) {
    if (!add(file)) return undefined;
    for (let dir = path.dirname(file); isPathStrictlyWithin(root, dir); dir = path.dirname(dir)) if (!add(dir)) return undefined;
  }
  return add(root) ? stamps : undefined;
}

export interface CodeCache {
  /** The remembered result for a named file, when every stamp still holds and had settled. */
  get(file: string): CachedCode | undefined;
  set(file: string, entry: CachedCode): void;
  /** Writes the cache when something changed; a failure only costs the next start its speed. */
  save(): Promise<void>;
}

function isCached(value: unknown): value is CachedCode {
  const entry = value as CachedCode | null;
  return typeof entry === 'object' && entry !== null && typeof entry.digest === 'string' && typeof entry.size === 'number' && typeof entry.loads === 'number' && typeof entry.at === 'number' && typeof entry.stamps === 'object' && entry.stamps !== null && Array.isArray(entry.pythonDirs) && entry.pythonDirs.every((dir) => typeof dir === 'string');
}

export function openCodeCache(homeDir: string, projectRoot: string, now: () => number = Date.now): CodeCache {
  const file = codeCachePath(homeDir);
  let cache: CacheFile = { version: 1, projects: {} };
  const read = readPrivateFile(file);
  if ('text' in read) {
    try {
      const parsed = JSON.parse(read.text) as CacheFile;
      if (parsed?.version === 1 && typeof parsed.projects === 'object' && parsed.projects !== null) cache = parsed;
    } catch {
      // A broken cache is rebuilt.
    }
  }
  const project = Object.hasOwn(cache.projects, projectRoot) ? cache.projects[projectRoot]! : undefined;
  const fresh: Record<string, CachedCode> = {};
  let dirty = false;
  return {
    get(named) {
      const entry = project && Object.hasOwn(project.code, named) ? project.code[named] : undefined;
      if (!isCached(entry)) return undefined;
      for (const [target, stamp] of Object.entries(entry.stamps)) {
        if (typeof stamp !== 'string' || stampOf(target) !== stamp || ctimeMsOf(stamp) >= entry.at - STAMP_SETTLE_MS) return undefined;
      }
      fresh[named] = entry;
      return entry;
    },
    set(named, entry) {
      fresh[named] = entry;
      dirty = true;
    },
    async save() {
      const before = project ? Object.keys(project.code).sort().join('\n') : '';
      if (!dirty && before === Object.keys(fresh).sort().join('\n')) return;
      const projects = { ...cache.projects, [projectRoot]: { used: now(), code: fresh } };
      const kept = Object.entries(projects)
        .sort(([, a], [, b]) => b.used - a.used)
        .slice(0, MAX_CACHED_PROJECTS);
      try {
        await writePrivateFile(file, `${JSON.stringify({ version: 1, projects: Object.fromEntries(kept) })}\n`);
      } catch {
        // Not remembered: the next start hashes again.
      }
    },
  };
}
