/**
 * The frontmatter of a definition file (a sub-agent, a custom command, a SKILL.md), read as
 * leniently as Claude Code reads it. Many real files are not YAML: an unquoted `: ` in a
 * description ("Use this agent when: …"), or `<example>` blocks whose lines read `user: "…"`.
 * Strict YAML rejects them, Claude Code loads them, so:
 *
 * 1. The frontmatter ends at the first line that is a YAML document marker (`---` or `...` in
 *    column 0, alone or followed by a space): a block scalar's lines are indented, so a `---` inside
 *    a value belongs to it.
 * 2. It is read as YAML. When YAML says it is not YAML (a syntax error), a line reader takes over:
 *    each top-level `key:` line starts an entry and the entry runs to the next one, so a value may
 *    span lines. A line inside an `<example>…</example>` block (any tag closed further on) never
 *    starts an entry, nor does a `word:` line that is not a definition key when the entry before it
 *    is itself not YAML (the `Context:` / `user:` lines of an example). Each entry is then read
 *    as YAML on its own (quoted values, `[a, b]` and `- item` lists, nested mappings), and as text
 *    when that fails too.
 * 3. Only what even the line reader cannot read is an error, with the file line it is on: a
 *    frontmatter that never closes, text before the first key, a key given twice. YAML that is
 *    valid but hostile (an alias bomb) is an error too, never read line by line.
 */
import { loadOnce } from './load-once.js';
import type { strictYaml as StrictYaml } from './frontmatter-yaml.js';

/**
 * The keys Claude Code reads in agent, command and skill files (and MewCode's own skill keys).
 * Frozen, as is every table a plugin can import: it is the one list every reader shares.
 */
export const DEFINITION_KEYS: readonly string[] = Object.freeze([
  'name', 'description', 'tools', 'disallowedTools', 'disallowed_tools', 'disallowed-tools', 'allowed-tools', 'allowed_tools',
  'model', 'color', 'permissionMode', 'skills', 'hooks', 'mcpServers', 'memory', 'maxTurns', 'background', 'isolation',
  'effort', 'initialPrompt', 'argument-hint', 'argument_hint', 'disable-model-invocation', 'user-invocable', 'context',
  'agent', 'arguments', 'when_to_use', 'shell', 'paths', 'license', 'metadata', 'version', 'compatibility', 'mode', 'fork_context',
]);

/**
 * The longest frontmatter read. Real ones are a few keys (an agent's examples make a few KiB);
 * YAML's time grows faster than its length (tens of thousands of keys take seconds), and a
 * project's files are read at every start, trusted or not.
 */
export const MAX_FRONTMATTER_CHARS = 32 * 1024;

export interface FrontmatterOptions {
  /** Keys that always start an entry in the line reader (default DEFINITION_KEYS). */
  keys?: readonly string[];
}

export type Frontmatter =
  | {
      ok: true;
      data: Record<string, unknown>;
      body: string;
      hasFrontmatter: boolean;
      /** 1-based file line of the body's first line. */
      bodyLine: number;
      /** 1-based file line of each top-level key (where it can be told). */
      keyLines: Record<string, number>;
      /** Whether strict YAML rejected the frontmatter and the line reader read it. */
      lenient: boolean;
    }
  /** `line` is the 1-based line of the file (the opening `---` is line 1). */
  | { ok: false; line: number; message: string };

let strictYaml: typeof StrictYaml | undefined;
const yamlModule = loadOnce(() => import('./frontmatter-yaml.js'));

/** Loads `yaml` (once); `parseFrontmatter` needs it. `readFrontmatter` awaits it itself. */
export async function frontmatterReady(): Promise<void> {
  strictYaml ??= (await yamlModule()).strictYaml;
}

/** BOM off, every line end LF. */
export function normaliseText(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n');
}

export interface SplitMarkdown {
  /** The frontmatter's text ('' when the file has none). */
  yaml: string;
  hasFrontmatter: boolean;
  body: string;
  /** 1-based line of the body's first line. */
  bodyLine: number;
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
    if (DOCUMENT_MARKER.test(text.slice(start, end === -1 ? text.length : end))) {
      closing = start;
      break;
    }
    if (end === -1) break;
    start = end + 1;
  }
  if (closing === undefined) return undefined;
  const yaml = text.slice(text.indexOf('\n') + 1, closing);
  const closingLineEnd = text.indexOf('\n', closing);
  const body = closingLineEnd === -1 ? '' : text.slice(closingLineEnd + 1);
  const bodyLine = text.slice(0, closingLineEnd === -1 ? text.length : closingLineEnd + 1).split('\n').length;
  return { yaml, hasFrontmatter: true, body, bodyLine };
}

/** The frontmatter starts on the file's line 2. */
const FIRST_LINE = 2;
const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?=[ \t]|$)/;
const TAG = /<(\/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?>/g;

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file line of each top-level `key:` line. */
function keyLinesOf(yaml: string): Record<string, number> {
  const lines: Record<string, number> = {};
  yaml.split('\n').forEach((line, index) => {
    const key = KEY_LINE.exec(line)?.[1];
    if (key !== undefined && !Object.hasOwn(lines, key)) lines[key] = index + FIRST_LINE;
  });
  return lines;
}

/** Parse a definition file's text: the frontmatter's keys (see the module comment) and the body. */
export function parseFrontmatter(raw: string, options: FrontmatterOptions = {}): Frontmatter {
  const text = normaliseText(raw);
  const split = splitFrontmatter(text);
  if (!split) return { ok: false, line: 1, message: 'the frontmatter starts with --- on line 1 but no line closes it (---)' };
  const done = (data: Record<string, unknown>, keyLines: Record<string, number>, lenient: boolean): Frontmatter => ({
    ok: true,
    data,
    body: split.body,
    hasFrontmatter: split.hasFrontmatter,
    bodyLine: split.bodyLine,
    keyLines,
    lenient,
  });
  if (!split.hasFrontmatter || split.yaml.trim() === '') return done({}, {}, false);
  if (split.yaml.length > MAX_FRONTMATTER_CHARS) return { ok: false, line: FIRST_LINE, message: `the frontmatter is ${split.yaml.length} characters, over the ${MAX_FRONTMATTER_CHARS} read (a frontmatter is a few keys; the body below it has no limit of its own)` };
  if (!strictYaml) throw new Error('frontmatterReady() was not awaited before parsing a frontmatter');
  const strict = strictYaml(split.yaml);
  if (strict.ok) {
    if (strict.value === null || strict.value === undefined) return done({}, {}, false);
    if (!isMapping(strict.value)) return { ok: false, line: FIRST_LINE, message: 'the frontmatter must be a mapping of keys (name: …, description: …)' };
    return done(strict.value, keyLinesOf(split.yaml), false);
  }
  const line = split.yaml.slice(0, strict.offset).split('\n').length + FIRST_LINE - 1;
  if (!strict.syntax) return { ok: false, line, message: `invalid YAML in the frontmatter: ${strict.message}` };
  const lenient = readEntries(split.yaml, new Set(options.keys ?? DEFINITION_KEYS), strictYaml);
  if ('line' in lenient) return { ok: false, line: lenient.line, message: `invalid YAML in the frontmatter: ${lenient.message}, and YAML cannot read it either (line ${line}: ${strict.message})` };
  return done(lenient.data, lenient.keyLines, true);
}

/** `parseFrontmatter` with `yaml` loaded first. */
export async function readFrontmatter(raw: string, options: FrontmatterOptions = {}): Promise<Frontmatter> {
  await frontmatterReady();
  return parseFrontmatter(raw, options);
}

interface Entry {
  key: string;
  /** The file line of its `key:` line. */
  line: number;
  lines: string[];
  /** Whether its lines so far read as YAML on their own (asked once, when first needed). */
  yaml?: boolean;
}

/** The line reader (step 2 of the module comment). */
function readEntries(yaml: string, keys: ReadonlySet<string>, strict: typeof StrictYaml): { data: Record<string, unknown>; keyLines: Record<string, number> } | { line: number; message: string } {
  const entries: Entry[] = [];
  const byKey = new Map<string, Entry>();
  const open: string[] = [];
  const lastClosing = closingTagPositions(yaml);
  let offset = 0;
  const lines = yaml.split('\n');
  for (const [index, line] of lines.entries()) {
    const lineNumber = index + FIRST_LINE;
    const current = entries.at(-1);
    const key = open.length === 0 ? KEY_LINE.exec(line)?.[1] : undefined;
    const startsEntry = key !== undefined && (current === undefined || keys.has(key) || (current.yaml ??= readsAlone(current, strict)));
    if (startsEntry) {
      const earlier = byKey.get(key);
      if (earlier) return { line: lineNumber, message: `${key} is given twice (lines ${earlier.line} and ${lineNumber})` };
      const entry: Entry = { key, line: lineNumber, lines: [line] };
      entries.push(entry);
      byKey.set(key, entry);
    } else if (current) current.lines.push(line);
    else if (line.trim() !== '' && !line.trimStart().startsWith('#')) {
      return { line: lineNumber, message: `"${line.trim().slice(0, 60)}" is not a "key: value" line` };
    }
    trackTags(lastClosing, offset, line, open);
    offset += line.length + 1;
  }
  const data: Record<string, unknown> = {};
  const keyLines: Record<string, number> = {};
  for (const entry of entries) {
    data[entry.key] = valueOf(entry, strict);
    keyLines[entry.key] = entry.line;
  }
  return { data, keyLines };
}

function readsAlone(entry: Entry, strict: typeof StrictYaml): boolean {
  const read = strict(entry.lines.join('\n'));
  return read.ok && isMapping(read.value) && Object.keys(read.value).length === 1 && Object.hasOwn(read.value, entry.key);
}

/**
 * Tags opened on this line go on the stack only when the block closes them further on (an
 * unclosed `<b>` in a description must not swallow the keys after it); a closing tag pops back
 * to its opening one.
 */
function trackTags(lastClosing: ReadonlyMap<string, number>, lineOffset: number, line: string, open: string[]): void {
  for (const match of line.matchAll(TAG)) {
    const [whole, closing, name] = match as unknown as [string, string, string];
    if (whole.endsWith('/>')) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
    } else if ((lastClosing.get(name) ?? -1) > lineOffset + match.index) open.push(name);
  }
}

/** Where each tag name is closed last in the block (one pass, so many tags cost no rescans). */
function closingTagPositions(yaml: string): Map<string, number> {
  const last = new Map<string, number>();
  for (const match of yaml.matchAll(/<\/([A-Za-z][\w-]*)>/g)) last.set(match[1]!, match.index);
  return last;
}

function unquote(value: string): string {
  return value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0] ? value.slice(1, -1) : value;
}

/** An entry read as YAML on its own, or else as text (a `- item` list as a list). */
function valueOf(entry: Entry, strict: typeof StrictYaml): unknown {
  if (entry.yaml ?? readsAlone(entry, strict)) {
    const read = strict(entry.lines.join('\n'));
    if (read.ok && isMapping(read.value)) return read.value[entry.key];
  }
  const first = entry.lines[0]!.replace(KEY_LINE, '').trim();
  const rest = entry.lines.slice(1).map((line) => line.trimEnd());
  while (rest.length > 0 && rest.at(-1) === '') rest.pop();
  const filled = rest.filter((line) => line !== '');
  if (first === '' && filled.length > 0 && filled.every((line) => /^\s*-\s/.test(line))) return filled.map((line) => unquote(line.replace(/^\s*-\s+/, '').trim()));
  const indent = Math.min(...filled.map((line) => /^\s*/.exec(line)![0].length));
  const text = [first, ...rest.map((line) => line.slice(Math.min(indent, /^\s*/.exec(line)![0].length)))].join('\n').trim();
  return unquote(text);
}
