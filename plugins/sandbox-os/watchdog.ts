/**
 * The watchdog: a small detached shell that outlives MewCode and cleans up after a session it
 * did not end (kill -9, a crash): the temporary mount points, the session directory, and the git
 * sweep of a command MewCode died during (recovery-main.ts).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSTEM_PROGRAMS_ENV } from '../../types/host-path.js';

/**
 * The watchdog's shell (`$1`: the session directory). Several passes over about three seconds: a
 * bubblewrap killed while it set up its mounts may make a mount point again just after a pass
 * removed it. Each mount point is removed from inside its parent, entered without following a
 * link (`cd -P`, then the physical path compared with the one planned), so a parent swapped for a
 * link by a command still running elsewhere never leads the rmdir out of the project.
 *
 * Then, when this process left a record of a command in flight (`$2`: the records directory,
 * `$3`: this process's pid; command-records.ts), its git sweep, which MewCode never ran: `$4`
 * (node) runs `$5` (recovery-main.ts) on the records, before the user's next `git status`. By then
 * the sandbox is gone (bubblewrap dies with its parent, and everything inside with it). On an
 * ordinary exit every record is already removed, and no node process is started.
 */
export const WATCHDOG_SCRIPT =
  'cat >/dev/null; for i in 1 2 3 4 5 6 7 8 9 10; do ' +
  'while IFS= read -r p; do [ -e "$p" ] && (cd -P -- "${p%/*}" 2>/dev/null && [ "$PWD" = "${p%/*}" ] && rmdir -- "${p##*/}" 2>/dev/null); done < "$1/mount-points"; ' +
  'sleep 0.3; done; rm -rf -- "$1"; ' +
  'if [ -n "$5" ]; then for f in "$2/$3".*.json; do [ -e "$f" ] && exec "$4" "$5" "$2"; break; done; fi';

/**
 * Starts the watchdog of session directory `base` (its `mount-points` list made empty first; that
 * write throws). It waits for the end of its stdin (a pipe only this process holds, closed by the
 * kernel however the process ends, kill -9 included), then removes the mount points still listed
 * there (rmdir: only if still empty) and the session directory, so a killed MewCode leaves no
 * empty `.mcp.json` or `.claude` directory in the user's project; then the sweep of what this
 * process left recorded in `records`. undefined: no shell could be started (mount points are
 * still removed by every call that ends normally).
 */
export function startWatchdog(base: string, records: string): ChildProcess | undefined {
  writeFileSync(path.join(base, 'mount-points'), '');
  try {
    // Its own PATH: the user's may lead into the project (direnv), where a planted `cat` or `rmdir` would run on the host.
    const recovery = recoveryScript();
    const sweepArgs = recovery ? [records, String(process.pid), process.execPath, recovery] : [];
    const child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'mewcode-sandbox-cleanup', base, ...sweepArgs], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: SYSTEM_PROGRAMS_ENV, cwd: '/' });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    return child;
  } catch {
    return undefined;
  }
}

let foundRecoveryScript: string | null | undefined;
/**
 * dist/mewcode-sweep-recovery.js (recovery-main.ts), beside the entry files: this module is in
 * dist/ or dist/chunks/. Run from the sources (tests), there is none: the watchdog then leaves
 * the records to the next start.
 */
function recoveryScript(): string | undefined {
  if (foundRecoveryScript === undefined) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    foundRecoveryScript = [path.join(here, RECOVERY_SCRIPT), path.join(here, '..', RECOVERY_SCRIPT)].find((file) => existsSync(file)) ?? null;
  }
  return foundRecoveryScript ?? undefined;
}
const RECOVERY_SCRIPT = 'mewcode-sweep-recovery.js';
