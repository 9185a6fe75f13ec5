/**
 * The command's environment (K5, T5): an allowlist, never the agent's whole environment,
 * so API keys and tokens in the user's shell do not reach model-triggered processes.
 */

/** Passed through when set (T5). Anything else must be named in `bash.env_allowlist`. */
export const BASE_ENV_NAMES: readonly string[] = ['HOME', 'PATH', 'USER', 'TERM', 'LANG'];

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * `session`: what the user's SessionStart hooks exported through CLAUDE_ENV_FILE. Those values are
 * the user's own (their hook wrote them), not MewCode's environment, so the allowlist does not
 * filter them: they are added over it. The project's path and the OS sandbox's own variables
 * (added by the caller after this) still win.
 */
export function commandEnvironment(source: NodeJS.ProcessEnv, extraNames: readonly string[], homeDir: string, projectRoot: string, session: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...extraNames]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, session);
  // A shell without HOME or PATH misbehaves in confusing ways; these defaults reveal nothing.
  env.HOME ??= homeDir;
  env.PATH ??= FALLBACK_PATH;
  // The project's path, as hooks get it: a command (a custom command's `!` line) names it as
  // "$CLAUDE_PROJECT_DIR" instead of having a path that may hold shell syntax pasted into it.
  // Set last: the agent's own environment cannot point it elsewhere.
  env.CLAUDE_PROJECT_DIR = projectRoot;
  env.MEWCODE_PROJECT_DIR = projectRoot;
  return env;
}

export { resolveShell } from '../../sdk/shell-path.js';
