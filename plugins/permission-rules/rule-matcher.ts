/**
 * One permission-rule string as a test of tool calls (PermissionSettings.ruleMatcher), for other
 * plugins that take a rule as a filter (a hook handler's `if`): the rule is compiled as the
 * settings files' rules are, and judged by the same engine as an ask rule alone in its layer, so
 * it matches exactly the calls such a rule would ask about — any segment of a compound command,
 * a wrapped or oddly spelled command, and a command that cannot be seen through.
 */
import type { PermissionRequest } from '../../types/permissions.js';
import type { PermissionRuleMatcher, RuleSubject } from '../../types/services.js';
import { toolCategory } from '../../types/tools.js';
import { RulesEngine, type EngineContext } from './engine.js';
import type { PermissionRules } from './permission-rules.js';
import { RuleLayer } from './rule-set.js';

export type RuleMatcherFactory = (rule: string, base?: 'user' | 'project') => Promise<PermissionRuleMatcher | { error: string }>;

export function ruleMatcherFactory(rules: Pick<PermissionRules, 'compile'>, context: EngineContext): RuleMatcherFactory {
  return async (text, base = 'project') => {
    if (typeof text !== 'string' || text.trim() === '') return { error: 'a rule must be a non-empty string' };
    let problem: string | undefined;
    const [compiled] = await rules.compile([{ list: 'ask', value: text, origin: { scope: base, source: 'rule test' } }], (_input, error) => {
      problem = error;
    });
    if (!compiled) return { error: problem ?? 'not a permission rule' };
    const layer = new RuleLayer(base);
    layer.add(compiled);
    const engine = new RulesEngine([layer]);
    return Object.freeze({
      rule: compiled.text,
      async matches(call: RuleSubject): Promise<boolean> {
        const { toolName, tool, input, projectRoot } = call;
        const target = (await tool?.permissionTarget?.(input)) ?? { kind: 'none' as const };
        const request = { toolName, tool, input, category: toolCategory(tool), target, projectRoot, mode: 'default', sessionId: '' } satisfies PermissionRequest;
        // An ask rule alone decides nothing but ask: any verdict is the rule matching.
        return (await engine.check(request, context)) !== undefined;
      },
    });
  };
}
