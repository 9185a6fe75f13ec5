/**
 * A fast path for the most common commands (`git status`, `npm run test -- --watch=false`,
 * `grep -rn "foo" src | head -20`, `git commit -m 'fix: x'`, `npm test 2>&1 | tail -5`): when
 * every word is made of plain characters, 'single-quoted' text and "double-quoted" text without
 * `$`, `` ` `` or `\`; words are separated only by `&&`, `||`, `|`, `;` and `&`; and the only
 * redirections are `>`, `>>`, `&>`, `&>>`, `<`, `N>`, `N>>` and `N>&M` at the end of a command —
 * the tree is built here in plain JavaScript with the shape tree-sitter-bash gives it, and the
 * same analysis runs on it. Anything else (expansions, backslashes, parentheses, braces,
 * brackets, heredocs, comments, newlines, `!`, reserved words, a malformed operator sequence)
 * returns undefined and goes to tree-sitter. A randomised test checks that both paths agree
 * wherever tree-sitter parses cleanly.
 */
import type { SyntaxNode } from './syntax-tree.js';

/** Characters of an unquoted word part. */
const PLAIN = /[A-Za-z0-9_./:,@%+=~*?-]/;
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'select', 'time', 'coproc']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const MAX_LENGTH = 4096;

interface Lexed {
  /** Word parts (word / string / raw_string nodes), or an operator, or a redirection operator. */
  parts?: SyntaxNode[];
  operator?: string;
  redirect?: { fd: string; op: string };
  start: number;
  end: number;
}

const REDIRECT = /(\d*)(&>>|&>|>>|>&|>|<)/y;

export function fastSyntaxTree(source: string): SyntaxNode | undefined {
  if (source.length > MAX_LENGTH) return undefined;
  const tokens = lex(source);
  if (!tokens) return undefined;

  const program = node('program', -1, -1);
  let statement: SyntaxNode[] = []; // commands of the current pipeline
  let words: Lexed[] = [];
  let redirects: SyntaxNode[] = []; // file_redirect nodes after the current command's words
  let needsCommand = false; // after `&&`, `||`, `|`

  const endCommand = (): boolean => {
    if (words.length === 0) return false;
    const command = simpleCommand(words, source);
    if (!command || (redirects.length > 0 && command.type !== 'command')) return false;
    if (redirects.length === 0) statement.push(command);
    else {
      const last = redirects[redirects.length - 1]!;
      const redirected = node('redirected_statement', command.start, last.end);
      command.field = 'body';
      redirected.children.push(command, ...redirects);
      statement.push(redirected);
    }
    words = [];
    redirects = [];
    return true;
  };
  const endStatement = (): void => {
    if (statement.length === 1) program.children.push(statement[0]!);
    else if (statement.length > 1) {
      const pipeline = node('pipeline', -1, -1);
      statement.forEach((command, i) => {
        if (i > 0) pipeline.children.push(node('|', -1, -1, false));
        pipeline.children.push(command);
      });
      program.children.push(pipeline);
    }
    statement = [];
  };

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.redirect) {
      // Only after the command's words, and followed by its target word.
      const target = tokens[t + 1];
      if (words.length === 0 || !target?.parts) return undefined;
      const { fd, op } = token.redirect;
      const targetText = source.slice(target.start, target.end);
      if (op === '>&' && !/^\d+$/.test(targetText)) return undefined;
      const redirect = node('file_redirect', token.start, target.end);
      redirect.field = 'redirect';
      if (fd !== '') {
        const descriptor = node('file_descriptor', token.start, token.start + fd.length);
        descriptor.field = 'descriptor';
        redirect.children.push(descriptor);
      }
      const destination = wordNode(target);
      destination.field = 'destination';
      redirect.children.push(node(op, -1, -1, false), destination);
      redirects.push(redirect);
      t++;
      continue;
    }
    if (token.parts) {
      if (redirects.length > 0) return undefined; // words after a redirection: tree-sitter's quirk territory
      words.push(token);
      needsCommand = false;
      continue;
    }
    if (!endCommand()) return undefined; // an operator with no command before it
    const operator = token.operator!;
    if (operator === '|') {
      needsCommand = true;
      continue;
    }
    endStatement();
    program.children.push(node(operator, -1, -1, false));
    needsCommand = operator === '&&' || operator === '||';
  }
  if (needsCommand) return undefined; // `a &&` / `a |`: incomplete
  if (words.length > 0 && !endCommand()) return undefined;
  endStatement();
  return program;
}

/** Splits into words (with their quoted/unquoted parts) and operators; undefined if out of scope. */
function lex(source: string): Lexed[] | undefined {
  const tokens: Lexed[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    REDIRECT.lastIndex = i;
    const redirect = REDIRECT.exec(source);
    if (redirect) {
      const end = i + redirect[0].length;
      const [, fd, op] = redirect;
      // <<, <(, >(, >|, <>, >&- and fd-prefixed &> are tree-sitter's business.
      // `0<in`: tree-sitter-bash reads the 0 as an argument; leave such spellings to it too.
      if (/[<>(|&-]/.test(source[end] ?? '') || (fd !== '' && (op!.startsWith('&') || op === '<'))) return undefined;
      tokens.push({ redirect: { fd: fd!, op: op! }, start: i, end });
      i = end;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      tokens.push({ operator: two, start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (two === '|&' || two === ';;' || two === '&|') return undefined;
    if (ch === '|' || ch === ';' || ch === '&') {
      tokens.push({ operator: ch, start: i, end: i + 1 });
      i++;
      continue;
    }
    const start = i;
    const parts: SyntaxNode[] = [];
    while (i < source.length) {
      const c = source[i]!;
      if (c === "'") {
        const close = source.indexOf("'", i + 1);
        if (close === -1 || source.slice(i, close).includes('\n')) return undefined;
        parts.push(node('raw_string', i, close + 1));
        i = close + 1;
      } else if (c === '"') {
        const close = source.indexOf('"', i + 1);
        if (close === -1) return undefined;
        if (/[$`\\\n!]/.test(source.slice(i + 1, close))) return undefined;
        const string = node('string', i, close + 1);
        string.children.push(node('"', -1, -1, false));
        if (close > i + 1) string.children.push(node('string_content', i + 1, close));
        string.children.push(node('"', -1, -1, false));
        parts.push(string);
        i = close + 1;
      } else if (PLAIN.test(c)) {
        const from = i;
        while (i < source.length && PLAIN.test(source[i]!)) i++;
        parts.push(node('word', from, i));
      } else if (c === ' ' || c === '\t' || c === '|' || c === ';' || c === '&') {
        break;
      } else {
        return undefined; // $ ` \ ( ) { } [ ] < > # ! newline and anything else
      }
    }
    tokens.push({ parts, start, end: i });
  }
  return tokens;
}

/** One simple command from its words, or undefined when it needs the real parser. */
function simpleCommand(words: Lexed[], source: string): SyntaxNode | undefined {
  let i = 0;
  const assignments: SyntaxNode[] = [];
  for (; i < words.length; i++) {
    const assignment = assignmentNode(words[i]!, source);
    if (!assignment) break;
    assignments.push(assignment);
  }
  const rest = words.slice(i);
  if (rest.length > 0) {
    const first = rest[0]!;
    const plain = first.parts!.length === 1 && first.parts![0]!.type === 'word';
    if (plain && RESERVED.has(source.slice(first.start, first.end))) return undefined;
    // A leading `NAME=` that is not an assignment (tree-sitter treats `--x=1` as one): keep to tree-sitter.
    if (/^[^'"]*=/.test(source.slice(first.start, first.end)) && !plain) return undefined;
  }
  const start = words[0]!.start;
  const end = words[words.length - 1]!.end;
  if (rest.length === 0) {
    if (assignments.length === 1) return assignments[0];
    const group = node('variable_assignments', start, end);
    group.children.push(...assignments);
    return group;
  }
  const command = node('command', start, end);
  command.children.push(...assignments);
  const name = node('command_name', rest[0]!.start, rest[0]!.end);
  name.field = 'name';
  name.children.push(wordNode(rest[0]!));
  command.children.push(name);
  for (const argument of rest.slice(1)) {
    const word = wordNode(argument);
    word.field = 'argument';
    command.children.push(word);
  }
  return command;
}

function wordNode(word: Lexed): SyntaxNode {
  if (word.parts!.length === 1) return word.parts![0]!;
  const concatenation = node('concatenation', word.start, word.end);
  concatenation.children.push(...word.parts!);
  return concatenation;
}

/** `NAME=value` / `NAME+=value` where the name is in the first, unquoted part. */
function assignmentNode(word: Lexed, source: string): SyntaxNode | undefined {
  const first = word.parts![0]!;
  if (first.type !== 'word') return undefined;
  const match = ASSIGNMENT.exec(source.slice(first.start, first.end));
  if (!match) return undefined;
  const head = match[0];
  const operator = head.endsWith('+=') ? '+=' : '=';
  const result = node('variable_assignment', word.start, word.end);
  const name = node('variable_name', word.start, word.start + head.length - operator.length);
  name.field = 'name';
  result.children.push(name, node(operator, -1, -1, false));
  const valueParts: SyntaxNode[] = [];
  if (first.end > first.start + head.length) valueParts.push(node('word', first.start + head.length, first.end));
  valueParts.push(...word.parts!.slice(1));
  if (valueParts.length > 0) {
    const value = valueParts.length === 1 ? valueParts[0]! : node('concatenation', valueParts[0]!.start, word.end);
    if (valueParts.length > 1) value.children.push(...valueParts);
    value.field = 'value';
    result.children.push(value);
  }
  return result;
}

function node(type: string, start: number, end: number, named = true): SyntaxNode {
  return { type, field: null, named, missing: false, start, end, children: [] };
}
