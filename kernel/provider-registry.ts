/**
 * Holds the configured providers; the active one serves requests and sets the context window (P5).
 * Every provider it hands out is a facade that plugins cannot stream from (sealed-provider.ts), and
 * its state is in true private fields. Plugins get `pluginView()`, whose settings carry no key.
 */
import type { Provider, ProviderFactory, ProviderSettings } from '../types/provider.js';
import type { ModelChoice, ProviderRegistry } from '../types/services.js';
import { ConfigurationError } from './configuration-error.js';
import { sealedProvider } from './sealed-provider.js';
import { resolveModelAlias } from '../types/model-aliases.js';

export class ProviderRegistryImpl implements ProviderRegistry {
  #current: Provider;
  readonly #instances = new Map<string, Provider>();
  readonly #factories: readonly ProviderFactory[];
  readonly #settings: readonly ProviderSettings[];
  /** The environment an alias's override is read from (ANTHROPIC_DEFAULT_SONNET_MODEL…). */
  readonly #env: Readonly<Record<string, string | undefined>>;

  constructor(factories: readonly ProviderFactory[], settings: readonly ProviderSettings[], env: Readonly<Record<string, string | undefined>> = {}) {
    this.#factories = factories;
    this.#settings = settings;
    this.#env = env;
    const first = settings[0];
    if (!first) throw new ConfigurationError('No provider configured.');
    this.#current = this.#instantiate(first);
  }

  active(): Provider {
    return this.#current;
  }

  configured(): readonly ProviderSettings[] {
    return this.#settings;
  }

  /**
   * The registry as the container hands it to every plugin: the same calls, but `configured()`
   * gives frozen copies without the API key. A plugin picks a model by name (sub-agents, a
   * command's `model:`); it has no use for the key, and it must not change a base URL that a
   * later request (with the key) would follow.
   */
  pluginView(): ProviderRegistry {
    const keyless = Object.freeze(
      this.#settings.map(({ apiKey: _key, thinking, ...rest }) => Object.freeze({ ...rest, ...(thinking ? { thinking: Object.freeze({ ...thinking }) } : {}) })),
    );
    return Object.freeze({
      active: () => this.active(),
      configured: () => keyless,
      models: () => this.models(),
      switchTo: (name: string) => this.switchTo(name),
      resolve: (options: { name?: string; model?: string }) => this.resolve(options),
    });
  }

  models(): readonly ModelChoice[] {
    return this.#settings.map((s) => ({
      provider: s.name,
      protocol: s.protocol,
      model: s.model,
      contextWindow: s.contextWindow,
      maxTokens: s.maxTokens,
      active: s.name === this.#current.id && s.model === this.#current.model,
    }));
  }

  switchTo(name: string): Provider {
    const settings = this.#settings.find((s) => s.name === name);
    if (!settings) throw new ConfigurationError(`No usable provider named "${name}" (configured: ${this.#settings.map((s) => s.name).join(', ')}).`);
    this.#current = this.#instantiate(settings);
    return this.#current;
  }

  /** A session's provider: the active one unless a name or model is given; instances are shared. */
  resolve(wanted: { name?: string; model?: string }): Provider {
    const options = this.#withoutAlias(wanted);
    if (options.name === undefined && (options.model === undefined || options.model === this.#current.model)) return this.#current;
    const base = options.name === undefined ? this.#settings.find((s) => s.name === this.#current.id) : this.#settings.find((s) => s.name === options.name);
    if (!base) throw new ConfigurationError(`No usable provider named "${options.name}" (configured: ${this.#settings.map((s) => s.name).join(', ')}).`);
    return this.#instantiate(options.model === undefined ? base : { ...base, model: options.model });
  }

  /** A model given as Claude Code's alias (`/model sonnet`, a sub-agent's `model: haiku`) as the provider's model id. */
  #withoutAlias(options: { name?: string; model?: string }): { name?: string; model?: string } {
    if (options.model === undefined) return options;
    const base = options.name === undefined ? this.#settings.find((s) => s.name === this.#current.id) : this.#settings.find((s) => s.name === options.name);
    if (!base) return options;
    const resolved = resolveModelAlias(options.model, { protocol: base.protocol, provider: base.name }, this.#env, this.#settings.map((s) => s.model));
    if (!resolved.ok) throw new ConfigurationError(resolved.error);
    return { ...options, model: resolved.model };
  }

  #instantiate(settings: ProviderSettings): Provider {
    const key = `${settings.name}\u0000${settings.model}`;
    const existing = this.#instances.get(key);
    if (existing) return existing;
    const factory = this.#factories.find((f) => f.protocol === settings.protocol);
    if (!factory) throw new ConfigurationError(`No plugin provides protocol "${settings.protocol}".`);
    const provider = sealedProvider(factory.create(settings));
    this.#instances.set(key, provider);
    return provider;
  }
}
