/**
 * PATH for the programs MewCode itself starts on the host in the project (git for the environment
 * block and the trust check, ripgrep for the search tools): only its absolute entries. A relative
 * entry (`node_modules/.bin`, `bin`, or an empty one, which means the current directory) would
 * find those programs in the project, where a repository can plant its own `git` or `rg`.
 */
import path from 'node:path';

export function absolutePathEntries(envPath: string | undefined = process.env.PATH): string {
  return (envPath ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && path.isAbsolute(dir))
    .join(path.delimiter);
}

/** `process.env` with PATH reduced to its absolute entries. */
export function hostProgramEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, PATH: absolutePathEntries(process.env.PATH) };
}
