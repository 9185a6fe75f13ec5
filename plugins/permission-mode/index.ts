/**
 * The last automatic permission layer: the mode matrix, adjusted for bash by the OS sandbox; and,
 * under `--permission-mode dontAsk`, the answer no to every question (dont-ask.ts).
 */
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { TOKENS } from '../../types/tokens.js';
import { skipSandboxRefusedBy } from '../../types/managed.js';
import { modeDecision, modeThatAllows } from './mode-matrix.js';
import { sandboxedBashVerdict } from './sandboxed-bash.js';
import { DONT_ASK_STAGE, dontAskRefusal } from './dont-ask.js';

const NAME = 'permission-mode';

function sandboxOf(kernel: KernelApi): CommandSandbox | undefined {
  return kernel.container.isBound(TOKENS.CommandSandbox) ? kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox) : undefined;
}

function settingsDontAsk(kernel: KernelApi): boolean {
  return kernel.container.isBound(TOKENS.PermissionSettings) && kernel.container.get(TOKENS.PermissionSettings).defaultDontAsk?.() === true;
}

export default definePlugin({
  name: NAME,
  safety: true,
  version: '0.1.0',
  apply(kernel) {
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Mode }, async (request) => {
      // The kernel refuses the flag at boot when managed settings forbid it; a host that passes it anyway gets no effect.
      const managed = kernel.container.isBound(TOKENS.ManagedPolicy) ? kernel.container.get(TOKENS.ManagedPolicy) : undefined;
      const skip = kernel.cli?.dangerouslySkipSandbox === true && (managed === undefined || skipSandboxRefusedBy(managed) === undefined);
      const sandboxed = await sandboxedBashVerdict(request, sandboxOf(kernel), skip, NAME, kernel.tools.origin(request.toolName), managed?.sandbox.forceEnabled?.where);
      if (sandboxed) return sandboxed;
      const decision = modeDecision(request.mode, request.category);
      const reason =
        decision === 'allow'
          ? `${request.category} tools are allowed in ${request.mode} mode`
          : `${request.category} tools ask for approval in ${request.mode} mode (--permission-mode ${modeThatAllows(request.category)} allows them)`;
      return { decision, layer: NAME, reason };
    });
    if (kernel.cli?.dontAsk === true) {
      kernel.hooks.requestApproval.tapPromise({ name: NAME, stage: DONT_ASK_STAGE }, async (request) => dontAskRefusal(kernel, request));
    } else if (kernel.cli?.permissionModeGiven !== true) {
      // A settings file's `defaultMode: dontAsk` applies where the command line named no mode (as its defaultMode does).
      kernel.hooks.requestApproval.tapPromise({ name: NAME, stage: DONT_ASK_STAGE }, async (request) => (settingsDontAsk(kernel) ? dontAskRefusal(kernel, request, 'defaultMode: dontAsk in your settings') : undefined));
    }
  },
});
