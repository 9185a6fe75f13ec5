/**
 * What a required plugin (the organisation's) adds to the system prompt or the environment
 * (buildSystemPrompt, buildEnvironment), or to a prompt (userPromptSubmit's additionalContext),
 * must reach the model. Its taps there run last among
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

/** The plugin whose part the base request held (in `system` or a user message) and the sent one lost, or undefined. */
export function lostRequiredPart(hooks: object, base: ModelRequest, sent: ModelRequest): string | undefined {
  const parts = kept.get(hooks);
  if (!parts || parts.size === 0) return undefined;
  const had = textsOf(base);
  const has = textsOf(sent);
  const holds = (texts: readonly string[], part: string): boolean => texts.some((text) => text.includes(part));
  for (const [part, plugin] of parts) if (holds(had, part) && !holds(has, part)) return plugin;
  return undefined;
}

/**
 * The texts a request carries where these parts go: `system`, and the user messages' text blocks
 * (none when not text). Each part is one block or one part of `system`, so no text is joined: a
 * long history is not copied at every request.
 */
function textsOf(request: ModelRequest): string[] {
  const { stable, environment } = (request.system ?? {}) as { stable?: unknown; environment?: unknown };
  if (typeof stable !== 'string' || typeof environment !== 'string' || !Array.isArray(request.messages)) return [];
  const texts = [stable, environment];
  for (const message of request.messages as unknown[]) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if (role !== 'user' || !Array.isArray(content)) continue;
    for (const block of content as { type?: unknown; text?: unknown }[]) if (block?.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  return texts;
}
