/**
 * Why no allow rule, `--allowedTools` or permission mode lets an asked call run, for a refusal's
 * message (headless `-p`, `dontAsk`): the one wording for a question whose `allowRuleLifts` is
 * false (the kernel's reading of the chain), so no front end suggests a rule that would not help.
 * Undefined when an allow rule would lift it (then suggest the rule).
 */
import type { ApprovalRequest } from './permissions.js';

export function unliftedAskNote(request: Pick<ApprovalRequest, 'allowRuleLifts' | 'verdict'>, managedRulesOnly?: string): string | undefined {
  if (request.allowRuleLifts) return undefined;
  const { layer } = request.verdict;
  const source = layer.split(':')[0] ?? layer;
  if (layer.startsWith('permission-rules:managed')) return 'Managed settings require a person to approve it: run interactively to answer.';
  if (source === 'permission-rules') return 'An ask in the settings holds whatever allow rules or --allowedTools say: run interactively to answer, or change the settings that ask.';
  if (source === 'hook') return `A PreToolUse hook (${layer.slice('hook:'.length)}) asks, and no --allowedTools or allow rule lifts a hook's question: run interactively to answer, or change the hook.`;
  if (managedRulesOnly !== undefined) {
    return `The organisation's managed settings allow only their own permission rules (${managedRulesOnly}: allow_managed_rules_only), so no --allowedTools or rule of yours can allow it: run interactively to answer, or ask the administrators to allow it.`;
  }
  return `The plugin ${source} asks, and no --allowedTools, allow rule or permission mode lifts a plugin's ask: run interactively to answer, or ask whoever maintains ${source} (the policy's owner).`;
}
