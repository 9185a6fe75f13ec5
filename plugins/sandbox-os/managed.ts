/**
 * The organisation's managed settings over the user's `sandbox:` (settings.ts reads the user's
 * files only). Managed settings may force the sandbox on and pin the hosts commands may reach;
 * the user's own settings then cannot turn it off, open the network or add a host. What is
 * overridden is said, naming both places, so nobody wonders why their setting does nothing.
 */
import type { ManagedPolicy } from '../../types/managed.js';
import type { SandboxSettings } from './settings.js';

const PREFIX = 'sandbox-os:';

export function applyManagedSandbox(settings: SandboxSettings, policy: ManagedPolicy | undefined, warn: (message: string) => void): SandboxSettings {
  if (!policy) return settings;
  let out: SandboxSettings = settings;
  const forced = policy.sandbox.forceEnabled;
  if (forced && !settings.enabled) {
    warn(`${PREFIX} ${settings.disabledAt ?? 'your settings'}: sandbox: false is overridden: managed settings force the OS sandbox on (${forced.where})`);
    const { disabledAt: _off, ...rest } = out;
    out = { ...rest, enabled: true };
  }
  const pinned = policy.sandbox.allowedDomains;
  if (pinned) {
    if (settings.network) warn(`${PREFIX} sandbox.network: true is overridden: managed settings pin the hosts commands may reach (${pinned.where})`);
    const added = settings.allowedDomains.filter((host) => !pinned.value.includes(host));
    if (added.length > 0) warn(`${PREFIX} sandbox.allowed_domains: ${added.join(', ')} not used: managed settings pin the hosts commands may reach to ${pinned.value.join(', ') || 'none'} (${pinned.where})`);
    out = { ...out, network: false, allowedDomains: [...pinned.value] };
  }
  return out;
}

/** With the sandbox forced on by managed settings, a command never runs outside it: why, or undefined. */
export function unconfinedRefusal(policy: ManagedPolicy | undefined, reason: string | undefined): string | undefined {
  const forced = policy?.sandbox.forceEnabled;
  if (!forced) return undefined;
  return `the OS sandbox is required by managed settings (${forced.where}) and cannot run here (${reason ?? 'unavailable'}), so commands do not run`;
}
