/**
 * What `toLocaleString('en-US')` and `localeCompare` are used for here, without ICU: their first
 * call builds an ICU number formatter (≈ 18 ms on the machines we measure) or collator (≈ 8 ms), a
 * stall at start-up (sorting the sub-agent roles) or in the middle of a turn gap (the first large
 * tool result offloaded, the first model switch).
 */

/** An integer with a comma between each group of three digits; other numbers as `toLocaleString` would. */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}

/** Code-unit order, for ids and ISO timestamps. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Names as people list them: case-insensitively, then by code units so the order is total. */
export function compareNames(a: string, b: string): number {
  return compareCodeUnits(a.toLowerCase(), b.toLowerCase()) || compareCodeUnits(a, b);
}
