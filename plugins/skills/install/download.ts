/**
 * Download a skill into a staging folder: a GitHub contents-API folder (recursively) or one
 * SKILL.md. Every limit is checked before a download (from the sizes the listing states) and
 * enforced during it (the bytes that actually arrive); every name from the listing is checked so
 * nothing lands outside the staging folder (`../`, absolute paths, separators, NUL are refused).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPathStrictlyWithin } from '../../../types/path-within.js';
import { httpGet, InstallError } from './http-get.js';
import type { InstallLimits } from './limits.js';

export interface DownloadState {
  files: number;
  bytes: number;
  folders: number;
  /** Symbolic links and submodules in the listing, not installed. */
  skipped: string[];
}

export interface DownloadContext {
  limits: InstallLimits;
  signal: AbortSignal;
  /** Origins downloads may come from (the API's and the raw host's). */
  allowedOrigins: ReadonlySet<string>;
}

interface ListingItem {
  name: string;
  path?: string;
  type: string;
  size?: number;
  download_url?: string | null;
  url?: string;
}

/** A listing item's name as one safe path segment, or an error naming it. */
function safeSegment(name: unknown): string {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..' || /[\\/\u0000]/.test(name) || path.isAbsolute(name)) {
    throw new InstallError(`the listing names an entry ${JSON.stringify(name)} that would land outside the skill's folder; refused`);
  }
  return name;
}

function inside(root: string, target: string): string {
  const resolved = path.resolve(root, target);
  if (!isPathStrictlyWithin(root, resolved)) throw new InstallError(`the path ${JSON.stringify(target)} would land outside the skill's folder; refused`);
  return resolved;
}

async function listing(url: string, context: DownloadContext): Promise<ListingItem[]> {
  // A listing of 64 entries is far below 1 MiB; a bigger answer is not a skill folder.
  const body = await httpGet(url, { maxBytes: context.limits.maxFileBytes, what: `the folder listing ${url}`, signal: context.signal, allowedOrigins: context.allowedOrigins });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InstallError(`the folder listing ${url} is not JSON`);
  }
  if (!Array.isArray(parsed)) throw new InstallError(`${url} is not a folder (the contents API answered with a single ${typeof parsed === 'object' && parsed && 'type' in parsed ? String((parsed as ListingItem).type) : 'value'}); give the skill's folder`);
  return parsed as ListingItem[];
}

/** Fetch a contents-API folder into `dir` (relative `at` inside the staging root), depth-first. */
export async function downloadFolder(url: string, staging: string, at: string, depth: number, state: DownloadState, context: DownloadContext): Promise<void> {
  const { limits } = context;
  if (depth > limits.maxDepth) throw new InstallError(`the folder ${at} is nested more than ${limits.maxDepth} levels deep; refused`);
  const items = await listing(url, context);
  const files = items.filter((item) => item.type === 'file');
  // Before any download: what the listing says must fit.
  for (const item of files) {
    const name = safeSegment(item.name);
    const size = Number(item.size ?? 0);
    if (!Number.isFinite(size) || size < 0) throw new InstallError(`${path.posix.join(at, name)}: the listing gives no valid size`);
    if (size > limits.maxFileBytes) throw new InstallError(`${path.posix.join(at, name)} is ${size} bytes, over the ${limits.maxFileBytes}-byte limit per file`);
  }
  if (state.files + files.length > limits.maxFiles) throw new InstallError(`the skill has more than ${limits.maxFiles} files; refused`);
  const stated = files.reduce((sum, item) => sum + Number(item.size ?? 0), 0);
  if (state.bytes + stated > limits.maxTotalBytes) throw new InstallError(`the skill is more than ${limits.maxTotalBytes} bytes in all; refused`);

  for (const item of items) {
    const name = safeSegment(item.name);
    const relative = path.posix.join(at, name);
    const target = inside(staging, relative);
    if (item.type === 'dir') {
      // Folders count too: a listing of thousands of (empty) folders is not a skill either.
      if (++state.folders > limits.maxFiles) throw new InstallError(`the skill has more than ${limits.maxFiles} folders; refused`);
      if (typeof item.url !== 'string') throw new InstallError(`${relative}: the listing gives no URL for the folder`);
      await mkdir(target, { recursive: true });
      await downloadFolder(item.url, staging, relative, depth + 1, state, context);
    } else if (item.type === 'file') {
      if (typeof item.download_url !== 'string') throw new InstallError(`${relative}: the listing gives no download URL`);
      await downloadFile(item.download_url, target, relative, state, context);
    } else {
      state.skipped.push(`${relative} (${String(item.type)})`);
    }
  }
}

/** One file; during the download it may not pass the per-file limit nor what is left of the total. */
export async function downloadFile(url: string, target: string, what: string, state: DownloadState, context: DownloadContext): Promise<void> {
  const { limits } = context;
  if (state.files + 1 > limits.maxFiles) throw new InstallError(`the skill has more than ${limits.maxFiles} files; refused`);
  const left = limits.maxTotalBytes - state.bytes;
  const maxBytes = Math.min(limits.maxFileBytes, left);
  const body = await httpGet(url, { maxBytes, what, signal: context.signal, allowedOrigins: context.allowedOrigins }).catch((error: unknown) => {
    if (error instanceof InstallError && left < limits.maxFileBytes && /over the|more than/.test(error.message)) {
      throw new InstallError(`the skill is more than ${limits.maxTotalBytes} bytes in all (${what} does not fit); refused`);
    }
    throw error;
  });
  state.files += 1;
  state.bytes += body.length;
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, body, { flag: 'wx' });
}
