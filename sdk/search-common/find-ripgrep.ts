/** Locating the `rg` executable on PATH (once per process; no process is started for it). */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { absolutePathEntries } from '../../types/host-path.js';

let cached: { key: string; found: string | undefined } | undefined;

/** `project`: where the search runs; no PATH entry inside it (or the start directory) is used. */
export function findRipgrep(envPath: string | undefined = process.env.PATH, project?: string): string | undefined {
  const key = `${envPath ?? ''}\u0000${project ?? ''}`;
  if (cached?.key === key) return cached.found;
  let found: string | undefined;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg'];
  // Only absolute entries outside the project: others would find a repository's own `rg` (types/host-path.ts).
  for (const dir of absolutePathEntries(envPath ?? '', project ? [project, process.cwd()] : [process.cwd()]).split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        found = candidate;
        break;
      } catch {
        // not here
      }
    }
    if (found) break;
  }
  cached = { key, found };
  return found;
}

/**
 * Starts `rg` in `cwd` with `args`, its output piped. A user's RIPGREP_CONFIG_PATH is dropped:
 * a config file could add flags (follow links, search hidden or ignored files) the tools' own
 * rules did not choose.
 */
export function spawnRipgrep(rgPath: string, cwd: string, args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH;
  return spawn(rgPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}
