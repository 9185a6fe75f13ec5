/**
 * Node built-ins loaded at their first use rather than with the module that needs them: a module
 * on the start-up path that calls one only later (at a request, a hash, a new id) keeps it out of
 * every launch.
 */
import type * as crypto from 'node:crypto';
import { createRequire } from 'node:module';

const builtin = createRequire(import.meta.url);

/** `specifier` (a `node:` built-in), required the first time the returned function is called. */
export function builtinOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= builtin(specifier) as T);
}

/**
 * `node:crypto`: ≈ 3.7 ms to load, and nothing a run does before its first model request needs it
 * (compaction's file names and sub-agent ids hash or draw random bytes later).
 */
export const nodeCrypto = builtinOnFirstUse<typeof crypto>('node:crypto');
