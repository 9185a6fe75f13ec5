/**
 * The kernel's side of the organisation's managed settings (config/managed-settings.ts): reading
 * them at boot, refusing the command-line flags they forbid, refusing a build that lacks the
 * plugins that enforce them, and the one place a run's permission mode is checked, so
 * bypassPermissions chosen anywhere (a flag, settings, a UI's switch, a plugin) cannot slip past.
 */
import { loadManagedPolicy, ManagedSettingsError } from '../config/managed-settings.js';
import { skipSandboxRefusedBy, type ManagedPolicy } from '../types/managed.js';
import type { PermissionMode } from '../types/permissions.js';
import type { CliOptions } from '../types/plugin.js';
import { ConfigurationError } from './configuration-error.js';

/** The managed settings given, or read from the system; a file that cannot be applied is a ConfigurationError. */
export async function loadManaged(given: ManagedPolicy | undefined, env: NodeJS.ProcessEnv): Promise<ManagedPolicy> {
  if (given) return given;
  try {
    return await loadManagedPolicy({ env });
  } catch (error) {
    if (error instanceof ManagedSettingsError) throw new ConfigurationError(error.message);
    throw error;
  }
}

/** Command-line flags the managed settings forbid: a refusal (exit 2), not a silent downgrade. */
export function refuseManagedFlags(policy: ManagedPolicy, cli: CliOptions | undefined): void {
  if (!cli) return;
  const bypass = policy.permissions.disableBypassMode;
  if (bypass && cli.permissionModeGiven && cli.permissionMode === 'bypassPermissions') {
    throw new ConfigurationError(`--permission-mode bypassPermissions is disabled by managed settings (${bypass.where}: disable_bypass_mode)`);
  }
  const skip = skipSandboxRefusedBy(policy);
  if (skip !== undefined && cli.dangerouslySkipSandbox === true) {
    throw new ConfigurationError(`--dangerously-skip-sandbox is refused by managed settings (${skip}): commands run in the OS sandbox or ask`);
  }
}

/**
 * Managed restrictions need the plugins that enforce them: a custom build without the rules
 * layer or the OS sandbox must not run as if the organisation's policy held.
 */
export function requireManagedEnforcers(policy: ManagedPolicy, loaded: { pluginNames: ReadonlySet<string>; hasCommandSandbox: boolean }): void {
  const { permissions, sandbox } = policy;
  if ((permissions.deny.length > 0 || permissions.ask.length > 0 || permissions.managedRulesOnly) && !loaded.pluginNames.has('permission-rules')) {
    throw new ConfigurationError(`managed settings (${policy.files.join(', ')}) have permission rules, and this build has no permission-rules plugin to apply them`);
  }
  if (sandbox.forceEnabled && !loaded.hasCommandSandbox) {
    throw new ConfigurationError(`managed settings (${sandbox.forceEnabled.where}) require the OS sandbox, and this build has no sandbox plugin (TOKENS.CommandSandbox)`);
  }
}

/**
 * The mode a run may use: bypassPermissions runs as default while managed settings disable it, or
 * a settings file of the user's or the project's does (`disableBypassPermissionsMode`, which
 * Claude Code honours at any level: `settingsBypass` says where), said once.
 */
export class ModeGuard {
  private warned = false;

  constructor(
    private readonly policy: () => ManagedPolicy,
    private readonly warn: (message: string) => void,
    private readonly settingsBypass: () => string | undefined = () => undefined,
  ) {}

  permitted(mode: PermissionMode): PermissionMode {
    if (mode !== 'bypassPermissions') return mode;
    const managed = this.policy().permissions.disableBypassMode;
    const where = managed ? `managed settings (${managed.where}: disable_bypass_mode)` : this.settingsWhere();
    if (where === undefined) return mode;
    if (!this.warned) {
      this.warned = true;
      this.warn(`bypassPermissions mode is disabled by ${where}; running in default mode`);
    }
    return 'default';
  }

  private settingsWhere(): string | undefined {
    const where = this.settingsBypass();
    return where === undefined ? undefined : `settings (${where}: disableBypassPermissionsMode)`;
  }
}
