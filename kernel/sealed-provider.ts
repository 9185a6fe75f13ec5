/**
 * What plugins hold of a provider: a frozen facade over the one its factory made. Every provider
 * a kernel hands out — the ProviderRegistry's `active()`, `resolve()`, `switchTo()`, a session's
 * `currentProvider()`, `context.provider` of preModelRequest and of the compaction hooks, and
 * what a ProviderFactory from the container `create`s — is one.
 *
 * A plugin calling `stream` itself would send a model request that preModelRequest (the
 * organisation's DLP, a model allowlist) never saw. So the facade's `stream` always throws. The
 * kernel's own sends (the agent loop's turns, `KernelApi.sendModelRequest`, both after
 * preModelRequest) reach the real provider through `streamModel`, which only kernel code imports.
 */
import type { ModelRequest, Provider, ProviderEvent, ProviderFactory, ProviderSettings } from '../types/provider.js';

export const DIRECT_STREAM_REFUSED =
  "a provider cannot be called directly: a plugin's own model request goes through kernel.sendModelRequest (preModelRequest first, like every turn)";

/** Each facade's provider; never reachable from the facade itself. */
const REAL = new WeakMap<object, Provider>();

export function sealedProvider(provider: Provider): Provider {
  if (REAL.has(provider)) return provider;
  const { id, protocol, model, contextWindow } = provider;
  const warm = provider.warm;
  const facade: Provider = Object.freeze({
    id,
    protocol,
    model,
    contextWindow,
    ...(typeof warm === 'function' ? { warm: () => warm.call(provider) } : {}),
    stream(): AsyncIterable<ProviderEvent> {
      throw new Error(DIRECT_STREAM_REFUSED);
    },
  });
  REAL.set(facade, provider);
  return facade;
}

/**
 * The kernel's own send, after preModelRequest (kernel/agent-loop.ts, kernel/model-request.ts): to
 * a facade's real provider, or to a provider that is no facade (one a plugin built itself and
 * passed to sendModelRequest) as it is.
 */
export function streamModel(provider: Provider, request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
  return (REAL.get(provider) ?? provider).stream(request, signal);
}

/**
 * A provider factory as the container hands it out: a frozen copy of its fields, its methods bound
 * to it, and `create` making facades (settings from `ProviderRegistry.configured()` would otherwise
 * make a provider that streams past the hooks). A copy, not a proxy: a proxy reports the target's
 * property descriptors, which hold the real `create`.
 */
export function sealedFactory(factory: ProviderFactory): ProviderFactory {
  if (FACTORIES.has(factory)) return factory;
  const copy: Record<PropertyKey, unknown> = {};
  for (let proto: object | null = factory; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || key in copy) continue;
      const value: unknown = Reflect.get(factory, key);
      copy[key] = typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(factory) : value;
    }
  }
  copy.create = (settings: ProviderSettings): Provider => sealedProvider(factory.create(settings));
  const sealed = Object.freeze(copy) as unknown as ProviderFactory;
  FACTORIES.add(sealed);
  return sealed;
}

/** Factories already sealed (one bound twice is not wrapped twice). */
const FACTORIES = new WeakSet<object>();
