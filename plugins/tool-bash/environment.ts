/**
 * The command's environment (K5, T5): an allowlist, never the agent's whole environment,
 * so API keys and tokens in the user's shell do not reach model-triggered processes.
 */

/** Passed through when set (T5). Anything else must be named in `bash.env_allowlist`. */
export const BASE_ENV_NAMES: readonly string[] = ['HOME', 'PATH', 'USER', 'TERM', 'LANG'];

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export function commandEnvironment(source: NodeJS.ProcessEnv, extraNames: readonly string[], homeDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...extraNames]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  // A shell without HOME or PATH misbehaves in confusing ways; these defaults reveal nothing.
  env.HOME ??= homeDir;
  env.PATH ??= FALLBACK_PATH;
  return env;
}

export { resolveShell } from '../../sdk/shell-path.js';
