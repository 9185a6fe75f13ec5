/**
 * `--permission-mode` and `--dangerously-skip-permissions` as Claude Code takes them, for every
 * front end that reads a command line (a run, `mewcode acp`):
 * - MewCode's modes as they are; `manual`, the name Claude Code shows for `default`, is default;
 * - `dontAsk` runs in default mode and answers every question no: what the allow rules
 *   (`--allowedTools`, settings) and the mode allow runs, nothing else, and nobody is asked
 *   (CliOptions.dontAsk; the permission-mode plugin answers the questions);
 * - `auto` (Claude Code's classifier that approves instead of a person) has no equivalent and is
 *   refused with what to use instead;
 * - `--dangerously-skip-permissions` is `--permission-mode bypassPermissions`, so whatever holds
 *   for that mode holds for it (managed settings' disable_bypass_mode refuses it; the blacklist,
 *   the sandbox and deny rules still apply).
 */
import { PERMISSION_MODES, type PermissionMode } from '../types/permissions.js';

/** Claude Code's names for MewCode's modes. */
const ALIASES: Readonly<Record<string, PermissionMode>> = { manual: 'default' };

/** Every value --permission-mode takes, for messages and help. */
export const PERMISSION_MODE_VALUES: readonly string[] = [...PERMISSION_MODES, 'dontAsk', ...Object.keys(ALIASES)];

export type PermissionModeFlags =
  | { ok: true; mode: PermissionMode | undefined; dontAsk: boolean }
  | { ok: false; error: string };

/** `value`: --permission-mode's (undefined: not given); `skipPermissions`: --dangerously-skip-permissions. */
export function readPermissionModeFlags(value: string | undefined, skipPermissions: boolean): PermissionModeFlags {
  if (value === 'auto') {
    return {
      ok: false,
      error:
        '--permission-mode auto (Claude Code\'s classifier that approves calls in your place) has no MewCode equivalent: use default to be asked, acceptEdits to let edits in the project run, or dontAsk with --allowedTools for unattended runs that refuse everything else',
    };
  }
  const dontAsk = value === 'dontAsk';
  const mode = value === undefined ? undefined : dontAsk ? 'default' : (ALIASES[value] ?? value);
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return { ok: false, error: `--permission-mode must be one of ${PERMISSION_MODE_VALUES.join(', ')} (got "${value}")` };
  }
  if (skipPermissions) {
    if (value !== undefined && mode !== 'bypassPermissions') {
      return { ok: false, error: `--dangerously-skip-permissions is --permission-mode bypassPermissions; it cannot be combined with --permission-mode ${value}` };
    }
    return { ok: true, mode: 'bypassPermissions', dontAsk: false };
  }
  return { ok: true, mode: mode as PermissionMode | undefined, dontAsk };
}
