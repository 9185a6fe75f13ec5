/**
 * Makes sure long-lived child process groups (MCP stdio servers, later hook commands) die with
 * MewCode, however MewCode ends.
 *
 * - A normal exit, an uncaught exception or a signal MewCode handles: the `exit` handler sends
 *   SIGKILL to every group still registered (`process.kill` is synchronous, so it works there).
 * - A crash nothing can catch (SIGKILL, the OOM killer): a tiny `sh` started on the first
 *   registration holds the read end of a pipe whose write end only MewCode has. When MewCode
 *   dies the kernel closes the pipe, `read` sees end of file, and the shell kills every group it
 *   was told about. It runs in its own process group and ignores SIGINT/SIGTERM/SIGHUP, so the
 *   Ctrl+C that reaches the terminal's foreground group does not take it down first.
 *
 * Each child must be the leader of its own process group (`spawn(…, { detached: true })`), so a
 * group kill reaches what it started too (`npx` → `node`, a shell's pipeline). Windows has no
 * process groups: there the exit handler kills the direct child only and no reaper runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { SYSTEM_PROGRAMS_ENV } from '../types/host-path.js';

const REAPER_SCRIPT = [
  "trap '' INT TERM HUP",
  'set --',
  'while IFS= read -r line; do',
  '  case "$line" in',
  '    +*) set -- "$@" "${line#+}" ;;',
  '    -*) id=${line#-}; kept=; for g in "$@"; do [ "$g" = "$id" ] || kept="$kept $g"; done; set -- $kept ;;',
  '  esac',
  'done',
  'for g in "$@"; do kill -s KILL -- "-$g" 2>/dev/null; done',
].join('\n');

const groups = new Set<number>();
let reaper: ChildProcess | undefined;
let reaperFailed = false;
let exitHandlerInstalled = false;

function reaperInput(): Writable | undefined {
  if (process.platform === 'win32' || reaperFailed) return undefined;
  if (!reaper) {
    try {
      reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: SYSTEM_PROGRAMS_ENV, cwd: '/' });
    } catch {
      reaperFailed = true;
      return undefined;
    }
    reaper.once('error', () => {
      reaperFailed = true;
      reaper = undefined;
    });
    reaper.once('exit', () => {
      reaper = undefined;
    });
    reaper.stdin?.on('error', () => undefined); // the reaper went away: the exit handler still covers us
    // Neither the child nor its pipe may keep MewCode's event loop alive.
    reaper.unref();
    (reaper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }
  return reaper.stdin ?? undefined;
}

function killRegisteredGroups(): void {
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  // Nothing left for it to do; killing it now also means it never acts on a reused group id.
  if (reaper?.pid !== undefined) {
    try {
      process.kill(reaper.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Signal a whole process group (the pid of its leader); false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Kill `pgid`'s group (a detached child's pid) when MewCode ends, unless released first. */
export function registerProcessGroup(pgid: number): void {
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true;
    process.on('exit', killRegisteredGroups);
  }
  groups.add(pgid);
  reaperInput()?.write(`+${pgid}\n`);
}

/** The group has ended (or was killed by its owner): forget it, so a reused id is never signalled. */
export function releaseProcessGroup(pgid: number): void {
  if (!groups.delete(pgid)) return;
  if (reaper && !reaperFailed) reaper.stdin?.write(`-${pgid}\n`);
}
