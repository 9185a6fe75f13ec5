/**
 * Where tree-sitter-bash reads a line differently from bash, the source is rewritten into one that
 * both read alike, and parsed again, so that the words the rules see are the words bash runs:
 *
 * - A backslash-newline is a blank to the grammar even inside a word (`r\<newline>m` is `r`, `m`),
 *   while bash removes it before it splits words (`rm`). It is removed here wherever bash removes
 *   it: everywhere but inside single quotes, `$'…'`, comments and here-documents with a quoted
 *   delimiter, and never after an escaping backslash (`\\<newline>`).
 * - A carriage return, vertical tab or form feed is a blank to the grammar, while bash splits
 *   words only at space, tab and newline (`ls\rtouch x` runs the one word `ls\rtouch`). Outside
 *   quotes such a character becomes `$'\r'` (the same character to bash, inside the word).
 * - `coproc NAME { …; }` (and `coproc { …; }`, `coproc NAME ( … )`, `coproc NAME while …`): the
 *   grammar has no coproc compound command and loses its body. `coproc [NAME]` becomes a `coproc`
 *   of its own, so the body is analysed as a group's would be.
 * - A line that starts with a backslash (`true<newline>\rm x`) is glued by the grammar onto the
 *   command before as one more word (`\n\rm`), while bash ends that command at the newline and
 *   runs `rm x`. A blank after the newline makes the grammar see the line start too.
 *
 * The rewrite is run again on its result (joining words may reveal more: `a\<newline>#b\<newline>c`)
 * until nothing changes; index.ts bounds the rounds.
 */
import type { SyntaxNode } from './syntax-tree.js';

/** Nodes in which a backslash-newline is text, not a line continuation. */
const KEEPS_CONTINUATION = new Set(['raw_string', 'ansi_c_string', 'comment']);
/** Nodes in which a carriage return, vertical tab or form feed is part of the text. */
const TEXT_NODES = new Set([
  'word', 'string', 'string_content', 'raw_string', 'ansi_c_string', 'translated_string', 'comment', 'heredoc_body',
  'heredoc_content', 'heredoc_start', 'heredoc_end', 'regex', 'extglob_pattern', 'number', 'variable_name',
  'special_variable_name', 'file_descriptor', 'test_operator',
]);
/** Words after `coproc [NAME]` that start a compound command. */
const COMPOUND_OPENERS = new Set(['{', '(', '((', '[[', 'while', 'until', 'for', 'select', 'if', 'case']);

const NON_SPLITTING_BLANKS = /[\r\v\f]/;

/** The source rewritten as bash reads it, or undefined when tree-sitter-bash already reads it so. */
export function asBashReadsIt(source: string, root: SyntaxNode): string | undefined {
  if (root.missing) return undefined; // a stand-in for a tree the parser has not given yet
  if (!source.includes('\\\n') && !source.includes('\n\\') && !NON_SPLITTING_BLANKS.test(source) && !source.includes('coproc')) return undefined;
  const index = indexTree(root, source);
  const edits: { start: number; end: number; text: string }[] = [];
  for (let i = source.indexOf('\\\n'); i !== -1; i = source.indexOf('\\\n', i + 2)) {
    if (isContinuation(source, i, index)) edits.push({ start: i, end: i + 2, text: '' });
  }
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if ((ch === '\r' || ch === '\v' || ch === '\f') && !insideText(i, index)) {
      // `\<CR>` (a CRLF line ending after a backslash) is an escaped carriage return to bash, not a
      // line continuation as the grammar reads it: the backslash goes with it.
      let backslashes = 0;
      for (let k = i - 1; k >= 0 && source[k] === '\\'; k--) backslashes++;
      const start = backslashes % 2 === 1 ? i - 1 : i;
      edits.push({ start, end: i + 1, text: `$'\\${ch === '\r' ? 'r' : ch === '\v' ? 'v' : 'f'}'` });
    }
  }
  edits.push(...coprocEdits(source, index));
  for (const entry of index.all) {
    // A word starting with a newline: bash never puts one there (a backslash-newline, the only
    // escaped one, is removed above), so it is the grammar's glued line start.
    if (entry.node.type === 'word' && entry.start >= 0 && source[entry.start] === '\n' && source[entry.start - 1] !== '\\') {
      edits.push({ start: entry.start + 1, end: entry.start + 1, text: ' ' });
    }
  }
  if (edits.length === 0) return undefined;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) continue; // overlapping edits: the first one wins, the next round sees the rest
    out += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + source.slice(at);
}

interface Indexed {
  node: SyntaxNode;
  /** Its span; a container the tree gives none gets its children's. */
  start: number;
  end: number;
  parent: Indexed | undefined;
  children: Indexed[];
  /** Inside a here-document whose delimiter is quoted (its body is not expanded, backslashes stay). */
  quotedHeredoc: boolean;
}

/** Every node with its span and parent; `all` in pre-order. */
function indexTree(root: SyntaxNode, source: string): { root: Indexed; all: Indexed[] } {
  const all: Indexed[] = [];
  const make = (node: SyntaxNode, parent: Indexed | undefined): Indexed => {
    const quotedHeredoc =
      (parent?.quotedHeredoc ?? false) ||
      (node.type === 'heredoc_body' &&
        parent?.node.type === 'heredoc_redirect' &&
        parent.node.children.some((c) => c.type === 'heredoc_start' && c.start >= 0 && /['"\\]/.test(source.slice(c.start, c.end))));
    const entry: Indexed = { node, start: node.start, end: node.end, parent, children: [], quotedHeredoc };
    all.push(entry);
    return entry;
  };
  const top = make(root, undefined);
  // Iterative: a deep tree cannot overflow the stack.
  const stack: Indexed[] = [top];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    for (const child of entry.node.children) entry.children.push(make(child, entry));
    for (let k = entry.children.length - 1; k >= 0; k--) stack.push(entry.children[k]!);
  }
  // Spans of containers without one, children first (reverse pre-order).
  for (let k = all.length - 1; k >= 0; k--) {
    const entry = all[k]!;
    if (entry.start >= 0) continue;
    for (const child of entry.children) {
      if (child.start < 0) continue;
      if (entry.start < 0 || child.start < entry.start) entry.start = child.start;
      if (child.end > entry.end) entry.end = child.end;
    }
  }
  return { root: top, all };
}

/** The innermost node whose span holds the character at `at`. */
function innermost(root: Indexed, at: number): Indexed | undefined {
  if (root.start < 0 || at < root.start || at >= root.end) return undefined;
  let node = root;
  for (;;) {
    const inner = node.children.find((c) => c.start >= 0 && c.start <= at && at < c.end);
    if (!inner) return node;
    node = inner;
  }
}

function isContinuation(source: string, at: number, index: { root: Indexed }): boolean {
  // `\\<newline>`: the backslash before the newline is itself escaped.
  let backslashes = 0;
  for (let k = at; k >= 0 && source[k] === '\\'; k--) backslashes++;
  if (backslashes % 2 === 0) return false;
  for (let entry = innermost(index.root, at); entry; entry = entry.parent) {
    if (KEEPS_CONTINUATION.has(entry.node.type) || entry.quotedHeredoc) return false;
  }
  return true;
}

function insideText(at: number, index: { root: Indexed }): boolean {
  const entry = innermost(index.root, at);
  if (!entry) return false;
  if (TEXT_NODES.has(entry.node.type)) return true;
  for (let up: Indexed | undefined = entry; up; up = up.parent) if (up.quotedHeredoc || KEEPS_CONTINUATION.has(up.node.type)) return true;
  return false;
}

/** `coproc [NAME] <compound>` → `coproc; <compound>`. */
function coprocEdits(source: string, index: { all: Indexed[] }): { start: number; end: number; text: string }[] {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const entry of index.all) {
    const cmd = entry.node;
    if (cmd.type !== 'command') continue;
    const at = cmd.children.findIndex((c) => c.type === 'command_name');
    const name = cmd.children[at];
    if (name === undefined || source.slice(name.start, name.end) !== 'coproc') continue;
    const rest = cmd.children.slice(at + 1).filter((c) => c.named);
    const opener = (node: SyntaxNode | undefined): boolean =>
      node !== undefined && (node.type === 'subshell' || node.type === 'compound_statement' || (node.start >= 0 && COMPOUND_OPENERS.has(source.slice(node.start, node.end))));
    let body: SyntaxNode | undefined;
    if (opener(rest[0])) body = rest[0];
    else if (rest[0] && opener(rest[1])) body = rest[1];
    if (body && body.start >= 0) edits.push({ start: name.end, end: body.start, text: '; ' });
  }
  return edits;
}
