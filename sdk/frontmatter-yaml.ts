/**
 * The one place the frontmatter reader touches `yaml`, imported dynamically by frontmatter.ts (a
 * static named import here is what the bundler resolves reliably; the module loads with the first
 * definition file, so a run in a folder without any never loads `yaml`).
 */
import { parse, YAMLParseError } from 'yaml';
import { MAX_NESTING_DEPTH, nestingTooDeep } from '../config/nesting-depth.js';

/** yaml's own cap on alias expansions (its default, said here so a library change cannot lift it): a "billion laughs" frontmatter is refused. */
const MAX_ALIASES = 100;

export type StrictOutcome =
  | { ok: true; value: unknown }
  /** `syntax`: the text is not YAML (the line reader may read it); otherwise YAML refused what it read (an alias bomb). */
  | { ok: false; offset: number; message: string; syntax: boolean };

export function strictYaml(text: string): StrictOutcome {
  // Before the parser recurses into it (config/nesting-depth.ts): a hostile depth is a skipped file.
  const deep = nestingTooDeep(text);
  if (deep !== undefined) return { ok: false, offset: deep.offset, message: `the frontmatter nests more than ${MAX_NESTING_DEPTH} levels deep; the file is skipped`, syntax: false };
  try {
    // logLevel error: an unknown tag in someone's frontmatter is not a process warning on stderr.
    return { ok: true, value: parse(text, { prettyErrors: false, uniqueKeys: true, logLevel: 'error', maxAliasCount: MAX_ALIASES }) };
  } catch (error) {
    // Not only YAMLParseError: an alias bomb ("billion laughs") is yaml's ReferenceError, and one
    // hostile file must be a skipped file, not a start-up that fails.
    const message = (error as Error).message.split('\n')[0] ?? String(error);
    const syntax = error instanceof YAMLParseError;
    return { ok: false, offset: syntax ? error.pos[0] : 0, message, syntax };
  }
}
