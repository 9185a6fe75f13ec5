/**
 * `mewcode doctor`'s sandbox line: the OS sandbox bash would run in. With a booted kernel, the
 * sandbox service's own probe (which honours the user's `sandbox:` setting); without one, what
 * this plugin would find on this machine.
 */
import type { DoctorContext, DoctorFinding } from '../../types/cli.js';
import { describeSandboxNetwork, type CommandSandbox, type SandboxStatus } from '../../types/sandbox.js';
import { TOKENS } from '../../types/tokens.js';
import { locateMechanism, probeAsync } from './probe.js';
import { describeUpstreams } from './upstream-proxy.js';

const UNSANDBOXED = 'bash would run unsandboxed (it asks for approval in default mode, and bypassPermissions needs --dangerously-skip-sandbox)';

export async function checkSandbox(context: Pick<DoctorContext, 'kernel'>): Promise<DoctorFinding[]> {
  const { kernel } = context;
  if (!kernel || !kernel.container.isBound(TOKENS.CommandSandbox)) return sandboxWithoutKernel();
  const status = await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe();
  let binary: string | undefined;
  if (status.active) {
    // Looked up as the service looks it up: under a managed force, never from PATH.
    const forcedBy = kernel.container.get(TOKENS.ManagedPolicy, { optional: true })?.sandbox.forceEnabled?.where;
    const located = locateMechanism(process.platform, undefined, kernel.projectRoot, forcedBy !== undefined ? { forcedBy } : {});
    if (located.ok && located.found.mechanism === status.mechanism) binary = located.found.binary;
  }
  return sandboxLines(status, binary);
}

/** `env`: MewCode's own proxy variables, which the sandbox's proxy for allowed hosts follows too. */
export function sandboxLines(status: SandboxStatus, binary?: string, env: NodeJS.ProcessEnv = process.env): DoctorFinding[] {
  if (status.active) {
    const where = binary ? ` (${binary})` : '';
    const byDomain = !status.network && (status.allowedDomains?.length ?? 0) > 0;
    const chained = byDomain ? describeUpstreams(env) : undefined;
    return [{ status: 'ok', check: 'sandbox', message: `${status.mechanism}${where}: bash commands run in the OS sandbox, network ${describeSandboxNetwork(status)}${chained ? `; ${chained}` : ''}` }];
  }
  if (status.disabledByUser) {
    return [{ status: 'warn', check: 'sandbox', message: `OS sandbox ${status.reason ?? 'turned off by the user'}: ${UNSANDBOXED}`, hint: 'remove sandbox: false from your settings to turn it back on' }];
  }
  const install = process.platform === 'linux' ? 'install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces' : process.platform === 'darwin' ? 'sandbox-exec ships with macOS: check /usr/bin/sandbox-exec' : 'no OS sandbox exists for this platform';
  return [{ status: 'warn', check: 'sandbox', message: `no OS sandbox: ${status.reason ?? 'unavailable'}; ${UNSANDBOXED}`, hint: install }];
}

/** Without a kernel: what this plugin would find (the user's `sandbox:` setting is not read). */
async function sandboxWithoutKernel(): Promise<DoctorFinding[]> {
  const located = locateMechanism();
  if (!located.ok) return sandboxLines({ active: false, mechanism: 'none', reason: located.reason });
  const outcome = await probeAsync(located.found);
  return sandboxLines(outcome.ok ? { active: true, mechanism: located.found.mechanism } : { active: false, mechanism: 'none', reason: outcome.reason }, located.found.binary);
}
