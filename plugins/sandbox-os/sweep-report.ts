/**
 * What the user is told after a git sweep (git-sweep.ts), the same whether it ran right after the
 * command or later, for a command MewCode died during (sweep-recovery.ts).
 */
import type { Quarantined } from './git-sweep.js';
import { MAX_SWEEP_DIRS } from './git-walk.js';

export const quarantineWarning = (item: Quarantined): string =>
  `sandbox-os: a sandboxed command left ${item.why} at ${item.path}; ${item.runBy ?? 'git would have run it on your machine at your next git command there'}. ` +
  `MewCode renamed it to ${item.movedTo}: look at it, and rename it back if you wrote it yourself.`;

export const uncheckedWarning = (what: string): string => `sandbox-os: after a sandboxed command, ${what}.`;

export const TRUNCATED_WARNING =
  'sandbox-os: the project is too large to check every nested git repository after each command; repositories beyond the first directories walked are not checked';

/**
 * After a check that could not finish: where it did not look, and why no command runs now. A
 * command could have left a git directory there that runs a program at the user's next git
 * command in it; another command could leave more. A warning alone would be read past.
 */
export const uncheckedTreeRefusal = (notWalked: readonly string[], bound = MAX_SWEEP_DIRS): string =>
  `sandbox-os: the check after a sandboxed command stopped at ${bound.toLocaleString('en-US')} directories, so git repositories a command may have left in ${notWalked.length > 0 ? notWalked.join(', ') : 'the rest of the project'} were not checked ` +
  '(one there would run a program at your next git command in it). Sandboxed commands are refused from now on in this session. ' +
  'Look there for folders holding HEAD and config before you run git in them; to run commands in a project this large anyway, set `sandbox.unchecked_trees: true` in ~/.mewcode/settings.yaml.';

/**
 * The refusal a mark left by a recovery sweep that could not finish (unchecked-marks.ts) carries
 * into the next session in that project: the same danger, with no live session to refuse in.
 */
export const uncheckedMarkRefusal = (file: string, notWalked: readonly string[] | undefined): string =>
  `sandbox-os: MewCode ended during a sandboxed command in this project, and the check of what that command left could not finish, so git repositories it may have left in ${notWalked && notWalked.length > 0 ? notWalked.join(', ') : 'part of the project'} were not checked ` +
  '(one there would run a program at your next git command in it). Sandboxed commands are refused in this project until you have looked there ' +
  `for folders holding HEAD and config and removed ${file}; to run commands in a project this large anyway, set \`sandbox.unchecked_trees: true\` in ~/.mewcode/settings.yaml.`;
