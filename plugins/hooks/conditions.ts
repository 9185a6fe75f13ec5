/**
 * Claude Code's handler `if`: one permission-rule string (`Bash(git push *)`, `Edit(*.ts)`) a
 * tool call must match for the handler to run, so a narrowly scoped blocking hook does not fire
 * (and block) on every call its matcher names. The rule is compiled and matched by the permission
 * rules' own matcher (`PermissionSettings.ruleMatcher`, TOKENS.PermissionSettings), exactly as a
 * deny or ask rule of that text would match: any segment of a compound command, through wrappers,
 * and a command that cannot be seen through. A handler whose `if` is not a rule, or that no
 * matcher can judge (a build without the permission-rules plugin), is skipped with a warning.
 */
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionRuleMatcher, PermissionSettings, RuleSubject } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { HookRule } from './settings.js';

export type Conditions = ReadonlyMap<HookRule, PermissionRuleMatcher>;

/** The rules that can run (a skipped one is said in `warn`), and the matcher of each one's `if`. */
export async function compileConditions(kernel: Pick<KernelApi, 'container'>, rules: readonly HookRule[], warn: (message: string) => void): Promise<{ rules: HookRule[]; conditions: Conditions }> {
  const conditions = new Map<HookRule, PermissionRuleMatcher>();
  if (!rules.some((rule) => rule.if !== undefined)) return { rules: [...rules], conditions };
  const settings = kernel.container.isBound(TOKENS.PermissionSettings) ? kernel.container.get<PermissionSettings>(TOKENS.PermissionSettings) : undefined;
  const kept: HookRule[] = [];
  for (const rule of rules) {
    if (rule.if === undefined) {
      kept.push(rule);
      continue;
    }
    if (!settings?.ruleMatcher) {
      warn(`hooks: ${rule.name}: if ${JSON.stringify(rule.if)} cannot be matched: this build has no permission rules to match it with; the handler is skipped`);
      continue;
    }
    const matcher = await settings.ruleMatcher(rule.if, rule.scope === 'user' ? 'user' : 'project');
    if ('error' in matcher) {
      warn(`hooks: ${rule.name}: if ${JSON.stringify(rule.if)} is not a permission rule (${matcher.error}); the handler is skipped`);
      continue;
    }
    conditions.set(rule, matcher);
    kept.push(rule);
  }
  return { rules: kept, conditions };
}

/**
 * Whether the call meets the rule's `if` (a rule without one: yes). A matcher that fails counts
 * as a match: the hook runs and decides, rather than a guard being skipped.
 */
export async function meetsCondition(conditions: Conditions, rule: HookRule, call: RuleSubject | undefined): Promise<boolean> {
  const matcher = conditions.get(rule);
  if (!matcher) return true;
  if (!call) return false;
  try {
    return await matcher.matches(call);
  } catch {
    return true;
  }
}
