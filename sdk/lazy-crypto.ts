/**
 * `node:crypto`, loaded at its first use. Loading it costs ≈ 3.7 ms, and nothing a run does
 * before its first model request needs it; modules on the start-up path that hash or draw
 * random bytes later (compaction's file names, sub-agent ids) take it from here.
 */
import type * as crypto from 'node:crypto';
import { createRequire } from 'node:module';

const builtin = createRequire(import.meta.url);
let loaded: typeof crypto | undefined;

export function nodeCrypto(): typeof crypto {
  return (loaded ??= builtin('node:crypto') as typeof crypto);
}
