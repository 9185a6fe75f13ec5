/**
 * A role's or caller's `model` among the configured providers: a provider name; a configured
 * model name (its provider); Claude Code's aliases (`sonnet`, `opus`, `haiku`) as the first
 * configured model whose name contains them, else on an Anthropic parent the alias itself (the
 * provider registry resolves it as it does `--model`, types/model-aliases.ts), else the parent's
 * model with a notice; `inherit`
 * the parent's; anything else a model name on the parent's provider. Shared by sub-agents and
 * custom commands, whose `model:` fields are written for Claude Code.
 */
import type { ProviderSettings } from '../types/provider.js';
import type { ModelSelection } from '../types/session.js';
import { isClaudeModelAlias } from '../types/model-aliases.js';

export interface ModelChoice {
  selection: ModelSelection;
  /** Said to the user when the wish could not be met as written. */
  notice?: string;
}

/** `parent` is the parent session's provider and model: a sub-agent inherits them. `user` names who uses it in the notice. */
export function chooseModel(wanted: string | undefined, configured: readonly ProviderSettings[], parent: { provider: string; model: string }, user = 'the sub-agent'): ModelChoice {
  const inherit: ModelSelection = { provider: parent.provider, model: parent.model };
  const name = wanted?.trim();
  if (!name || name === 'inherit') return { selection: inherit };
  const provider = configured.find((s) => s.name === name);
  if (provider) return { selection: { provider: provider.name } };
  const byModel = configured.find((s) => s.model === name);
  if (byModel) return { selection: { provider: byModel.name, model: byModel.model } };
  const alias = name.toLowerCase();
  if (isClaudeModelAlias(alias)) {
    const similar = configured.find((s) => s.model.toLowerCase().includes(alias));
    if (similar) return { selection: { provider: similar.name, model: similar.model } };
    const parentProtocol = configured.find((s) => s.name === parent.provider)?.protocol;
    if (parentProtocol === 'anthropic') return { selection: { provider: parent.provider, model: alias } };
    return { selection: inherit, notice: `No configured model matches "${name}"; ${user} uses ${parent.model} (provider "${parent.provider}").` };
  }
  return { selection: { provider: parent.provider, model: name } };
}
