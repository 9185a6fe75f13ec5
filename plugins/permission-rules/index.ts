/**
 * The permission rules layer (SPEC A1, A5, A6, A9, A10), `checkPermission` stage 300.
 *
 * Precedence: session (--allowedTools / --disallowedTools, "allow for this session") > local
 * (.mewcode/settings.local.yaml) > project (.mewcode/settings.yaml) > user
 * (~/.mewcode/settings.yaml); inside one layer deny, then ask, then allow; the first layer with
 * a matching rule decides, so a personal local allow overrides a project deny. Denials that no
 * user file may lift belong to a policy plugin tapping an earlier stage
 * (e.g. `PermissionStage.Sandbox + 50`). No matching rule → no verdict: the mode layer decides.
 *
 * Protected paths (protection.ts): a change to MewCode's settings, config, hooks or audit log,
 * `.git/config`, `.git/hooks/**`, `.claude/**` or `.mcp.json` asks in every mode unless an allow
 * rule names exactly that file — checked here, before the mode layer could allow it.
 *
 * Binds TOKENS.PermissionSettings (default mode, additional directories), TOKENS.Approvals
 * (list / revoke grants, suggestRule) and TOKENS.SearchPolicy (files glob and grep must skip).
 */
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import type { ToolRegistry } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { type CommandParser, LAYER_NAME } from './engine.js';
import { PermissionRules } from './permission-rules.js';
import { APPROVALS, PERMISSION_SETTINGS } from './services.js';
import { parseShellCommand } from '../../sdk/shell-command/index.js';

export const NAME = 'permission-rules';

export interface PermissionRulesOptions {
  /** The shell parser for compound commands; the shell-command module's by default. */
  parseCommand?: CommandParser;
}

export function createPermissionRulesPlugin(options: PermissionRulesOptions = {}): MewcodePlugin {
  return definePlugin({
    name: NAME,
    version: '0.1.0',
    async apply(kernel: KernelApi) {
      const rules = new PermissionRules({
        projectRoot: kernel.projectRoot,
        homeDir: kernel.homeDir,
        parseCommand: options.parseCommand ?? parseShellCommand,
        warn: (message) => kernel.warn(message),
        ...(kernel.container.isBound(TOKENS.ToolRegistry) ? { tools: kernel.container.get<ToolRegistry>(TOKENS.ToolRegistry) } : {}),
        ...(kernel.container.isBound(TOKENS.WorkspaceTrust) ? { trust: kernel.container.get(TOKENS.WorkspaceTrust) } : {}),
      });
      // Bound before the files are read: readers call the methods later, at check or run time.
      kernel.container.bind(PERMISSION_SETTINGS).toConstantValue(rules.settings());
      kernel.container.bind(APPROVALS).toConstantValue(rules.approvals());
      kernel.container.bind(TOKENS.SearchPolicy).toConstantValue(rules.searchPolicy());

      await rules.load(kernel.cli);

      kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Rules }, (request) => rules.check(request));

      kernel.hooks.permissionDecided.tapPromise(NAME, async ({ request, approval, allowed }) => {
        if (!approval || !allowed) return;
        if (approval.choice === 'allow_session') await rules.grantSession(rules.suggest(request));
        else if (approval.choice === 'allow_always') await rules.grantLocal(rules.suggest(request));
      });
    },
  });
}

export default createPermissionRulesPlugin();

export { LAYER_NAME };
export { APPROVALS, PERMISSION_SETTINGS } from './services.js';
export type { ApprovalGrant, Approvals, GrantScope, PermissionSettings } from './services.js';
export { suggestRule } from './suggest.js';
