/**
 * `~/.mewcode/trust.json`: the projects the user trusted, by real path, with the hash of the
 * settings (and the code they name) they trusted, and one hash per setting (`items`, to say
 * what changed; absent in records written before it existed).
 *
 * ```json
 * { "version": 1, "projects": { "/home/me/src/app": { "hash": "sha256:…", "trusted_at": "2026-…",
 *   "items": { ".mcp.json: mcpServers": "sha256:…", "tools/server.js: code": "sha256:…" } } } }
 * ```
 *
 * Read with O_NOFOLLOW (a link there is ignored, loudly: it could point into a repository) and
 * only when it is a regular file of this user that nobody else can write. Written to a new file
 * in the same directory (O_EXCL | O_NOFOLLOW, mode 0600) and renamed over, so a reader never
 * sees half a file and a link planted at trust.json is never written through (it is refused).
 */
import { parseJsonWithinDepth } from './nesting-depth.js';
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { overCapProblem, readConfigDescriptor } from './config-file.js';

export interface TrustRecord {
  hash: string;
  trusted_at: string;
  /** `<file>: <key>` → the hash of that setting's value, as trusted. */
  items?: Record<string, string>;
}

export interface TrustFile {
  version: 1;
  projects: Record<string, TrustRecord>;
}

export const trustFilePath = (homeDir: string): string => path.join(homeDir, '.mewcode', 'trust.json');

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export interface ReadTrust {
  file: TrustFile;
  warning?: string;
}

const empty = (): TrustFile => ({ version: 1, projects: {} });

function isRecord(value: unknown): value is TrustRecord {
  return typeof value === 'object' && value !== null && typeof (value as TrustRecord).hash === 'string';
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const map: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') map[key] = item;
  return map;
}

/**
 * A private file of the user's MewCode directory, as text: refused when it is a link, not a
 * regular file, owned by someone else or writable by others (what it says would not be the
 * user's). `missing` when there is none.
 */
export function readPrivateFile(file: string): { text: string } | { missing: true } | { warning: string } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    if (code === 'ELOOP') return { warning: `${file} is a symbolic link; it is ignored` };
    return { warning: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { warning: `${file} is not a regular file; it is ignored` };
    const uid = process.getuid?.();
    if ((uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o022) !== 0)) {
      return { warning: `${file} is owned by someone else or writable by others; it is ignored (chmod 600 it if it is yours)` };
    }
    const text = readConfigDescriptor(fd, stat.size);
    return text === undefined ? { warning: `${overCapProblem(file)}; it is ignored` } : { text };
  } catch (error) {
    return { warning: `cannot read ${file}: ${(error as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

export function readTrustFile(file: string): ReadTrust {
  const read = readPrivateFile(file);
  if ('missing' in read) return { file: empty() };
  if ('warning' in read) return { file: empty(), warning: `trust: ${read.warning}` };
  try {
    const parsed: unknown = parseJsonWithinDepth(read.text);
    const projects = (parsed as { projects?: unknown } | null)?.projects;
    if (typeof projects !== 'object' || projects === null || Array.isArray(projects)) {
      return { file: empty(), warning: `trust: ${file} has no "projects" mapping; it is ignored` };
    }
    const kept: Record<string, TrustRecord> = Object.create(null) as Record<string, TrustRecord>;
    for (const [root, record] of Object.entries(projects)) {
      if (!isRecord(record)) continue;
      kept[root] = { hash: record.hash, trusted_at: String(record.trusted_at ?? '') };
      const items = stringMap(record.items);
      if (items) kept[root].items = items;
    }
    return { file: { version: 1, projects: kept } };
  } catch (error) {
    return { file: empty(), warning: `trust: ${file} cannot be parsed (${(error as Error).message}); it is ignored` };
  }
}

/** Records `projectRoot` → `hash` (and the per-setting `items`), keeping the other projects. Throws (with the reason) when it cannot. */
export async function writeTrust(file: string, projectRoot: string, hash: string, items?: Record<string, string>, now: Date = new Date()): Promise<void> {
  const existing = lstatSync(file, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) throw new Error(`refusing to write ${file}: it is a symbolic link (remove it, then trust the project again)`);
  if (existing && !existing.isFile()) throw new Error(`refusing to write ${file}: it is not a regular file`);

  const current = existing ? readTrustFile(file).file : empty();
  const record: TrustRecord = { hash, trusted_at: now.toISOString(), ...(items ? { items } : {}) };
  const projects = { ...current.projects, [projectRoot]: record };
  const sorted = Object.fromEntries(Object.keys(projects).sort().map((root) => [root, projects[root]]));
  const text = `${JSON.stringify({ version: 1, projects: sorted }, null, 2)}\n`;

  await writePrivateFile(file, text);
}

/**
 * Writes `text` to a private file of the user's MewCode directory: through a temporary file
 * (O_EXCL | O_NOFOLLOW, mode 0600) in the same directory, synced and renamed over, so a reader
 * never sees half a file and a link planted at `file` is replaced, not followed.
 */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const { randomBytes } = await import('node:crypto');
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // rename replaces whatever is at `file` (even a link planted since the check) without following it.
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}
