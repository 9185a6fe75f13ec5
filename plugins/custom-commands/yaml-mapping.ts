/**
 * The one place this plugin touches `yaml`, imported dynamically by frontmatter.ts (a static named
 * import here is what the bundler resolves reliably; the module loads with the first frontmatter).
 */
import { parse } from 'yaml';

/** The block as a mapping, or undefined when strict YAML rejects it or it is not a mapping. */
export function yamlMapping(block: string): Record<string, unknown> | undefined {
  try {
    // logLevel error: an unknown tag in someone's frontmatter is not a process warning on stderr.
    const value: unknown = parse(block, { logLevel: 'error' });
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    // Any error, not only YAMLError: an alias bomb is a ReferenceError; the line reader takes over.
    return undefined;
  }
}
