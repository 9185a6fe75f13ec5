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

/** Longer than any model or provider name a vendor uses; a longer value is not one. */
export const MAX_IDENTIFIER_LENGTH = 200;

/**
 * A key whose value names one thing (`model:`, `agent:`): text, one word, nothing a terminal
 * would act on. It is printed (a "Model switched to …" notice) and sent (a request's model), so a
 * value with a line break or a control character could forge lines under MewCode's own output:
 * such a value is refused at parse time, with the reason for the caller's warning.
 */
export function identifierOf(data: Readonly<Record<string, unknown>>, key: string): { value?: string; problem?: string } {
  const raw = data[key];
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'string') return { problem: `${key}: must be text (a name); ignored` };
  const value = raw.trim();
  if (value === '') return {};
  // Whitespace, C0/C1 controls, bidi and zero-width characters, line separators.
  if (/[\s\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/.test(value)) {
    return { problem: `${key}: ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)} is not a name (it holds spaces, line breaks or control characters); ignored` };
  }
  if (value.length > MAX_IDENTIFIER_LENGTH) return { problem: `${key}: a name of ${value.length} characters is longer than ${MAX_IDENTIFIER_LENGTH}; ignored` };
  return { value };
}
