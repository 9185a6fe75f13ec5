/**
 * Can an OS sandbox run here? Finding the binary is a few stat calls; running it is a process
 * start (≈ 10 ms). Both are done at start (the run in the background, see the service's
 * start()), so a sandbox that cannot run is said once before the first bash call; the answer is
 * cached by the service.
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { SandboxMechanism } from '../../types/sandbox.js';
import { absolutePathEntries } from '../../types/host-path.js';
import { bwrapBaseArgs } from './bwrap-args.js';

export const PROBE_TIMEOUT_MS = 3_000;

export interface Mechanism {
  mechanism: Exclude<SandboxMechanism, 'none'>;
  binary: string;
}

export type Located = { ok: true; found: Mechanism } | { ok: false; reason: string };

/**
 * The sandbox program for this platform, from PATH, then its usual place (unless `searchPath`
 * was given explicitly: tests). No process is started. Only PATH's absolute entries outside the
 * project count (types/host-path.ts): every bash call and contained hook runs through this
 * program, so one planted in the repository (direnv's `PATH_add node_modules/.bin`) would run on
 * the host at start-up and decide what "sandboxed" means.
 */
export function locateMechanism(platform: NodeJS.Platform = process.platform, searchPath?: string, projectRoot?: string): Located {
  const usual = (file: string): string[] => (searchPath === undefined ? [file] : []);
  searchPath = absolutePathEntries(searchPath ?? process.env.PATH ?? '', projectRoot ? [projectRoot, process.cwd()] : [process.cwd()]);
  if (platform === 'linux') {
    const binary = findExecutable('bwrap', searchPath, usual('/usr/bin/bwrap'));
    return binary
      ? { ok: true, found: { mechanism: 'bubblewrap', binary } }
      : { ok: false, reason: 'bubblewrap (bwrap) is not installed; install the distribution package `bubblewrap` (e.g. apt-get install bubblewrap)' };
  }
  if (platform === 'darwin') {
    const binary = findExecutable('sandbox-exec', searchPath, usual('/usr/bin/sandbox-exec'));
    return binary ? { ok: true, found: { mechanism: 'sandbox-exec', binary } } : { ok: false, reason: '/usr/bin/sandbox-exec was not found' };
  }
  return { ok: false, reason: `no OS sandbox is supported on ${platform}` };
}

function findExecutable(name: string, searchPath: string, fallbacks: readonly string[]): string | undefined {
  const candidates = [...searchPath.split(path.delimiter).filter((dir) => dir !== '').map((dir) => path.join(dir, name)), ...fallbacks];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The smallest command that needs everything a real call needs (namespaces, mounts). */
export function probeArgs(found: Mechanism): string[] {
  if (found.mechanism === 'bubblewrap') return [...bwrapBaseArgs(false), '--', 'true'];
  return ['-p', '(version 1)(allow default)', '/usr/bin/true'];
}

export type ProbeOutcome = { ok: true } | { ok: false; reason: string };

function describeFailure(found: Mechanism, status: number | null, signal: string | null, stderr: string, error?: Error): string {
  const detail = error ? error.message : signal ? `killed by ${signal}` : `exit ${status}`;
  const said = stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
  const hint =
    found.mechanism === 'bubblewrap' && /namespace|Operation not permitted|setting up uid map|No permissions/i.test(said)
      ? ' (user namespaces are not allowed here: e.g. kernel.apparmor_restrict_unprivileged_userns=1, or a container without CAP_SYS_ADMIN)'
      : '';
  return `${found.binary} cannot run a sandbox here: ${detail}${said ? `: ${said}` : ''}${hint}`;
}

export function probeSync(found: Mechanism, timeoutMs = PROBE_TIMEOUT_MS): ProbeOutcome {
  const result = spawnSync(found.binary, probeArgs(found), { timeout: timeoutMs, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status === 0) return { ok: true };
  return { ok: false, reason: describeFailure(found, result.status, result.signal, result.stderr ?? '', result.error) };
}

export function probeAsync(found: Mechanism, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeOutcome> {
  return new Promise((resolve) => {
    execFile(found.binary, probeArgs(found), { timeout: timeoutMs, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true });
      const failed = error as NodeJS.ErrnoException & { code?: number | string; signal?: string };
      resolve({
        ok: false,
        reason: describeFailure(found, typeof failed.code === 'number' ? failed.code : null, failed.signal ?? null, stderr, typeof failed.code === 'number' ? undefined : failed),
      });
    });
  });
}
