/**
 * The process must never end as if it had succeeded without having finished its run. Node exits,
 * with code 0, when nothing is left to wait for, even while a promise is pending: a plugin that
 * leaves the run awaiting a promise nothing will ever settle (a tap or a start() that holds no
 * timer, socket or process open) would otherwise end `mewcode -p` silently with exit 0. When the
 * event loop empties before the run settled, this says so, prints an error result for
 * `--output-format json`/`stream-json`, and sets exit code 1.
 */

export function guardUnfinishedRun(argv: readonly string[]): () => void {
  let done = false;
  const onBeforeExit = (): void => {
    process.off('beforeExit', onBeforeExit);
    if (done) return;
    const message =
      'the run stopped before it finished: everything it was waiting for was gone (a plugin hook, a start() or a provider left a promise that nothing will settle). (--debug-boot lists the plugins that loaded)';
    process.stderr.write(`mewcode: ${message}\n`);
    if (jsonOutput(argv)) {
      process.stdout.write(`${JSON.stringify({ type: 'result', subtype: 'error_during_execution', is_error: true, result: message, stop_reason: 'error' })}\n`);
    }
    process.exitCode = 1;
  };
  process.on('beforeExit', onBeforeExit);
  return () => {
    done = true;
    process.off('beforeExit', onBeforeExit);
  };
}

/** `--output-format json|stream-json` (or `=` form): the caller reads stdout as JSON. */
function jsonOutput(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--output-format') return argv[i + 1] === 'json' || argv[i + 1] === 'stream-json';
    if (arg.startsWith('--output-format=')) return arg.endsWith('=json') || arg.endsWith('=stream-json');
  }
  return false;
}
