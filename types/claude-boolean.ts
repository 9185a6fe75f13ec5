/**
 * A yes/no setting in a Claude Code file — skill, command and agent frontmatter, plugin and
 * marketplace manifests — read as Claude Code reads it (v2.1.218): `true`/`false`, `yes`/`no`,
 * `on`/`off`, `1`/`0`, in any case, whether YAML or JSON made it a boolean, a number or text. One
 * reading for every such file, so a skill the author kept from the model is kept from it whichever
 * spelling was used.
 */

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** The spellings, for the warning a caller gives when a value is none of them. */
export const CLAUDE_BOOLEAN_SPELLINGS = 'true/false, yes/no, on/off, 1/0';

/** The value as a boolean; undefined when absent (undefined, null) or none of the spellings. */
export function claudeBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : undefined;
}

/**
 * `value` read with claudeBoolean, `fallback` when it is absent; a present value that is none of
 * the spellings gives `fallback` too, and `warn` says so naming `key` (the caller adds file:line).
 */
export function claudeFlag(value: unknown, key: string, fallback: boolean, warn: (message: string) => void): boolean {
  if (value === undefined || value === null) return fallback;
  const read = claudeBoolean(value);
  if (read !== undefined) return read;
  warn(`${key}: ${JSON.stringify(value)} is not a yes/no value (${CLAUDE_BOOLEAN_SPELLINGS}); using ${fallback}`);
  return fallback;
}
