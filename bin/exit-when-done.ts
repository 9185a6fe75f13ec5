/**
 * The `mewcode` process ends when its command is done. Node would otherwise keep running while
 * anything a plugin left behind holds the event loop (a start() still waiting on a server that never
 * answers, a refresh interval, an open socket): the run's result printed, the process never exits.
 * The command resolving is the end (a run after its shutdown: SessionEnd hooks, session files,
 * every plugin's dispose(); the terminal UI and `mewcode acp` only when the user or editor leaves),
 * so once stdout and stderr have handed everything written to the system, the process exits with
 * its code, whatever is still open.
 */
import type { Writable } from 'node:stream';

export async function exitWhenDone(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

/** Resolves once everything written before is flushed (a pipe whose reader is slow is waited for, never cut). */
function drained(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Writes are flushed in order: the callback of an empty write comes after every earlier one.
  // A terminal that is gone (EIO) or a reader that left (EPIPE) fails it: nothing more can be
  // delivered, and that failure must not become an uncaught error that changes the exit code.
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('error', done);
      resolve();
    };
    stream.on('error', done);
    try {
      stream.write('', () => setImmediate(done));
    } catch {
      done();
    }
  });
}
