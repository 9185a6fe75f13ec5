/**
 * Permission layer 1, the dangerous-command blacklist (SPEC A1, A2, A10). Taps checkPermission at
 * PermissionStage.Blacklist for command-executing calls (`target.kind === 'command'`): every
 * segment of the command (plugins/shell-command) is checked against the ten patterns of seed 003
 * (see patterns.ts); a hit is a deny that no rule, mode (bypassPermissions included) or approval
 * can turn into an allow. No hit: no verdict, the next layer decides. Essential: `disable:` in
 * configuration cannot remove it. It has no configuration on purpose.
 */
import { definePlugin } from '../../types/plugin.js';
import { PermissionStage, type PermissionVerdict } from '../../types/permissions.js';
import { checkCommand } from './check.js';

const NAME = 'permission-blacklist';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  essential: true,
  apply(kernel) {
    let warned = false;
    const onParserFailure = (error: unknown): void => {
      if (warned) return;
      warned = true;
      kernel.warn(`${NAME}: the shell parser could not be loaded (${(error as Error).message ?? String(error)}); commands are checked as text only`);
    };
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Blacklist }, async (request): Promise<PermissionVerdict | undefined> => {
      if (request.target.kind !== 'command') return undefined;
      const command = request.target.command;
      if (typeof command !== 'string') {
        return { decision: 'deny', layer: NAME, reason: `could not read the command of this ${request.toolName} call, so it cannot be checked` };
      }
      const hit = await checkCommand(command, { projectRoot: request.projectRoot, homeDir: kernel.session.homeDir, onParserFailure });
      if (!hit) return undefined;
      const how = hit.fromRawText ? ' (the command could not be parsed, so it was checked as text)' : '';
      return { decision: 'deny', layer: NAME, reason: `blocked dangerous command: ${hit.pattern} in segment "${hit.segment}"${how}` };
    });
  },
});
