/**
 * The checks of test/architecture/references.test.ts: what a line of prose (a code comment or a
 * line of Markdown) cites must be in the repository. Kept apart from the test so the test can
 * also run each check on lines written to break it.
 *
 * Cited and checked: behaviour ids (`K3`, `A1–A10`: headings of docs/); repository paths whose
 * first folder is a top-level folder of the repository (a `.js` path names the module built from
 * the `.ts` beside it); Markdown file names, in any case (`BENCHMARKS.md`, `kernel.md`: at the
 * root, in docs/ or beside the citing file); section names quoted after a Markdown file
 * (`docs/kernel.md, "Idle warm-up"`, or a chain `"Speed" → "Load on first use"`: a heading,
 * also without its closing parenthesis or after its colon, or a bold paragraph head of the
 * file); Markdown links, inline (with or without a title) and reference-style, with their
 * `#anchor`; a source file name without its folder (`picomatch.ts`: beside the citing file or
 * anywhere in the repository); a repository path without an extension (`types/plugin`: a module
 * .ts/.tsx/.js, or a folder). Not checked: a relative path in prose (`./src/app.ts`, an example of a user's
 * project), and a Markdown name a code file also has in a string (a file a test writes).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git', 'coverage']);
const SKIPPED_PATHS = ['test/fixtures/', 'test/extension/fixtures/'];
const CODE = /\.(?:ts|tsx|js|mjs|cjs)$/;
/**
 * Files of a user's project or home, named in the docs but not ours: instructions and skills, and
 * the examples of a command file (`review.md` is `/review`), a skill's own file and a file a
 * scripted model writes.
 */
const USER_FILE_NAMES = new Set(['MEWCODE.md', 'CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'GEMINI.md', 'SKILL.md', 'review.md', 'forms.md', 'summary.md']);
/** The kinds of repository file a path in prose cites: sources, documents, manifests. */
const CITED_EXTENSION = /\.(?:ts|tsx|js|mjs|cjs|md|json)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(path.relative(ROOT, full).split(path.sep).join('/'));
  }
  return out;
}

const FILES = walk(ROOT).filter((file) => !SKIPPED_PATHS.some((prefix) => file.startsWith(prefix)));
const ALL_FILES = new Set(walk(ROOT));
/** The repository's top-level folders (`api`, `.ci` too): a path starting with one is a repository path. */
const TOP_LEVEL = new Set(readdirSync(ROOT, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)).map((entry) => entry.name));

/** The comments of a source file, each line with its line number. */
function comments(file: string, text: string): { line: number; text: string }[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const found: { line: number; text: string }[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const first = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      text.slice(range.pos, range.end).split('\n').forEach((line, index) => found.push({ line: first + index, text: line }));
    }
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.forEachChild(visit);
  };
  collect(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return found.sort((a, b) => a.line - b.line);
}

export interface ProseLine {
  file: string;
  line: number;
  text: string;
  /** The next line of the same comment or paragraph, for a quoted name that wraps onto it. */
  next?: string;
}

/** The prose to check in each file: the comments of code, the whole of Markdown. */
export function prose(): ProseLine[] {
  const out: ProseLine[] = [];
  for (const file of FILES) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const lines = CODE.test(file) ? comments(file, text) : file.endsWith('.md') ? text.split('\n').map((line, index) => ({ line: index + 1, text: line })) : [];
    lines.forEach((entry, index) => {
      const following = lines[index + 1];
      const next = following && following.line === entry.line + 1 ? following.text.replace(/^\s*(?:\/\/+|\/?\*+(?!\*\S))?\s*/, '') : undefined;
      out.push({ file, ...entry, next });
    });
  }
  return out;
}

const DEFINED_IDS = new Set(
  readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) => [...readFileSync(path.join(ROOT, 'docs', name), 'utf8').matchAll(/^#{2,4} ([A-Z]\d{1,2})\s*$/gm)].map((match) => match[1]!)),
);
export const definedIds = (): ReadonlySet<string> => DEFINED_IDS;

/** `K3`, `A1–A10`, `C2-C4`; not the names of control-character sets, not parts of longer words. */
const ID = /(?<![\w/.-])([KPLATMSHCGU])(\d{1,2})(?:\s?[–-]\s?([KPLATMSHCGU])?(\d{1,2}))?(?![\w/])/g;
const CONTROL_CHARACTERS = /\bC[01](?:\/C1)?(?= controls?\b)/g;

export function idProblems(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.replace(CONTROL_CHARACTERS, '').matchAll(ID)) {
    const [, group, first, endGroup, last] = match;
    const ids = [`${group}${first}`, ...(last !== undefined ? [`${endGroup ?? group}${last}`] : [])];
    for (const id of ids) if (!DEFINED_IDS.has(id)) problems.push(`behaviour id ${id} is not defined in docs/`);
  }
  return problems;
}

/** Documents that are not in the repository, whatever the wording around them. */
const OUTSIDE_DOCUMENTS: [RegExp, string][] = [
  [/\bSPEC\b/, 'cites a specification that is not in the repository (cite the id of docs/behaviours.md)'],
  [/\bseeds? \d{3}\b|\bseeds\//, 'cites design notes that are not in the repository'],
  [/(?:\.\.\/)+shared\/(?:reference|seeds)\//, 'cites a file outside the repository'],
];

const PATH = /(?<![\w.@~$<*/-])((?:\.{1,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/?)(?![\w@*-])/g;
/** A Markdown file name on its own (no folder): `ARCHITECTURE.md`, `kernel.md`. */
const MARKDOWN_NAME = /(?<![\w/.@-])([\w][\w.-]*\.md)\b(?![\w/-])/g;
/** A Markdown file cited (a path or a name), then quoted section names: `ARCHITECTURE.md "Speed" → "Load on first use"`. */
const QUOTED_SECTIONS = /((?:\.{0,2}\/)?(?:[\w.@-]+\/)*[\w.-]+\.md)[`*\])]*(?:\([^)\s]*\))?[,:]?\s*(?:(?:section|under|in)\s+)?\(?((?:["“][^"”]+["”](?:\s*(?:→|>|,|\/|and)\s*)?)+)/g;

export function fileProblems(file: string, text: string, next?: string): string[] {
  const problems: string[] = [];
  for (const [pattern, problem] of OUTSIDE_DOCUMENTS) if (pattern.test(text)) problems.push(problem);
  for (const match of text.matchAll(MARKDOWN_NAME)) {
    const name = match[1]!;
    if (USER_FILE_NAMES.has(name) || markdownFile(file, name) !== undefined || usedAsData(file, name)) continue;
    problems.push(`${name} is not in the repository`);
  }
  for (const match of text.matchAll(PATH)) {
    const reference = match[1]!.replace(/[.]+$/, '');
    if (!reference.includes('/') || reference.startsWith('./') || reference.startsWith('../')) continue; // a relative path in prose is an example; links are checked below
    if (!TOP_LEVEL.has(reference.split('/')[0]!)) continue;
    if (!CITED_EXTENSION.test(reference) && !reference.endsWith('/') && !reference.startsWith('.')) {
      // `plugins/ui-tui` or `types/plugin`: a folder, or a module named without its extension
      if (!/\.[^/]*$/.test(reference) && !PROJECT_FOLDERS.has(reference.split('/')[0]!) && !moduleOrFolderExists(reference)) problems.push(`${reference} is neither a folder nor a module (.ts, .tsx, .js)`);
      continue; // `scripts/run.sh`: a skill's file
    }
    if (!repositoryPathExists(reference.replace(/\/$/, ''))) problems.push(`${reference} does not exist`);
  }
  for (const match of file === 'BENCHMARKS.md' ? [] : text.matchAll(BARE_CODE_NAME)) {
    const name = match[1]!;
    if (EXAMPLE_CODE_NAMES.has(name) || /^[a-z]\.|\.\./.test(name)) continue; // `x.ts`, `a..b.ts`: examples
    if (!codeFileNamed(file, name) && !usedAsData(file, name)) problems.push(`${name} is neither beside ${file} nor anywhere in the repository`);
  }
  problems.push(...sectionProblems(file, text, next));
  if (file.endsWith('.md')) problems.push(...linkProblems(file, text));
  return problems;
}

/** A cited path exists; `x.js` also when it is the module built from `x.ts` / `x.tsx`. */
function repositoryPathExists(reference: string): boolean {
  if (exists(reference)) return true;
  const stem = reference.match(/^(.*)\.(?:js|mjs|cjs)$/)?.[1];
  return stem !== undefined && (exists(`${stem}.ts`) || exists(`${stem}.tsx`) || exists(`${stem}.mts`) || exists(`${stem}.cts`));
}

/**
 * Top-level folders any project has, whose paths in prose are often the user's (`bin/python`,
 * `scripts/start`, a test's `docs/d`): there a path without an extension is not checked.
 */
const PROJECT_FOLDERS = new Set(['bin', 'scripts', 'docs', 'test']);
/**
 * Source file names in prose that are examples, not ours: a user's plugin files (docs/plugins.md,
 * README.md), a built declaration file, a file a summary names.
 */
const EXAMPLE_CODE_NAMES = new Set(['my-mewcode.ts', 'word-count.ts', 'conventions.ts', 'index.d.ts', 'handler.ts']);
/** A module named without its extension (`types/plugin`) or a folder (`plugins/ui-tui`). */
function moduleOrFolderExists(reference: string): boolean {
  return ['', '.ts', '.tsx', '.js', '.mjs', '.cjs'].some((extension) => exists(`${reference}${extension}`));
}

/** A source file name without a folder (`picomatch.ts`): beside the citing file or anywhere in the repository. */
const BARE_CODE_NAME = /(?<![\w/.@$<*~-])([\w][\w.-]*\.(?:ts|tsx|mts|cts|mjs|cjs))\b(?![\w/-])/g;
const BASE_NAMES = new Set([...ALL_FILES].map((file) => path.posix.basename(file)));

function codeFileNamed(from: string, name: string): boolean {
  if (exists(path.posix.join(path.posix.dirname(from), name))) return true;
  return BASE_NAMES.has(name) || BASE_NAMES.has(name.replace(/\.js$/, '.ts'));
}

const LITERALS = new Map<string, string[]>();

/** A string literal of a code file holds the name: a file the code (a test) makes, not a citation. */
function usedAsData(file: string, name: string): boolean {
  if (!CODE.test(file)) return false;
  let literals = LITERALS.get(file);
  if (!literals) {
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) found.push(node.text);
      node.forEachChild(visit);
    };
    visit(ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true));
    LITERALS.set(file, (literals = found));
  }
  return literals.some((literal) => new RegExp(`(?<![\\w.-])${name.replace(/[.]/g, '\\.')}(?![\\w-])`).test(literal));
}

function exists(repositoryPath: string): boolean {
  return ALL_FILES.has(repositoryPath) || existsSync(path.join(ROOT, repositoryPath));
}

/** Where a cited Markdown file is: a repository path, or a name at the root, in docs/ or beside `from`. */
function markdownFile(from: string, cited: string): string | undefined {
  if (cited.startsWith('./') || cited.startsWith('../')) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), cited));
    return exists(resolved) ? resolved : undefined;
  }
  const candidates = cited.includes('/') ? [cited] : [cited, `docs/${cited}`, path.posix.join(path.posix.dirname(from), cited)];
  return candidates.find((candidate) => ALL_FILES.has(candidate));
}

function sectionProblems(file: string, text: string, next?: string): string[] {
  const problems: string[] = [];
  const joined = next === undefined ? text : `${text} ${next}`;
  for (const match of joined.matchAll(QUOTED_SECTIONS)) {
    if (match.index >= text.length) break; // it starts on the next line, which is checked on its own
    const target = markdownFile(file, match[1]!);
    if (target === undefined || !target.endsWith('.md')) continue; // a missing file is reported by the other checks
    const known = sectionsOf(target);
    for (const [, name] of match[2]!.matchAll(/["“]([^"”]+)["”]/g)) {
      if (!known.names.has(normalise(name!))) problems.push(`${target} has no section "${name}" (a heading or a bold paragraph head)`);
    }
  }
  return problems;
}

const normalise = (name: string): string => name.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim().replace(/[.:]$/, '').toLowerCase();

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

const SECTIONS = new Map<string, { names: Set<string>; anchors: Set<string> }>();

/** The headings and bold paragraph heads (`**Load on first use.**`) of a Markdown file, and its anchors. */
function sectionsOf(file: string): { names: Set<string>; anchors: Set<string> } {
  let found = SECTIONS.get(file);
  if (found) return found;
  found = { names: new Set(), anchors: new Set() };
  const counts = new Map<string, number>();
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/)?.[1];
    if (heading !== undefined) {
      // "Configuration" cites `## Configuration (`config/`)`; "Terminal UI" cites `## Terminal UI: bytes written…`.
      for (const name of [heading, heading.replace(/\s*\([^)]*\)\s*$/, ''), heading.split(':')[0]!]) found.names.add(normalise(name));
      const base = slug(heading.replace(/[`*]/g, ''));
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      found.anchors.add(seen === 0 ? base : `${base}-${seen}`);
    }
    const head = line.match(/^\s*(?:[-*]\s+)?\*\*(.+?)\*\*/)?.[1];
    if (head !== undefined) found.names.add(normalise(head));
  }
  SECTIONS.set(file, found);
  return found;
}

/** Inline links (`[x](target)`, `[x](target "title")`, `[x](<target>)`) and reference definitions (`[r]: target`). */
const INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/;

function linkProblems(file: string, text: string): string[] {
  const targets = [...text.matchAll(INLINE_LINK)].map((match) => match[1]!);
  const definition = text.match(REFERENCE_DEFINITION)?.[1];
  if (definition !== undefined) targets.push(definition);
  const problems: string[] = [];
  for (const link of targets) {
    if (/^[a-z][\w+.-]*:/i.test(link)) continue; // https:, mailto:…
    const [target, anchor] = link.split('#', 2) as [string, string | undefined];
    const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target)).replace(/\/$/, '');
    if (!exists(resolved)) {
      problems.push(`link ${link} (from ${file}) does not exist`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && statSync(path.join(ROOT, resolved)).isFile() && !sectionsOf(resolved).anchors.has(anchor.toLowerCase())) {
      problems.push(`link ${link} (from ${file}): ${resolved} has no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}
