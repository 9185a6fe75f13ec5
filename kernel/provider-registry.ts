/** Holds the configured providers; the active one serves requests and sets the context window (P5). */
import type { Provider, ProviderFactory, ProviderSettings } from '../types/provider.js';
import type { ProviderRegistry } from '../types/services.js';
import { ConfigurationError } from './configuration-error.js';

export class ProviderRegistryImpl implements ProviderRegistry {
  private current: Provider;
  private readonly instances = new Map<string, Provider>();

  constructor(
    private readonly factories: readonly ProviderFactory[],
    private readonly settings: readonly ProviderSettings[],
  ) {
    const first = settings[0];
    if (!first) throw new ConfigurationError('No provider configured.');
    this.current = this.instantiate(first);
  }

  active(): Provider {
    return this.current;
  }

  configured(): readonly ProviderSettings[] {
    return this.settings;
  }

  switchTo(name: string): Provider {
    const settings = this.settings.find((s) => s.name === name);
    if (!settings) throw new ConfigurationError(`No usable provider named "${name}" (configured: ${this.settings.map((s) => s.name).join(', ')}).`);
    this.current = this.instantiate(settings);
    return this.current;
  }

  private instantiate(settings: ProviderSettings): Provider {
    const existing = this.instances.get(settings.name);
    if (existing) return existing;
    const factory = this.factories.find((f) => f.protocol === settings.protocol);
    if (!factory) throw new ConfigurationError(`No plugin provides protocol "${settings.protocol}".`);
    const provider = factory.create(settings);
    this.instances.set(settings.name, provider);
    return provider;
  }
}
