/**
 * When the terminal MewCode runs in goes away (its window closed, the ssh connection dropped, the
 * tmux server killed), Node 20 crashes as the process exits: it restores the terminal modes it
 * saved at start on descriptors 0–2 and aborts when that fails (nodejs/node#51519; later Node
 * lines ignore the failure, nodejs/node#58200). The caller then sees a core dump (exit status
 * 134 or 139) instead of the run's outcome, whether or not SIGHUP reached MewCode (a `nohup` or
 * a shell ignoring SIGHUP keeps it away). So at exit a standard descriptor that is a character
 * device but no longer a terminal is closed first: Node skips a descriptor that is closed.
 */
import { closeSync, fstatSync } from 'node:fs';
import { isatty } from 'node:tty';

let armed = false;

/** Arms the exit-time check once per process (the CLI's entry and `main()` of a custom build). */
export function closeGoneTerminalsAtExit(): void {
  if (armed) return;
  armed = true;
  process.on('exit', closeGoneTerminals);
}

/** Exported for tests. */
export function closeGoneTerminals(): void {
  for (const fd of [0, 1, 2]) {
    try {
      // /dev/null is a character device and no terminal too: closing it at exit changes nothing.
      if (fstatSync(fd).isCharacterDevice() && !isatty(fd)) closeSync(fd);
    } catch {
      // closed already
    }
  }
}
