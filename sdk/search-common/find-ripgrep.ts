/** Locating the `rg` executable on PATH (once per process; no process is started for it). */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

let cached: { key: string; found: string | undefined } | undefined;

export function findRipgrep(envPath: string | undefined = process.env.PATH): string | undefined {
  const key = envPath ?? '';
  if (cached?.key === key) return cached.found;
  let found: string | undefined;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg'];
  for (const dir of key.split(path.delimiter)) {
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
