/**
 * The one place the skills plugin touches `yaml`, imported dynamically by frontmatter.ts (a static
 * named import here is what the bundler resolves reliably; the module loads with the first SKILL.md).
 */
import { parse, YAMLError } from 'yaml';

export type YamlOutcome = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

export function parseYamlText(text: string): YamlOutcome {
  try {
    return { ok: true, value: parse(text, { prettyErrors: false, uniqueKeys: true }) };
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    return { ok: false, offset: error.pos[0], message: error.message.split('\n')[0] ?? error.message };
  }
}
