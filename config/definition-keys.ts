/**
 * Frontmatter keys a SKILL.md and a command file share with Claude Code, read the same way by
 * both readers: `disallowed-tools` and `arguments:`, and the warning for a key that would
 * otherwise be dropped without a word: a key no reader knows (a misspelling, named with the
 * nearest known key). `hooks:` is read by the hooks plugin (TOKENS.ComponentHooks), which warns
 * about its own problems.
 */
import { toolList } from './command-files.js';
import { closestKey } from './unknown-keys.js';

const DISALLOWED_KEYS = ['disallowed-tools', 'disallowed_tools', 'disallowedTools'] as const;

/** `disallowed-tools` (any of Claude Code's spellings; all of them when several are given). */
export function disallowedToolsOf(data: Readonly<Record<string, unknown>>): string[] {
  const entries: string[] = [];
  for (const key of DISALLOWED_KEYS) for (const entry of toolList(data[key])) if (!entries.includes(entry)) entries.push(entry);
  return entries;
}

/** `arguments:`: a list of names, of `{ name, description }` entries, or one string of names. */
export function argumentNamesOf(data: Readonly<Record<string, unknown>>): string[] {
  const value = data.arguments;
  return toolList(Array.isArray(value) ? value.map((item: unknown) => (typeof item === 'object' && item !== null && 'name' in item ? (item as { name: unknown }).name : item)) : value);
}

/**
 * One warning per key that is not read: each key outside `known` (with the nearest known key when
 * it is close); the caller names the file and the key's line.
 */
export function frontmatterKeyWarnings(data: Readonly<Record<string, unknown>>, known: readonly string[]): { key: string; message: string }[] {
  const warnings: { key: string; message: string }[] = [];
  const knownSet = new Set(known);
  for (const key of Object.keys(data)) {
    if (knownSet.has(key)) continue;
    // Claude Code's spelling is named (`disallowed-tools`, not MewCode's `disallowed_tools` too).
    const near = closestKey(key, known.filter((name) => !(name.includes('_') && knownSet.has(name.replace(/_/g, '-')))));
    warnings.push({ key, message: `unknown key "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}; ignored` });
  }
  return warnings;
}
