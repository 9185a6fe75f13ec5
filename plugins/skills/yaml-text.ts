/**
 * The one place the skills plugin touches `yaml`, imported dynamically by frontmatter.ts (a static
 * named import here is what the bundler resolves reliably; the module loads with the first SKILL.md).
 */
import { parse, YAMLError } from 'yaml';

export type YamlOutcome = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

export function parseYamlText(text: string): YamlOutcome {
  try {
    // logLevel error: an unknown tag in someone's frontmatter is not a process warning on stderr.
    return { ok: true, value: parse(text, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' }) };
  } catch (error) {
    // Not only YAMLError: an alias bomb ("billion laughs") is yaml's ReferenceError, and one
    // hostile SKILL.md must be a skipped folder, not a catalog (and a start-up) that fails.
    const message = (error as Error).message.split('\n')[0] ?? String(error);
    return { ok: false, offset: error instanceof YAMLError ? error.pos[0] : 0, message };
  }
}
