/**
 * What a required plugin (the organisation's) adds to the system prompt or the environment
 * (buildSystemPrompt, buildEnvironment), or to a prompt (userPromptSubmit's additionalContext),
 * must reach the model. Its taps there run last among
 * configured plugins' (policy-taps.ts), but preModelRequest comes after both builders, and a
 * configured tap there could rewrite `system` without the organisation's rules. So the kernel
 * keeps every part a required tap answered with (not only the ones it added: it may push to the
 * list it was handed, or find its text already put there by a configured tap before it). Where the
 * request the kernel built holds each part is read before any preModelRequest tap is handed it (a
 * tap may change that request in place); a request sent without a part where it was (in `system`,
 * or in the user turn it was given for), or whose `system` is not text, is not sent (naming the
 * plugin whose part it was). A required plugin may still
 * change its own parts in its own preModelRequest tap: it runs after every configured one, and
 * what it returns is checked like the rest.
 */
import type { ModelRequest } from '../types/provider.js';

/** Parts kept per set of hooks (the newest; an old part no base request holds any more is never asked about). */
const MAX_KEPT = 256;
const kept = new WeakMap<object, Map<string, string>>();

/**
 * A required plugin's tap answered `answer`: every part in it is one the plugin stands behind (a
 * prompt builder's list of parts, or the `additionalContext` of a userPromptSubmit answer, which
 * joins the user's message).
 */
export function recordRequiredParts(hooks: object, plugin: string, answer: unknown): void {
  const after = Array.isArray(answer) ? answer : (answer as { additionalContext?: unknown } | undefined)?.additionalContext;
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

/** Where the request preModelRequest was handed holds one required part. */
interface Place {
  readonly part: string;
  readonly plugin: string;
  /** In `system` (its stable part or its environment). */
  readonly inSystem: boolean;
  /** The newest user message holding it, counted from the end of `messages` (0: the last one). */
  readonly fromEnd: number | undefined;
}

/**
 * Where the request holds each required part, read before any preModelRequest tap is handed it:
 * a tap may change the request it is handed in place, so what it held must be known before then.
 */
export type RequiredPlaces = readonly Place[];

/**
 * The places of the required parts `base` holds. `base` must be a request no plugin holds yet (the
 * one the kernel built or copied), and this runs before preModelRequest.
 */
export function requiredPlaces(hooks: object, base: ModelRequest): RequiredPlaces {
  const parts = kept.get(hooks);
  if (!parts || parts.size === 0) return [];
  const system = systemTexts(base) ?? [];
  const messages = Array.isArray(base.messages) ? (base.messages as readonly unknown[]) : [];
  const places: Place[] = [];
  for (const [part, plugin] of parts) {
    const inSystem = system.some((text) => text.includes(part));
    const fromEnd = newestTurnHolding(messages, part);
    if (inSystem || fromEnd !== undefined) places.push(Object.freeze({ part, plugin, inSystem, fromEnd }));
  }
  return Object.freeze(places);
}

/**
 * The plugin whose part `sent` lost, or undefined. A part stays where it was: one `system` held
 * is still in `system` (not moved into a user message, which the model weighs less), and one a
 * user message held is still in the user message at the same place counted from the end (the turn
 * it was given for: a tap may drop older turns, not move the context to another). A `system` that
 * is not text loses every part.
 */
export function lostRequiredPart(places: RequiredPlaces, sent: ModelRequest): string | undefined {
  if (places.length === 0) return undefined;
  const system = systemTexts(sent);
  if (!system) return places[0]!.plugin;
  const messages = Array.isArray(sent.messages) ? (sent.messages as readonly unknown[]) : [];
  for (const { part, plugin, inSystem, fromEnd } of places) {
    if (inSystem && !system.some((text) => text.includes(part))) return plugin;
    if (fromEnd !== undefined && !userTextsOf(messages[messages.length - 1 - fromEnd]).some((text) => text.includes(part))) return plugin;
  }
  return undefined;
}

/** `system`'s two texts, or undefined when they are not text. */
function systemTexts(request: ModelRequest): string[] | undefined {
  const { stable, environment } = (request.system ?? {}) as { stable?: unknown; environment?: unknown };
  return typeof stable === 'string' && typeof environment === 'string' ? [stable, environment] : undefined;
}

/**
 * How far from the end the newest user message holding `part` is, or undefined. Each part is one
 * text block (or one part of `system`), so no text is joined: a long history is not copied at
 * every request.
 */
function newestTurnHolding(messages: readonly unknown[], part: string): number | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (userTextsOf(messages[index]).some((text) => text.includes(part))) return messages.length - 1 - index;
  }
  return undefined;
}

/** A user message's text blocks (none for any other message, or content that is not text). */
function userTextsOf(message: unknown): string[] {
  const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
  if (role !== 'user' || !Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content as { type?: unknown; text?: unknown }[]) if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  return texts;
}
