/**
 * Marketplace names Claude Code reserves for Anthropic. `claude-plugins-official` (added to every
 * Claude Code) and `claude-code-plugins` (anthropics/claude-code's own) are the names users and
 * docs type in `plugin install commit-commands@claude-plugins-official`; a catalogue from anywhere
 * else calling itself so would have that command install its plugins instead. As in Claude Code,
 * such a name is accepted only from Anthropic's own GitHub organisation.
 */
import type { MarketplaceSource } from './manifest.js';

export const RESERVED_MARKETPLACE_NAMES: readonly string[] = Object.freeze(['claude-plugins-official', 'claude-code-plugins']);

/** github.com/anthropics/<repo>, over https or ssh (`git@github.com:anthropics/<repo>`), nothing else. */
const ANTHROPIC_REPOSITORY = /^(?:(?:https|ssh|git):\/\/(?:[^@/]+@)?github\.com(?::\d+)?\/|git@github\.com:)anthropics\/[A-Za-z0-9._-]+?(?:\.git)?\/?$/i;

/** Why `name` may not be used by a marketplace from `source`; undefined when it may. */
export function reservedMarketplaceNameOffence(name: string, source: MarketplaceSource): string | undefined {
  if (!RESERVED_MARKETPLACE_NAMES.includes(name.toLowerCase())) return undefined;
  if (source.kind === 'git' && ANTHROPIC_REPOSITORY.test(source.url)) return undefined;
  const from = source.kind === 'git' ? source.url : source.path;
  return `names the marketplace "${name}", a name Claude Code reserves for Anthropic's own marketplace (from github.com/anthropics/); a marketplace from ${from} cannot use it: rename it in its .claude-plugin/marketplace.json`;
}
