/** A JSON object (not null, not an array): what a configuration file's section or entry must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
