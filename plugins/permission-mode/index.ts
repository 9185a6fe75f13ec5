/** The last automatic permission layer: the mode matrix (SPEC A7–A8). */
import { definePlugin } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import { modeDecision, modeThatAllows } from './mode-matrix.js';

const NAME = 'permission-mode';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Mode }, async (request) => {
      const decision = modeDecision(request.mode, request.category);
      const reason =
        decision === 'allow'
          ? `${request.category} tools are allowed in ${request.mode} mode`
          : `${request.category} tools ask for approval in ${request.mode} mode (--permission-mode ${modeThatAllows(request.category)} allows them)`;
      return { decision, layer: NAME, reason };
    });
  },
});
