/**
 * Everything the code and the documentation refer to is in the repository: a behaviour id cited
 * in a code comment or a Markdown file (`K3`, `A15`, a range `H2–H7`) is a heading of
 * docs/behaviours.md, a repository path cited there (`kernel/plugin-lifecycle.ts`,
 * `docs/behaviours.md`, a relative Markdown link) exists, and nothing cites a document that is
 * not here (a behaviour specification, design notes or reference files kept outside the checkout).
 * Comments are read with TypeScript's own parser, so code and string contents are not mistaken
 * for them; test fixtures are data, not documentation, and are not read.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { TOKENS } from '../../types/tokens.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git', 'coverage']);
const SKIPPED_PATHS = ['test/fixtures/', 'test/extension/fixtures/'];
const CODE = /\.(?:ts|tsx|js|mjs|cjs)$/;
/** Top-level folders of the repository: a path starting with one of them is a repository path. */
const TOP_LEVEL = ['types', 'kernel', 'sdk', 'config', 'plugins', 'bin', 'scripts', 'test', 'docs'];
/** Files a user's project or home has (instructions, skills), named in the docs but not ours. */
const PRODUCT_FILE_NAMES = new Set(['MEWCODE.md', 'CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'GEMINI.md', 'SKILL.md']);

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

/** The comments of a source file, each with the line it starts on. */
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
  return found;
}

/** The prose to check in each file: the comments of code, the whole of Markdown. */
function prose(): { file: string; line: number; text: string }[] {
  const out: { file: string; line: number; text: string }[] = [];
  for (const file of FILES) {
    if (CODE.test(file)) {
      for (const comment of comments(file, readFileSync(path.join(ROOT, file), 'utf8'))) out.push({ file, ...comment });
    } else if (file.endsWith('.md')) {
      readFileSync(path.join(ROOT, file), 'utf8').split('\n').forEach((text, index) => out.push({ file, line: index + 1, text }));
    }
  }
  return out;
}

const DEFINED_IDS = new Set(
  readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) => [...readFileSync(path.join(ROOT, 'docs', name), 'utf8').matchAll(/^#{2,4} ([A-Z]\d{1,2})\s*$/gm)].map((match) => match[1]!)),
);

/** `K3`, `A1–A10`, `C2-C4`; not the names of control-character sets, not parts of longer words. */
const ID = /(?<![\w/.-])([KPLATMSHCGU])(\d{1,2})(?:\s?[–-]\s?([KPLATMSHCGU])?(\d{1,2}))?(?![\w/])/g;
const CONTROL_CHARACTERS = /\bC[01](?:\/C1)?(?= controls?\b)/g;

function idProblems(text: string): string[] {
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

function fileProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const [pattern, problem] of OUTSIDE_DOCUMENTS) if (pattern.test(text)) problems.push(problem);
  for (const match of text.matchAll(/(?<![\w/.-])([A-Z][A-Z0-9_]*(?:\.local)?\.md)\b/g)) {
    const name = match[1]!;
    if (!PRODUCT_FILE_NAMES.has(name) && !ALL_FILES.has(name) && !ALL_FILES.has(`docs/${name}`)) problems.push(`${name} is not in the repository`);
  }
  for (const match of text.matchAll(PATH)) {
    const reference = match[1]!.replace(/[.]+$/, '');
    const relative = reference.startsWith('./') || reference.startsWith('../');
    const first = reference.replace(/^(?:\.{1,2}\/)+/, '').split('/')[0]!;
    if (!reference.includes('/')) continue;
    if (relative) continue; // a relative path in prose is an example (`./src/app.ts`); links are checked below
    if (!relative && TOP_LEVEL.includes(first) && /\.(?:ts|tsx|mjs|cjs|md)$|\/$/.test(reference)) {
      if (!exists(reference.replace(/\/$/, ''))) problems.push(`${reference} does not exist`);
    }
  }
  if (file.endsWith('.md')) {
    // A Markdown link to a file of the repository, resolved from the Markdown file's folder.
    for (const match of text.matchAll(/\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!)).replace(/\/$/, '');
      if (!exists(target)) problems.push(`link ${match[1]} (from ${file}) does not exist`);
    }
  }
  return problems;
}

function exists(repositoryPath: string): boolean {
  return ALL_FILES.has(repositoryPath) || existsSync(path.join(ROOT, repositoryPath));
}

test('docs/behaviours.md defines the behaviour ids', () => {
  expect(DEFINED_IDS.size).toBeGreaterThan(50);
  expect(DEFINED_IDS).toContain('K1');
});

test('code comments and Markdown cite only behaviour ids defined in docs/ and files that exist', () => {
  const problems: string[] = [];
  for (const { file, line, text } of prose()) {
    for (const problem of [...idProblems(text), ...fileProblems(file, text)]) problems.push(`${file}:${line}: ${problem}`);
  }
  expect(problems).toEqual([]);
}, 60_000);

test('docs/plugin-contract.md lists every TOKENS entry', () => {
  const contract = readFileSync(path.join(ROOT, 'docs/plugin-contract.md'), 'utf8');
  const listed = new Set([...contract.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]));
  expect(Object.keys(TOKENS).filter((name) => !listed.has(name))).toEqual([]);
});

test('ARCHITECTURE.md stays an overview (at most 15,000 bytes); the detail belongs in docs/ and BENCHMARKS.md', () => {
  expect(readFileSync(path.join(ROOT, 'ARCHITECTURE.md')).length).toBeLessThanOrEqual(15_000);
});
