/**
 * What the sandbox service is given (the plugin's bindings, tests, the sandbox bench): read by
 * its front (service.ts) at start and by its command part (sandbox-commands.ts) once loaded.
 */
import type { SandboxReadRules } from '../../types/sandbox.js';
import type { ManagedPolicy } from '../../types/managed.js';
import type { DomainProxyOptions } from './domain-proxy.js';

export interface OsSandboxOptions {
  /** Where the user's settings are read from (the kernel's home directory). */
  homeDir: string;
  warn(message: string): void;
  /** `permissions.additional_directories` (TOKENS.PermissionSettings), read at each call. */
  additionalDirectories?: () => readonly string[];
  /** The rules layer's Read deny/ask rules (TOKENS.SearchPolicy), read at each call; undefined when there are none. */
  readRules?: () => SandboxReadRules | undefined;
  /** Tests: where the domain proxy connects an allowed host (e.g. a local server). */
  proxyConnectTo?: DomainProxyOptions['connectTo'];
  /** How long start() waits for the probe before letting the boot go on (it keeps running; default START_WAIT_MS, service.ts). */
  startTimeoutMs?: number;
  /** The project: a sandbox program on a PATH entry inside it is not used (probe.ts). */
  projectRoot?: string;
  /** Tests: another platform / PATH, another temp root, other system locations of the sandbox program (probe.ts). */
  platform?: NodeJS.Platform;
  searchPath?: string;
  systemLocations?: readonly string[];
  tmpRoot?: string;
  /** Where credential-moving variables (KUBECONFIG, XDG_CONFIG_HOME…) are read: process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** Tests: another architecture for the seccomp filter. */
  arch?: string;
  /** The organisation's managed settings (TOKENS.ManagedPolicy): they may force the sandbox on and pin its hosts. */
  managed?: ManagedPolicy;
  /** Tests: the sweep's bound (MAX_SWEEP_DIRS). */
  maxSweepDirs?: number;
}
