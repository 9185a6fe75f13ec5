/**
 * What the user is told after a git sweep (git-sweep.ts), the same whether it ran right after the
 * command or later, for a command MewCode died during (sweep-recovery.ts).
 */
import type { Quarantined } from './git-sweep.js';

export const quarantineWarning = (item: Quarantined): string =>
  `sandbox-os: a sandboxed command left ${item.why} at ${item.path}; git would have run it on your machine at your next git command there. ` +
  `MewCode renamed it to ${item.movedTo}: look at it, and rename it back if you wrote it yourself.`;

export const uncheckedWarning = (what: string): string => `sandbox-os: after a sandboxed command, ${what}.`;

export const TRUNCATED_WARNING =
  'sandbox-os: the project is too large to check every nested git repository after each command; repositories beyond the first directories walked are not checked';
