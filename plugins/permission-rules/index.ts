/**
 * The permission rules layer (A1, A5, A6, A9, A10), `checkPermission` stage 300.
 *
 * Layers: managed (the organisation's deny and ask rules) > session (--allowedTools / --disallowedTools, "allow for this session") > local
 * (.mewcode/settings.local.yaml) > project (.mewcode/settings.yaml) > user
 * (~/.mewcode/settings.yaml). Precedence is by kind across all of them (Claude Code's): a deny
 * rule of any layer denies, else an ask rule of any layer asks, else an allow rule allows; the
 * layer order only chooses which rule is named. So no layer lifts another's deny or ask (a
 * project's ask cannot turn the user's deny into a question). The user's "allow always"
 * answers are saved in ~/.mewcode/approvals/ and read at the local layer. Allow rules (and
 * default_mode, additional_directories) of the project's files apply only once it is trusted. Denials that must
 * also hold against other plugins' layers, and that no user can delete, belong to the organisation's managed settings (config/managed-settings.ts:
 * their deny and ask rules are the top layer, and are checked once more at MANAGED_STAGE, before
 * any plugin's layer), or to a policy plugin tapping an earlier stage (e.g.
 * `PermissionStage.Sandbox + 50`). With `allow_managed_rules_only` no other allow rule applies
 * and approvals are not remembered. No matching rule → no verdict: the mode layer decides.
 *
 * Protected paths (protection.ts): a change to MewCode's settings, config, hooks or audit log,
 * `.git/config`, `.git/hooks/**`, `.claude/**` or `.mcp.json` asks in every mode unless an allow
 * rule of the user's own (not a project file's) names exactly that file — checked here, before the mode layer could allow it.
 *
 * A tool a deny rule without a pattern names (`Bash`, `mcp__*`) is left out of every model
 * request's tool list (preModelRequest: hidden-tools.ts), as in Claude Code.
 *
 * Binds TOKENS.PermissionSettings (default mode, additional directories, a rule as a test of
 * calls: rule-matcher.ts), TOKENS.Approvals
 * (list / revoke grants, suggestRule) and TOKENS.SearchPolicy (files glob and grep must skip).
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { sealedService } from '../../types/sealed-service.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import type { ToolRegistry } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { commandConfined } from '../../types/command-confined.js';
import { type CommandParser, LAYER_NAME } from './engine.js';
import { PermissionRules, engineContext, loadCallChecks } from './permission-rules.js';
import { ruleMatcherFactory } from './rule-matcher.js';
import { APPROVALS, PERMISSION_SETTINGS } from './services.js';
import { loadOnce } from '../../sdk/load-once.js';

export const NAME = 'permission-rules';

/** Where the managed rules are checked: after the blacklist, before the sandbox and every policy plugin. */
export const MANAGED_STAGE = PermissionStage.Blacklist + 50;

export interface PermissionRulesOptions {
  /** The shell parser for compound commands; the shell-command module's by default. */
  parseCommand?: CommandParser;
}

type ShellCommandModule = typeof import('../../sdk/shell-command/index.js');

/**
 * The shell parser's module, imported at the first command or while the first request waits
 * (warm), never at boot: a dynamic import in the middle of a turn gap costs its file reads and
 * link steps (≈ 2 ms). One import per process, retried after a failure.
 */
const loadShellCommand = loadOnce<ShellCommandModule>(() => import('../../sdk/shell-command/index.js'));

const parseShellCommandLazily: CommandParser = async (command) => (await loadShellCommand()).parseShellCommand(command);

/**
 * The layer's one instance; its services are views of it. A symbol of this module's, which no other
 * plugin can name: its grantSession / grantLocal / load add allow rules as the user's answers or
 * --allowedTools, which only this plugin's permissionDecided tap (the user answered) makes.
 */
const RULES: ServiceIdentifier<PermissionRules> = Symbol('permission-rules/rules');

export function createPermissionRulesPlugin(options: PermissionRulesOptions = {}): MewcodePlugin {
  return definePlugin({
    name: NAME,
    safety: true,
    version: '0.1.0',
    bindings: new ContainerModule(({ bind }) => {
      bind(RULES)
        .toDynamicValue((context) => {
          const kernel = context.get<KernelApi>(TOKENS.Kernel);
          const trust = context.get(TOKENS.WorkspaceTrust, { optional: true });
          const managed = context.get(TOKENS.ManagedPolicy, { optional: true });
          return sealedService(new PermissionRules({
            projectRoot: kernel.projectRoot,
            homeDir: kernel.homeDir,
            parseCommand: options.parseCommand ?? parseShellCommandLazily,
            warn: (message) => kernel.warn(message),
            tools: context.get<ToolRegistry>(TOKENS.ToolRegistry),
            confined: (toolName) => commandConfined(kernel.container, toolName),
            ...(trust ? { trust } : {}),
            ...(managed ? { managed } : {}),
          }));
        })
        .inSingletonScope();
      // Readers call these services' methods at check or run time, after apply has read the files.
      // Sealed (types/sealed-service.ts): a plugin that resolves one cannot replace a method for the rest.
      bind(PERMISSION_SETTINGS)
        .toDynamicValue((context) => {
          const rules = context.get(RULES);
          const { homeDir } = context.get<KernelApi>(TOKENS.Kernel);
          // A rule as a test of calls (a hook's `if`), judged by the same engine: rule-matcher.ts.
          const ruleMatcher = ruleMatcherFactory(rules, engineContext(homeDir, options.parseCommand ?? parseShellCommandLazily));
          return sealedService({ ...rules.settings(), ruleMatcher });
        })
        .inSingletonScope();
      bind(APPROVALS).toDynamicValue((context) => sealedService(context.get(RULES).approvals())).inSingletonScope();
      bind(TOKENS.SearchPolicy).toDynamicValue((context) => sealedService(context.get(RULES).searchPolicy())).inSingletonScope();
    }),
    // The first call's check then finds its modules loaded: the shell parser, and the checks
    // themselves (call-checks.ts), which start-up does not load.
    async warm() {
      await Promise.all([loadCallChecks(), options.parseCommand ? undefined : loadShellCommand()]);
    },
    // Every plugin's tools are registered by now: a rule naming none of them is reported.
    async start(kernel: KernelApi) {
      kernel.container.get(RULES).warnUnknownTools();
    },
    async apply(kernel: KernelApi) {
      const rules = kernel.container.get(RULES);
      await rules.load(kernel.cli);
      // The checks hold the methods read now, not whatever the shared object holds later.
      const { checkManaged, check, hiddenTools } = rules;

      // The managed settings' rules once more, ahead of every other layer: at this stage a deny
      // ends the chain and an ask is a floor, so a plugin's layer at a stage before the rules
      // (e.g. a policy plugin at 250 that allows) cannot lift them either.
      kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: MANAGED_STAGE }, (request) => checkManaged(request));
      kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Rules }, (request) => check(request));

      // A tool a deny rule takes away whole (`Bash`, `mcp__*`, `--disallowedTools Write`) is not
      // offered to the model (hidden-tools.ts); its calls are still denied above if it makes one.
      kernel.hooks.preModelRequest.tap(NAME, (request) => {
        const hidden = hiddenTools(request.tools.map((tool) => tool.name));
        for (const name of hidden) if (kernel.tools.get(name)?.system === true) hidden.delete(name);
        return hidden.size === 0 ? request : { ...request, tools: request.tools.filter((tool) => !hidden.has(tool.name)) };
      });

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
