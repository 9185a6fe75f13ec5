/**
 * The tree-sitter side of the shell parser: loads web-tree-sitter and the tree-sitter-bash
 * grammar on first use (never at import time, so start-up does not pay for WebAssembly), and
 * copies a parse tree into plain objects in one cursor pass, so the analysis runs on JavaScript
 * data instead of crossing into WebAssembly for every node, and the tree can be freed at once.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Parser as TreeSitterParser } from 'web-tree-sitter';

/** One node of the parse tree; `start`/`end` are UTF-16 offsets into the parsed source. */
export interface SyntaxNode {
  type: string;
  /** The field name under which the node sits in its parent (`name`, `argument`, `redirect`, …). */
  field: string | null;
  named: boolean;
  /** A node tree-sitter inserted to recover from an error (e.g. a missing `fi`). */
  missing: boolean;
  start: number;
  end: number;
  children: SyntaxNode[];
}

let parserPromise: Promise<TreeSitterParser> | undefined;

/** The grammar's file name, in tree-sitter-bash and in dist/. */
const BASH_GRAMMAR = 'tree-sitter-bash.wasm';

/**
 * The bash grammar (WebAssembly). The build copies it into dist/ (scripts/bundle.mjs), where the
 * built code finds it beside its file (dist/*.js) or one folder up (dist/chunks/*.js): installing
 * MewCode needs no tree-sitter-bash package, whose install script compiles a native addon we never
 * load. Run from the sources (tests), it is the devDependency's own file.
 */
function grammarFile(): string {
  for (const candidate of [`./${BASH_GRAMMAR}`, `../${BASH_GRAMMAR}`]) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  return createRequire(import.meta.url).resolve(`tree-sitter-bash/${BASH_GRAMMAR}`);
}


async function loadParser(): Promise<TreeSitterParser> {
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
    const bash = await Language.load(grammarFile());
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** The cached parser; a failed load is not cached, so a later call tries again. */
export function bashParser(): Promise<TreeSitterParser> {
  if (!parserPromise) {
    parserPromise = loadParser();
    parserPromise.catch(() => {
      parserPromise = undefined;
    });
  }
  return parserPromise;
}

/**
 * The deepest tree copied out. A deeper one (`$(` or `{` nested hundreds of times: nobody writes
 * that) is refused with an error — the analysis then reports that the parser failed — because
 * every later step that follows the tree's nesting has a stack: the structured clone that carries
 * the tree from the parser's process (a RangeError there would take MewCode down), and the
 * analysis's recursive walks. Far above what the analysis follows (index.ts's MAX_TREE_DEPTH).
 */
export const MAX_SYNTAX_DEPTH = 1000;

/** Parses `source` and returns a plain copy of the tree (the WebAssembly tree is freed). */
export function parseToSyntaxTree(parser: TreeSitterParser, source: string): SyntaxNode {
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    const hasError = tree.rootNode.hasError;
    const cursor = tree.walk();
    try {
      return copyTree(cursor, tree.language, hasError);
    } finally {
      cursor.delete();
    }
  } finally {
    tree.delete();
  }
}

type Tree = NonNullable<ReturnType<TreeSitterParser['parse']>>;
type Cursor = ReturnType<Tree['walk']>;
type Language = Tree['language'];

/** Per-language cache of named-ness by type id (each lookup costs a WebAssembly call). */
const namedByLanguage = new WeakMap<Language, Map<number, boolean>>();

/** Containers whose own span the analysis never reads (their children carry the text). */
const NO_SPAN = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'do_group', 'if_statement', 'elif_clause',
  'else_clause', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'case_item',
  'negated_command', 'function_definition', 'test_command',
]);
/** Named node types that never have children: no need to ask the cursor (a WebAssembly call). */
const LEAVES = new Set([
  'word', 'number', 'variable_name', 'file_descriptor', 'string_content', 'raw_string', 'ansi_c_string',
  'heredoc_start', 'heredoc_content', 'heredoc_end', 'special_variable_name', 'test_operator', 'regex',
  'extglob_pattern', 'comment',
]);
/** Parents whose children's field names the analysis reads. */
const FIELD_PARENTS = new Set(['command', 'redirected_statement', 'file_redirect', 'variable_assignment', 'function_definition']);

/**
 * Every cursor getter crosses into WebAssembly, so only what the analysis reads is fetched:
 * the type of every node; positions of the nodes whose text is used; field names under the
 * parents where fields matter; "missing" (and everything) only when the tree has an error.
 */
function copyTree(cursor: Cursor, language: Language, hasError: boolean): SyntaxNode {
  let named = namedByLanguage.get(language);
  if (!named) namedByLanguage.set(language, (named = new Map()));
  const namedCache = named;
  const types = language.types;
  const fields = language.fields;
  const read = (parentType: string | undefined): SyntaxNode => {
    const typeId = cursor.nodeTypeId;
    let isNamed = namedCache.get(typeId);
    const type = types[typeId] ?? 'ERROR';
    if (isNamed === undefined) namedCache.set(typeId, (isNamed = type === 'ERROR' || language.nodeTypeIsNamed(typeId)));
    if (hasError) {
      const field = fields[cursor.currentFieldId] ?? null;
      return { type, field, named: isNamed, missing: cursor.nodeIsMissing, start: cursor.startIndex, end: cursor.endIndex, children: [] };
    }
    const field = isNamed && parentType !== undefined && FIELD_PARENTS.has(parentType) ? (fields[cursor.currentFieldId] ?? null) : null;
    if (!isNamed || NO_SPAN.has(type)) return { type, field, named: isNamed, missing: false, start: -1, end: -1, children: [] };
    return { type, field, named: true, missing: false, start: cursor.startIndex, end: cursor.endIndex, children: [] };
  };
  const root = read(undefined);
  // Iterative pre-order walk: deep trees (long pipelines, nested substitutions) cannot overflow the stack.
  const stack: SyntaxNode[] = [root];
  if (!cursor.gotoFirstChild()) return root;
  for (;;) {
    const parent = stack[stack.length - 1]!;
    const node = read(parent.type);
    parent.children.push(node);
    if (node.named && !LEAVES.has(node.type) && cursor.gotoFirstChild()) {
      if (stack.length >= MAX_SYNTAX_DEPTH) throw new Error(`the command is nested more than ${MAX_SYNTAX_DEPTH} levels deep`);
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return root;
      stack.pop();
      if (stack.length === 0) return root;
    }
  }
}
