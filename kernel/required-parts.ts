/**
 * What a required plugin (the organisation's) adds to the system prompt or the environment
 * (buildSystemPrompt, buildEnvironment) must reach the model. Its taps there run last among
 * configured plugins' (policy-taps.ts), but preModelRequest comes after both builders, and a
 * configured tap there could rewrite `system` without the organisation's rules. So the kernel
 * keeps every part a required tap answered with (not only the ones it added: it may push to the
 * list it was handed, or find its text already put there by a configured tap before it), and a
 * request whose `system` lost one that its base request held, or whose `system` is not text, is
 * not sent (naming the plugin whose part it was). A required plugin may still
 * change its own parts in its own preModelRequest tap: it runs after every configured one, and
 * what it returns is checked like the rest.
 */
import type { ModelRequest } from '../types/provider.js';

/** Parts kept per set of hooks (the newest; an old part no base request holds any more is never asked about). */
const MAX_KEPT = 256;
const kept = new WeakMap<object, Map<string, string>>();

/** A required plugin's tap answered `after`: every part in it is one the plugin stands behind. */
export function recordRequiredParts(hooks: object, plugin: string, after: unknown): void {
  if (!Array.isArray(after)) return;
  let parts = kept.get(hooks);
  if (!parts) kept.set(hooks, (parts = new Map()));
  for (const part of after) {
    if (typeof part !== 'string' || part.trim() === '') continue;
    parts.delete(part);
    parts.set(part, plugin);
    if (parts.size > MAX_KEPT) parts.delete(parts.keys().next().value!);
  }
}

/** The plugin whose part `base.system` held and `sent.system` lost, or undefined. */
export function lostRequiredPart(hooks: object, base: ModelRequest, sent: ModelRequest): string | undefined {
  const parts = kept.get(hooks);
  if (!parts || parts.size === 0) return undefined;
  const had = `${base.system.stable}\n${base.system.environment}`;
  const { stable, environment } = (sent.system ?? {}) as { stable?: unknown; environment?: unknown };
  const has = typeof stable === 'string' && typeof environment === 'string' ? `${stable}\n${environment}` : '';
  for (const [part, plugin] of parts) if (had.includes(part) && !has.includes(part)) return plugin;
  return undefined;
}
