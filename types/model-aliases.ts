/**
 * Claude Code's model aliases (`sonnet`, `opus`, `haiku`, and the spellings OTHER_SPELLINGS reads), as scripts pass them (`claude -p
 * --model sonnet`) and files write them (`model: haiku`). Sent verbatim, the Anthropic API answers
 * 404. One resolution serves `--model`, MEWCODE_MODEL, a providers entry's `model:`, `/model`, a
 * sub-agent's, command's or skill's `model:`, so an alias means the same model everywhere:
 *
 * 1. `ANTHROPIC_DEFAULT_SONNET_MODEL` (`…_OPUS_…`, `…_HAIKU_…`), Claude Code's own override;
 * 2. else the first configured model whose name contains the alias (a gateway's
 *    `anthropic/claude-sonnet-4`, a pinned `claude-sonnet-4-5-20250929`);
 * 3. else, on the Anthropic protocol, the family's current model id, as Claude Code maps it;
 * 4. else (another protocol, whose server has no Claude names) an error saying what to set.
 *
 * Kernel and plugins both need it, so it lives here (types/ imports nothing above it).
 */

/** Each alias's model id on the Anthropic API (the undated ids point at the newest snapshot). */
export const CLAUDE_MODEL_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-5',
  haiku: 'claude-haiku-4-5',
});

/**
 * Claude Code's other spellings, as the family they mean here: `default` (the recommended model,
 * Sonnet), `opusplan` (Opus while planning, Sonnet otherwise: MewCode does not switch models by
 * mode, so Sonnet), and `sonnet[1m]`/`opus[1m]` (the 1M-token context, a beta MewCode does not
 * request: the family's model with its usual context).
 */
const OTHER_SPELLINGS: Readonly<Record<string, string>> = Object.freeze({ default: 'sonnet', opusplan: 'sonnet' });

/** The family an alias means (`sonnet`, `opus`, `haiku`), or undefined for a model name. */
function familyOf(name: string): string | undefined {
  const spelled = name.trim().toLowerCase();
  const plain = spelled.endsWith('[1m]') ? spelled.slice(0, -4) : spelled;
  const family = Object.hasOwn(OTHER_SPELLINGS, plain) && plain === spelled ? OTHER_SPELLINGS[plain]! : plain;
  return Object.hasOwn(CLAUDE_MODEL_ALIASES, family) ? family : undefined;
}

/** `sonnet`, `Opus`, `sonnet[1m]`, `opusplan`, `default`…: one of Claude Code's aliases, whatever the case. */
export function isClaudeModelAlias(name: string): boolean {
  return familyOf(name) !== undefined;
}

/** The environment variable that overrides an alias (Claude Code's name for it). */
export function aliasOverrideVariable(alias: string): string {
  return `ANTHROPIC_DEFAULT_${alias.trim().toUpperCase()}_MODEL`;
}

export type AliasResolution = { ok: true; model: string } | { ok: false; error: string };

/**
 * `model` as the API should get it. `protocol` and `provider` are the provider's the model is for;
 * `configuredModels` the models named in configuration (aliases among them are skipped).
 */
export function resolveModelAlias(
  model: string,
  target: { protocol: string; provider: string },
  env: Readonly<Record<string, string | undefined>>,
  configuredModels: readonly string[] = [],
): AliasResolution {
  const alias = familyOf(model);
  if (alias === undefined) return { ok: true, model };
  const override = env[aliasOverrideVariable(alias)]?.trim();
  if (override) return { ok: true, model: override };
  const configured = configuredModels.find((m) => !isClaudeModelAlias(m) && m.toLowerCase().includes(alias));
  if (configured !== undefined) return { ok: true, model: configured };
  if (target.protocol === 'anthropic') return { ok: true, model: CLAUDE_MODEL_ALIASES[alias]! };
  return {
    ok: false,
    error:
      `Model "${model.trim()}" is Claude Code's alias for an Anthropic model, and provider "${target.provider}" speaks ${target.protocol}, which has no such model: ` +
      `give that provider's model name (--model, MEWCODE_MODEL or \`model\` in its providers entry), or set ${aliasOverrideVariable(alias)} to the model the alias should mean.`,
  };
}
