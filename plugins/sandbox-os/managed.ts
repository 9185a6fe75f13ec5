/**
 * The organisation's managed settings over the user's `sandbox:` (settings.ts reads the user's
 * files only). Managed settings may force the sandbox on and pin the hosts commands may reach;
 * the user's own settings then cannot turn it off, open the network or add a host. What is
 * overridden is said, naming both places, so nobody wonders why their setting does nothing.
 *
 * A forced sandbox is the organisation's boundary, so the user's settings that widen it are not
 * used under it: `allow_write` (a writable home or /etc is no boundary), `allow_unix_sockets`
 * (/run/docker.sock is root on the host) and `network: true`. Narrowing ones (`deny_read`) still
 * apply; `allowed_domains` applies unless the managed file pins the hosts itself.
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
  if (forced) out = withoutWidening(out, forced.where, warn);
  const pinned = policy.sandbox.allowedDomains;
  if (pinned) {
    if (out.network) warn(`${PREFIX} sandbox.network: true is overridden: managed settings pin the hosts commands may reach (${pinned.where})`);
    const added = settings.allowedDomains.filter((host) => !pinned.value.includes(host));
    if (added.length > 0) warn(`${PREFIX} sandbox.allowed_domains: ${added.join(', ')} not used: managed settings pin the hosts commands may reach to ${pinned.value.join(', ') || 'none'} (${pinned.where})`);
    out = { ...out, network: false, allowedDomains: [...pinned.value] };
  }
  return out;
}

/** The user's widening settings removed under a forced sandbox, each said once (the service reads settings once). */
function withoutWidening(settings: SandboxSettings, where: string, warn: (message: string) => void): SandboxSettings {
  const why = `not used: managed settings force the OS sandbox on (${where}) and your settings cannot widen it`;
  const out: SandboxSettings = { ...settings };
  if (out.allowWrite.length > 0) warn(`${PREFIX} sandbox.allow_write: ${out.allowWrite.join(', ')} ${why}`);
  if (out.allowUnixSockets.length > 0) warn(`${PREFIX} sandbox.allow_unix_sockets: ${out.allowUnixSockets.join(', ')} ${why}`);
  if (out.allowAllUnixSockets) warn(`${PREFIX} sandbox.allow_unix_sockets: true ${why}`);
  if (out.network) warn(`${PREFIX} sandbox.network: true ${why}`);
  delete out.allowAllUnixSockets;
  return { ...out, allowWrite: [], allowUnixSockets: [], network: false };
}

/** With the sandbox forced on by managed settings, a command never runs outside it: why, or undefined. */
export function unconfinedRefusal(policy: ManagedPolicy | undefined, reason: string | undefined): string | undefined {
  const forced = policy?.sandbox.forceEnabled;
  if (!forced) return undefined;
  return `the OS sandbox is required by managed settings (${forced.where}) and cannot run here (${reason ?? 'unavailable'}), so commands do not run`;
}
