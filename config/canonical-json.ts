/**
 * Canonical JSON for the trust hash: object keys sorted (by UTF-16 code units, as RFC 8785),
 * no whitespace, so the same settings always hash the same whatever their order or layout in
 * the file. The input is only what a YAML/JSON config file can hold (strings, numbers, booleans,
 * null, lists, mappings); non-finite numbers (`.inf`, `.nan`) are written as strings so they do
 * not collide with null. Hand-written rather than the `canonicalize` package: 15 lines, no
 * start-up import, and the hash is only ever compared with itself (no interoperability needed).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(String(value));
}

/** `sha256:<hex>` of the canonical JSON of `value`. node:crypto is loaded only when a hash is needed. */
let crypto: Promise<typeof import('node:crypto')> | undefined;

export async function canonicalHash(value: unknown): Promise<string> {
  const { createHash } = await (crypto ??= import('node:crypto'));
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}
