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

/**
 * The environment of a git MewCode runs on the host to read a repository (status, config, the
 * index): PATH's absolute entries, no prompt, and no transport at all. A repository can make a
 * plain `git status` fetch: a partial clone's missing object is fetched from its promisor remote,
 * and for a local-path remote git runs `remote.<name>.uploadpack` through the shell (an http one
 * makes the host send a request). `GIT_ALLOW_PROTOCOL`, unlike `protocol.allow`, cannot be
 * loosened by the repository's own config; `GIT_NO_LAZY_FETCH` (git ≥ 2.44) says the same twice.
 */
export function hostGitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return hostProgramEnv({ GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'none', GIT_NO_LAZY_FETCH: '1', ...extra });
}
