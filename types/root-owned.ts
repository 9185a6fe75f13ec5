/**
 * Is a file one only root can change? Used wherever MewCode lets a file's owner decide something
 * for everyone on the machine: the sandbox program (plugins/sandbox-os/probe.ts) and a managed
 * settings file named by the environment beside the system's (config/managed-settings.ts). A file
 * a user can replace, or that lies in a directory a user can write, decides nothing for them.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

export type RootOwnedProblem = { missing: true } | { missing: false; reason: string };

/**
 * Why `file` is not owned by root and writable by no one else, it and every directory above it
 * (links followed: the real file and its real directories are judged); undefined when it is.
 * `reason` reads after the file's name ("it is owned by uid 1000, not root").
 */
export function rootOwnedProblem(file: string): RootOwnedProblem | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return { missing: true };
  }
  for (let at = real; ; at = path.dirname(at)) {
    let info: Stats;
    try {
      info = statSync(at);
    } catch {
      return { missing: true };
    }
    const what = at === real ? 'it' : `its directory ${at}`;
    if (info.uid !== 0) return { missing: false, reason: `${what} is owned by uid ${info.uid}, not root` };
    // A sticky directory (/tmp) still lets anyone add a file: writable by others is never trusted.
    if ((info.mode & 0o022) !== 0) return { missing: false, reason: `${what} is writable by ${info.mode & 0o002 ? 'anyone' : 'its group'}` };
    if (path.dirname(at) === at) return undefined;
  }
}
