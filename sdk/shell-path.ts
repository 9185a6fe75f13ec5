/**
 * Which shell runs a command line: bash from the command's PATH, else `/bin/sh` (T5). Used by
 * the bash tool and by hook commands, looked up once per PATH.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

const shells = new Map<string, Promise<string>>();

/** `bash` from the command's PATH, else `/bin/sh` (T5: bash, with sh as the fallback). */
export function resolveShell(searchPath: string): Promise<string> {
  let found = shells.get(searchPath);
  if (!found) {
    found = findShell(searchPath);
    shells.set(searchPath, found);
  }
  return found;
}

async function findShell(searchPath: string): Promise<string> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, 'bash');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return '/bin/sh';
}
