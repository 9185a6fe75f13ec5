/**
 * Can an OS sandbox run here? Finding the binary is a few stat calls; running it is a process
 * start (≈ 10 ms). Both are done at start (the run in the background, see the service's
 * start()), so a sandbox that cannot run is said once before the first bash call; the answer is
 * cached by the service.
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxMechanism } from '../../types/sandbox.js';
import { absolutePathEntries } from '../../types/host-path.js';
import { rootOwnedProblem } from '../../types/root-owned.js';
import { bwrapBaseArgs } from './bwrap-args.js';

export const PROBE_TIMEOUT_MS = 3_000;

export interface Mechanism {
  mechanism: Exclude<SandboxMechanism, 'none'>;
  binary: string;
}

export type Located = { ok: true; found: Mechanism } | { ok: false; reason: string };

/** Where the system's own package puts the sandbox program (Linux: the distribution's, or an administrator's build). */
export const SYSTEM_LOCATIONS: Readonly<Partial<Record<NodeJS.Platform, readonly string[]>>> = {
  linux: ['/usr/bin/bwrap', '/usr/local/bin/bwrap'],
  darwin: ['/usr/bin/sandbox-exec'],
};

export interface LocateOptions {
  /**
   * Managed settings force the sandbox on (`file:line:col`): only a system location owned by root
   * and writable by no one else is used, PATH never; without one, no sandbox can run.
   */
  forcedBy?: string;
  /** Tests: other system locations. */
  systemLocations?: readonly string[];
}

/**
 * The sandbox program for this platform: at its system location (SYSTEM_LOCATIONS) when it is
 * owned by root and writable by no one else, else from PATH (unless `searchPath` was given
 * explicitly: tests, which look on it alone). The program decides what "sandboxed" means for every
 * bash call and contained hook, so the system's own copy comes first: a `bwrap` earlier on PATH (a
 * user-writable `~/.local/bin`, a tool's bin directory) is used only where the system has none
 * (Nix, Homebrew). Only PATH's absolute entries outside the project count (types/host-path.ts): one
 * planted in the repository (direnv's `PATH_add node_modules/.bin`) would run on the host at
 * start-up. When managed settings force the sandbox (`forcedBy`), PATH is not read at all. No
 * process is started: a few stat calls.
 */
export function locateMechanism(platform: NodeJS.Platform = process.platform, searchPath?: string, projectRoot?: string, options: LocateOptions = {}): Located {
  const kind = platform === 'linux' ? { mechanism: 'bubblewrap' as const, name: 'bwrap' } : platform === 'darwin' ? { mechanism: 'sandbox-exec' as const, name: 'sandbox-exec' } : undefined;
  if (!kind) return { ok: false, reason: `no OS sandbox is supported on ${platform}` };
  const system = options.systemLocations ?? (options.forcedBy !== undefined || searchPath === undefined ? (SYSTEM_LOCATIONS[platform] ?? []) : []);
  const untrusted: string[] = [];
  for (const candidate of system) {
    const problem = systemFileProblem(candidate);
    if (problem === undefined) return { ok: true, found: { mechanism: kind.mechanism, binary: candidate } };
    if (problem !== 'missing') untrusted.push(`${candidate} ${problem}`);
  }
  if (options.forcedBy !== undefined) {
    const why = untrusted.length > 0 ? untrusted.join('; ') : `${system.join(' and ') || 'it'} ${system.length === 1 ? 'does' : 'do'} not exist`;
    const install = platform === 'linux' ? ' (install the distribution package `bubblewrap`)' : '';
    return { ok: false, reason: `managed settings (${options.forcedBy}) force the sandbox, and then only ${system.join(' or ')} owned by root and writable by no one else is used, never one found on PATH: ${why}${install}` };
  }
  const entries = absolutePathEntries(searchPath ?? process.env.PATH ?? '', projectRoot ? [projectRoot, process.cwd()] : [process.cwd()]);
  const binary = findExecutable(kind.name, entries);
  if (binary) return { ok: true, found: { mechanism: kind.mechanism, binary } };
  if (untrusted.length > 0) return { ok: false, reason: `${untrusted.join('; ')}, so it is not used, and none is on PATH` };
  return platform === 'linux'
    ? { ok: false, reason: 'bubblewrap (bwrap) is not installed; install the distribution package `bubblewrap` (e.g. apt-get install bubblewrap)' }
    : { ok: false, reason: '/usr/bin/sandbox-exec was not found' };
}

/**
 * Why `file` is not a system program only root can change: 'missing', or what is wrong with it or
 * a directory above it (types/root-owned.ts, shared with managed settings' ownership check).
 */
function systemFileProblem(file: string): string | undefined {
  const problem = rootOwnedProblem(file);
  if (problem?.missing) return 'missing';
  if (problem) return `is not a system program: ${problem.reason}`;
  try {
    const info = statSync(realpathSync(file));
    if (!info.isFile() || (info.mode & 0o111) === 0) return 'is not an executable file';
  } catch {
    return 'missing';
  }
  return undefined;
}

function findExecutable(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter((entry) => entry !== '')) {
    const candidate = path.join(dir, name);
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
