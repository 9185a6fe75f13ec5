/**
 * A marketplace entry may define its plugin's parts itself, as Claude Code allows. With `strict`
 * (the default) plugin.json is authoritative and the entry's parts (`commands`, `agents`,
 * `skills`, `hooks`, `mcpServers`) are added to it; with `strict: false` the entry is the whole
 * definition, and a plugin.json that declares parts as well is refused, as Claude Code refuses to
 * load such a plugin. The result is written as the installed copy's plugin.json, so every reader
 * of the copy (a run, `plugin list`, `doctor`) sees the same plugin.
 */
import { parseJsonWithinDepth } from '../nesting-depth.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMPONENT_KEYS } from './bundle/plugin-manifest.js';
import type { MarketplaceEntry } from './marketplace-file.js';
import { isRecord } from '../is-record.js';

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Both declarations of one part, plugin.json's first: the loader reads a list of paths and inline objects. */
function combined(own: unknown, added: unknown): unknown {
  if (own === undefined || own === null) return added;
  const list = [...asList(own), ...asList(added)];
  return list.filter((item, index) => typeof item !== 'string' || list.indexOf(item) === index);
}

/**
 * Writes `<copy>/.claude-plugin/plugin.json` as the entry defines the plugin (nothing when a strict
 * entry adds no parts). `shown` names the plugin's own plugin.json in messages. Throws when a
 * `strict: false` entry meets a plugin.json that declares parts too.
 */
export function applyEntryDefinition(copy: string, entry: MarketplaceEntry, catalogueFile: string, shown: string): void {
  const declared = COMPONENT_KEYS.filter((key) => entry.components[key] !== undefined);
  if (entry.strict && declared.length === 0) return;
  const file = path.join(copy, '.claude-plugin', 'plugin.json');
  let own: Record<string, unknown> = {};
  try {
    const parsed: unknown = parseJsonWithinDepth(readFileSync(file, 'utf8'));
    if (isRecord(parsed)) own = parsed;
  } catch {
    // No plugin.json (the installer already refused a malformed one): the entry starts it.
  }
  let definition: Record<string, unknown>;
  if (entry.strict) {
    definition = { name: entry.name, ...own };
    for (const key of declared) definition[key] = combined(own[key], entry.components[key]);
  } else {
    const ownParts = COMPONENT_KEYS.filter((key) => own[key] !== undefined && own[key] !== null);
    if (ownParts.length > 0) {
      throw new Error(`${catalogueFile}: plugin "${entry.name}" has "strict": false (its entry is its whole definition), but ${shown} declares ${ownParts.join(', ')} too; not installed (Claude Code does not load such a plugin either)`);
    }
    definition = {
      ...own,
      name: entry.name,
      ...(entry.version ? { version: entry.version } : {}),
      ...(entry.description ? { description: entry.description } : {}),
      ...(entry.author !== undefined ? { author: entry.author } : {}),
      ...entry.components,
    };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(definition, null, 2)}\n`);
}
