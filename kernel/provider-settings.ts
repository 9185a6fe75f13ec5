/**
 * The `providers:` / `provider:` configuration sections (P5) and how the active provider is
 * chosen: flags > environment > configuration. Missing key or model is a ConfigurationError that
 * says exactly what to set, raised before any network call.
 */
import type { ProviderFactory, ProviderSettings } from '../types/provider.js';
import type { ProviderEntry } from './kernel-sections.js';
import { ConfigurationError } from './configuration-error.js';
import { resolveModelAlias } from '../types/model-aliases.js';

export const DEFAULT_MAX_TOKENS = 16_384;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_THINKING_BUDGET = 8_000;

export interface ProviderSelectionInput {
  entries: readonly ProviderEntry[];
  /** A `providers:` section exists: never fall back to a provider built from the environment. */
  providersConfigured?: boolean;
  /** `provider:` from config: the configured name to use */
  configuredActive?: string;
  env: NodeJS.ProcessEnv;
  flags: { provider?: string; model?: string };
  factories: readonly ProviderFactory[];
  expand(value: string, where: string): string;
}

/** Settings of every usable provider, the active one first. */
export function resolveProviderSettings(input: ProviderSelectionInput): { active: ProviderSettings; all: ProviderSettings[] } {
  const protocols = input.factories.map((f) => f.protocol);
  if (input.providersConfigured && input.entries.length === 0) {
    throw new ConfigurationError('No usable provider: every entry of the `providers:` section is invalid (see the warnings above). Fix them, or remove the section to configure a provider with environment variables.');
  }
  const entries = input.entries.length > 0 ? input.entries : [entryFromEnvironment(input, protocols)];
  const wanted = input.flags.provider ?? input.env.MEWCODE_PROVIDER ?? input.configuredActive;
  const chosen = wanted === undefined ? entries[0] : entries.find((e) => e.name === wanted) ?? entries.find((e) => e.protocol === wanted);
  if (!chosen) {
    const names = entries.map((e) => `${e.name} (${e.protocol})`).join(', ');
    throw new ConfigurationError(`Unknown provider "${wanted}": configured providers are ${names}. Use one of these names with --provider or MEWCODE_PROVIDER.`);
  }
  const model = input.flags.model ?? input.env.MEWCODE_MODEL;
  const active = toSettings(model ? { ...chosen, model } : chosen, input);
  const others = entries.filter((e) => e !== chosen).flatMap((e) => {
    try {
      return [toSettings(e, input)];
    } catch {
      return []; // only the active provider has to be complete; others are checked when switched to
    }
  });
  return { active, all: [active, ...others] };
}

function entryFromEnvironment(input: ProviderSelectionInput, protocols: string[]): ProviderEntry {
  const requested = input.flags.provider ?? input.env.MEWCODE_PROVIDER;
  let protocol = requested;
  if (protocol === undefined) {
    protocol = input.factories.find((f) => input.env[f.apiKeyEnv] || (f.authTokenEnv !== undefined && input.env[f.authTokenEnv]))?.protocol;
  }
  if (protocol === undefined) {
    const keys = input.factories.map((f) => f.apiKeyEnv).join(' or ');
    throw new ConfigurationError(
      `No provider configured: set ${keys} (and MEWCODE_MODEL), or MEWCODE_PROVIDER=${protocols.join('|')}, ` +
        'or add a `providers:` list to .mewcode.yaml or ~/.mewcode/config.yaml.',
    );
  }
  if (!protocols.includes(protocol)) {
    throw new ConfigurationError(`Unknown provider "${protocol}": expected one of ${protocols.join(', ')} (from --provider or MEWCODE_PROVIDER).`);
  }
  return { name: protocol, protocol };
}

function toSettings(entry: ProviderEntry, input: ProviderSelectionInput): ProviderSettings {
  const factory = input.factories.find((f) => f.protocol === entry.protocol);
  if (!factory) {
    const known = input.factories.map((f) => f.protocol).join(', ') || '(none loaded)';
    throw new ConfigurationError(`Provider "${entry.name}" uses protocol "${entry.protocol}", which no loaded plugin provides (available: ${known}).`);
  }
  if (!entry.model) {
    throw new ConfigurationError(
      `No model set for provider "${entry.name}": set MEWCODE_MODEL, pass --model, or set \`model\` in its providers entry. MewCode has no default model on purpose.`,
    );
  }
  // `sonnet`, `opus`, `haiku` (Claude Code's aliases) from --model, MEWCODE_MODEL or the entry.
  const configuredModels = input.entries.flatMap((e) => (e.model ? [e.model] : []));
  const model = resolveModelAlias(entry.model, { protocol: entry.protocol, provider: entry.name }, input.env, configuredModels);
  if (!model.ok) throw new ConfigurationError(model.error);
  const apiKey = entry.api_key !== undefined ? input.expand(entry.api_key, `providers.${entry.name}.api_key`) : input.env[factory.apiKeyEnv];
  const baseUrl = entry.base_url ?? input.env[factory.baseUrlEnv];
  // Without a key, the factory's bearer-token variable stands in (ANTHROPIC_AUTH_TOKEN).
  const authToken = !apiKey && factory.authTokenEnv !== undefined ? input.env[factory.authTokenEnv] || undefined : undefined;
  if (!apiKey && !authToken && (factory.apiKeyRequired?.(baseUrl || undefined) ?? true)) {
    throw new ConfigurationError(
      `No API key for provider "${entry.name}" (${entry.protocol}): set ${factory.apiKeyEnv}${factory.authTokenEnv ? ` (or ${factory.authTokenEnv})` : ''}, or \`api_key\` (literal or \${VAR}) in its providers entry.`,
    );
  }
  const thinking = entry.thinking === undefined || entry.thinking === false ? undefined
    : entry.thinking === true ? { enabled: true, budgetTokens: DEFAULT_THINKING_BUDGET }
    : { enabled: entry.thinking.enabled, budgetTokens: entry.thinking.budget_tokens ?? DEFAULT_THINKING_BUDGET };
  const maxTokens = entry.max_tokens ?? DEFAULT_MAX_TOKENS;
  if (thinking?.enabled && thinking.budgetTokens >= maxTokens) {
    throw new ConfigurationError(`Provider "${entry.name}": thinking.budget_tokens (${thinking.budgetTokens}) must be less than max_tokens (${maxTokens}).`);
  }
  const settings: ProviderSettings = {
    name: entry.name,
    protocol: entry.protocol as ProviderSettings['protocol'],
    model: model.model,
    contextWindow: entry.context_window ?? factory.defaultContextWindow,
    maxTokens,
    maxRetries: entry.max_retries ?? DEFAULT_MAX_RETRIES,
    retryBaseDelayMs: entry.retry_base_delay_ms ?? DEFAULT_RETRY_BASE_DELAY_MS,
  };
  if (apiKey) settings.apiKey = apiKey;
  if (authToken) settings.authToken = authToken;
  if (baseUrl) settings.baseUrl = baseUrl;
  if (thinking) settings.thinking = thinking;
  if (entry.images === false) settings.images = false;
  if (entry.reasoning_content !== undefined) settings.reasoningContent = entry.reasoning_content;
  if (entry.max_completion_tokens !== undefined) settings.maxCompletionTokens = entry.max_completion_tokens;
  const timeoutMs = entry.timeout_ms ?? timeoutFromEnvironment(input.env['API_TIMEOUT_MS']);
  if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs;
  return settings;
}

/** API_TIMEOUT_MS, as Claude Code reads it: a whole number of milliseconds; anything else is ignored. */
function timeoutFromEnvironment(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const ms = Number(text.trim());
  return ms >= 1000 ? ms : undefined;
}
