/**
 * The signals a front end treats as "stop": Ctrl+C (SIGINT), Ctrl+\ (SIGQUIT), a stop request
 * (SIGTERM) and a closed terminal (SIGHUP). Node's default for each ends the process at once, so
 * a running command would be left without what must follow it (the sandbox's git sweep, the saved
 * session, the MCP servers stopped); a front end cancels its run instead and lets it end.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const satisfies readonly NodeJS.Signals[];

/** The exit code a shell reports for a process ended by `signal` (128 + its number). */
export function signalExitCode(signal: (typeof STOP_SIGNALS)[number]): number {
  return 128 + ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const)[signal];
}
