/**
 * SKILL.md = YAML frontmatter between `---` lines, then the markdown body (S1). The
 * frontmatter ends where YAML says its document ends: at the first line that *is* a document
 * marker — `---` or `...` in column 0, alone or followed by a space — never at text that merely
 * contains "---": a block scalar's lines are indented, so a `---` inside a value is part of it
 * (the seed's "\n---\n" search could not tell). Only the frontmatter is scanned, never the body
 * (a test checks this split against the `yaml` package's own CST parser). The mapping itself is
 * parsed by `yaml`, with line numbers for errors. A BOM is dropped and CRLF / CR become LF first.
 */
import type { parseYamlText } from './yaml-text.js';

/**
 * `yaml` is imported when the first SKILL.md is read, not at start-up (a run in a folder without
 * skills never loads it). Every caller awaits `frontmatterReady()` before parsing.
 */
let parseYaml: typeof parseYamlText | undefined;

export async function frontmatterReady(): Promise<void> {
  parseYaml ??= (await import('./yaml-text.js')).parseYamlText;
}

export interface SplitMarkdown {
  /** The frontmatter's YAML text ('' when the file has none). */
  yaml: string;
  /** Whether the file starts with a frontmatter block. */
  hasFrontmatter: boolean;
  body: string;
  /** 1-based line of the body's first line (for messages). */
  bodyLine: number;
}

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string; hasFrontmatter: boolean }
  | { ok: false; error: string };

/** BOM off, every line end LF. */
export function normaliseText(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
}

const OPENING = /^---[ \t]*(\n|$)/;
/** A YAML document start or end marker line (YAML 1.2 §9.1). */
const DOCUMENT_MARKER = /^(---|\.\.\.)([ \t].*)?$/;

/** Split a normalised text into frontmatter and body; undefined when the frontmatter never closes. */
export function splitFrontmatter(text: string): SplitMarkdown | undefined {
  if (!OPENING.test(text)) return { yaml: '', hasFrontmatter: false, body: text, bodyLine: 1 };
  let closing: number | undefined;
  for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (DOCUMENT_MARKER.test(line)) {
      closing = start;
      break;
    }
    if (end === -1) break;
    start = end + 1;
  }
  if (closing === undefined) return undefined;
  const firstLineEnd = text.indexOf('\n');
  const yaml = text.slice(firstLineEnd + 1, closing);
  const closingLineEnd = text.indexOf('\n', closing);
  const body = closingLineEnd === -1 ? '' : text.slice(closingLineEnd + 1);
  const bodyLine = text.slice(0, closingLineEnd === -1 ? text.length : closingLineEnd + 1).split('\n').length;
  return { yaml, hasFrontmatter: true, body, bodyLine };
}

/** Parse a SKILL.md text: the frontmatter mapping (errors name the line) and the body. */
export function parseFrontmatter(raw: string): FrontmatterResult {
  const text = normaliseText(raw);
  const split = splitFrontmatter(text);
  if (!split) return { ok: false, error: 'the frontmatter starts with --- on line 1 but no line closes it (---)' };
  if (!split.hasFrontmatter) return { ok: true, data: {}, body: split.body, hasFrontmatter: false };
  if (!parseYaml) throw new Error('frontmatterReady() was not awaited before parsing a SKILL.md');
  const parsed = parseYaml(split.yaml);
  if (!parsed.ok) {
    // +1: the frontmatter starts on line 2 of the file.
    const line = split.yaml.slice(0, parsed.offset).split('\n').length + 1;
    return { ok: false, error: `line ${line}: invalid YAML in the frontmatter: ${parsed.message}` };
  }
  const data = parsed.value;
  if (data === null || data === undefined) return { ok: true, data: {}, body: split.body, hasFrontmatter: true };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, error: 'line 2: the frontmatter must be a mapping of keys (name: …, description: …)' };
  return { ok: true, data: data as Record<string, unknown>, body: split.body, hasFrontmatter: true };
}
