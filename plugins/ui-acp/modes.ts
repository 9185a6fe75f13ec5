/**
 * MewCode's permission modes as ACP session modes. The mode is the session's: it applies from
 * the next prompt (a running turn keeps the mode it started with, as in the terminal UI).
 * bypassPermissions is offered only when the organisation's managed settings allow it; the
 * kernel enforces that anyway, however the mode was chosen.
 */
import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
import type { CliOptions, KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';

const DESCRIPTIONS: Readonly<Record<PermissionMode, { name: string; description: string }>> = {
  default: { name: 'Default', description: 'Asks before edits, and before commands the OS sandbox cannot contain, unless a rule allows them' },
  acceptEdits: { name: 'Accept edits', description: 'Edits in the project run without asking; commands still ask' },
  plan: { name: 'Plan', description: 'Read-only tools only: explores and proposes a plan, changes nothing' },
  bypassPermissions: { name: 'Bypass permissions', description: 'Runs every call without asking (the blacklist, the sandbox and deny rules still apply)' },
};

/** Why bypassPermissions cannot be chosen here, if it cannot. */
export function bypassRefusal(kernel: KernelApi): string | undefined {
  if (!kernel.container.isBound(TOKENS.ManagedPolicy)) return undefined;
  const disabled = kernel.container.get(TOKENS.ManagedPolicy).permissions.disableBypassMode;
  return disabled ? `bypassPermissions is disabled by managed settings (${disabled.where}: disable_bypass_mode)` : undefined;
}

export function offeredModes(kernel: KernelApi): PermissionMode[] {
  return PERMISSION_MODES.filter((mode) => mode !== 'bypassPermissions' || bypassRefusal(kernel) === undefined);
}

export function modeState(kernel: KernelApi, current: PermissionMode): SessionModeState {
  const availableModes: SessionMode[] = offeredModes(kernel).map((id) => ({ id, ...DESCRIPTIONS[id] }));
  return { currentModeId: current, availableModes };
}

/** --permission-mode when given, else the settings' default_mode, else default; never a mode not offered. */
export function startingMode(kernel: KernelApi, options: CliOptions): PermissionMode {
  const chosen =
    options.permissionModeGiven || !kernel.container.isBound(TOKENS.PermissionSettings)
      ? options.permissionMode
      : (kernel.container.get(TOKENS.PermissionSettings).defaultMode() ?? options.permissionMode);
  // The kernel runs a refused bypass as default (and says so), as the terminal UI shows it.
  return chosen === 'bypassPermissions' && bypassRefusal(kernel) !== undefined ? 'default' : chosen;
}

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}
