/**
 * SKILL.md = frontmatter between `---` lines, then the markdown body (S1), read by the shared
 * lenient reader (sdk/frontmatter.ts): YAML first, and for a frontmatter strict YAML rejects (an
 * unquoted `: ` in a description) the line reader Claude Code's leniency calls for. Only the
 * frontmatter is scanned, never the body; `yaml` loads with the first SKILL.md, so every caller
 * awaits `frontmatterReady()` before parsing.
 */
import { parseFrontmatter as readDefinitionFrontmatter } from '../../sdk/frontmatter.js';

export { frontmatterReady, normaliseText, splitFrontmatter, type SplitMarkdown } from '../../sdk/frontmatter.js';

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; hasFrontmatter: boolean; keyLines: Record<string, number> }
  | { ok: false; error: string };

/** Parse a SKILL.md text: the frontmatter mapping (errors name the line) and the body. */
export function parseFrontmatter(raw: string): FrontmatterResult {
  const parsed = readDefinitionFrontmatter(raw);
  // The frontmatter that never closes is said without a line (its message names line 1 already).
  if (!parsed.ok) return { ok: false, error: parsed.line === 1 ? parsed.message : `line ${parsed.line}: ${parsed.message}` };
  return { ok: true, data: parsed.data, body: parsed.body, hasFrontmatter: parsed.hasFrontmatter, keyLines: parsed.keyLines };
}
