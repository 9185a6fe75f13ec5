/**
 * The process must never end as if it had succeeded without having finished its run. Node exits,
 * with code 0, when nothing is left to wait for, even while a promise is pending: a plugin that
 * leaves the run awaiting a promise nothing will ever settle (a tap or a start() that holds no
 * timer, socket or process open) would otherwise end `mewcode -p` silently with exit 0. When the
 * event loop empties before the run settled, this says so, prints an error result for
 * `--output-format json`/`stream-json`, and sets exit code 1 — unless a plugin's tap the kernel
 * bounds is what the run waits for: that wait ends at once (decision-bounds.ts), its hook takes its
 * safe side naming the plugin (a withheld output, a request not sent, a deny), and the run goes on.
 */
import { expireStalledWaits } from '../kernel/decision-bounds.js';
import { messageLines } from '../types/notice-line.js';

/**
 * Call the returned function once the run's outcome is known (with its exit code when there is
 * one): from then on an emptied event loop is a normal end (e.g. during shutdown, whose clean-up
 * need not hold the process open), and the process exits with that code.
 */
export function guardUnfinishedRun(jsonOutput: boolean, subject?: string): (code?: number) => void {
  let done = false;
  let outcome: number | undefined;
  const onBeforeExit = (): void => {
    // Ending those waits gives the process work again; this is asked again when it runs out.
    if (!done && expireStalledWaits() > 0) return;
    process.off('beforeExit', onBeforeExit);
    if (done) {
      // The outcome was known and only clean-up was left: exit with the run's own code.
      if (outcome !== undefined && process.exitCode === undefined) process.exitCode = outcome;
      return;
    }
    const message =
      subject === undefined
        ? 'the run stopped before it finished: everything it was waiting for was gone (a plugin hook, a start() or a provider left a promise that nothing will settle); --debug-boot lists the plugins that loaded'
        : `${subject} stopped before it finished: everything it was waiting for was gone (a promise that nothing will settle, in MewCode or in the plugin that provides the command or check); its result was not printed`;
    process.stderr.write(messageLines('mewcode: ', message));
    if (jsonOutput) {
      process.stdout.write(`${JSON.stringify({ type: 'result', subtype: 'error_during_execution', is_error: true, result: message, stop_reason: 'error' })}\n`);
    }
    process.exitCode = 1;
  };
  process.on('beforeExit', onBeforeExit);
  return (code) => {
    done = true;
    if (code !== undefined) outcome ??= code;
    else process.off('beforeExit', onBeforeExit); // main() returned: its caller sets the exit code
  };
}

/**
 * A command other than a run (`mewcode doctor`, `mewcode mcp list`, a plugin's subcommand) under
 * the same guard: exit 1 with a message naming it, never exit 0 with its result unprinted.
 */
export async function guardedCommand<T>(subject: string, work: () => Promise<T>): Promise<T> {
  const ended = guardUnfinishedRun(false, subject);
  try {
    return await work();
  } finally {
    ended();
  }
}
