/**
 * The syntax tree of a plain command line, without the WebAssembly parser. Most command lines a
 * model sends are plain words: `git status`, `ls -la src | head -20`, `npm test 2>&1 | tail`,
 * `cd app && grep -rn "TODO" src`. For those this builds, in JavaScript, the very tree
 * syntax-tree.ts copies out of tree-sitter-bash (same node types, fields, spans and the same
 * quirks, e.g. a redirection after a pipeline's last command wraps the whole pipeline), so the
 * analysis in index.ts runs on the same data and reaches the same verdicts. The first command of
 * a process then does not wait for the parser's process to start and compile its grammar.
 *
 * It accepts only a small language it fully knows, and returns undefined for anything else, which
 * then goes to the real parser:
 * - words of the characters `A-Z a-z 0-9 _ . / : , @ % + = ~ * ? ^ -` (no `$`, backslash, `#`,
 *   brackets, braces, parentheses, `!`, `<`, newline), a word made only of digits (with a leading
 *   `-` or `0x`) being a `number` as tree-sitter has it;
 * - whole-word strings: '…' (no newline) and "…" without `$`, backquote, backslash or newline;
 *   nothing glued to a quote (`--x="a"` is the parser's);
 * - commands whose name is a plain word that is no reserved word, declaration builtin or
 *   assignment, with arguments, then redirections only: `>`, `>>` to a word or string, `N>`,
 *   `N>>`, and `>&N` / `N>&N` (N one digit);
 * - `|`, `&&`, `||` and `;` between commands (a `;` may end the line), spaces and tabs.
 * test/plugins/shell-command/simple-syntax.test.ts compares its trees with tree-sitter's on a
 * large generated set of such lines and checks that the rest is declined.
 */
import type { SyntaxNode } from './syntax-tree.js';

/** The longest line taken here; longer ones go to the parser (nobody types them as plain words). */
const MAX_SIMPLE_LENGTH = 4096;

const WORD_CHAR = /[A-Za-z0-9_./:,@%+=~*?^-]/;
const NUMBER = /^-?(?:0x)?[0-9]+$/;
/**
 * A command name taken here: no leading digit or `-`, no `=` (an assignment), no glob, and none
 * of `@ % + , ~ ^` (tree-sitter-bash reads `a@b` at a command's start as a broken assignment).
 */
const PLAIN_NAME = /^[A-Za-z_./][A-Za-z0-9_./:-]*$/;
/**
 * Names that tree-sitter-bash reads as syntax (reserved words, declaration and unset builtins,
 * test brackets) or that start a construct: their lines go to the parser.
 */
const NOT_PLAIN_NAMES = new Set([
  'if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function',
  'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv', 'test',
]);

type Span = { start: number; end: number };
type Token =
  | ({ kind: 'word' | 'number' | 'raw_string' } & Span)
  | ({ kind: 'string'; content: Span | undefined } & Span)
  | { kind: 'op'; op: '|' | '||' | '&&' | ';' }
  | ({ kind: 'redirect'; op: '>' | '>>' | '>&'; fd: Span | undefined } & Span);

type Argument = Extract<Token, { kind: 'word' | 'number' | 'raw_string' | 'string' }>;
interface Redirect {
  start: number;
  fd: Span | undefined;
  op: '>' | '>>' | '>&';
  target: Argument;
}
interface Stage {
  name: Span;
  args: Argument[];
  redirects: Redirect[];
}

/** The tree tree-sitter-bash gives `source` (as syntax-tree.ts copies it), or undefined when `source` is not plain. */
export function simpleSyntaxTree(source: string): SyntaxNode | undefined {
  if (source.length > MAX_SIMPLE_LENGTH) return undefined;
  const tokens = tokenize(source);
  if (!tokens) return undefined;
  const statements = parseStatements(tokens, source);
  if (!statements) return undefined;
  const children: SyntaxNode[] = [];
  for (const item of statements) children.push(item === ';' ? anonymous(';') : item);
  return { ...container('program'), children };
}

function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  /** Right after `>` / `>>` (and its blanks): the target may start there. */
  let targetNext = false;
  // Whether the previous character ends a token where a new one may start right away.
  const boundaryAt = (at: number): boolean => at >= n || ' \t|;&'.includes(source[at]!);
  while (i < n) {
    const c = source[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '|') {
      if (source[i + 1] === '|') {
        tokens.push({ kind: 'op', op: '||' });
        i += 2;
      } else if (source[i + 1] === '&') {
        return undefined; // |&
      } else {
        tokens.push({ kind: 'op', op: '|' });
        i++;
      }
      continue;
    }
    if (c === '&') {
      if (source[i + 1] !== '&') return undefined; // background job, &>
      tokens.push({ kind: 'op', op: '&&' });
      i += 2;
      continue;
    }
    if (c === ';') {
      if (source[i + 1] === ';' || source[i + 1] === '&') return undefined; // case terminators
      tokens.push({ kind: 'op', op: ';' });
      i++;
      continue;
    }
    const previous = i === 0 ? ' ' : source[i - 1]!;
    if (!targetNext && !' \t|;&'.includes(previous)) return undefined;
    const isTarget = targetNext;
    targetNext = false;
    // A redirection: `>`, `>>`, `>&N`, each with an optional one-digit descriptor before it.
    // tree-sitter-bash takes 1-9 as descriptors; `0>` is its parser's business.
    if (c === '0' && source[i + 1] === '>') return undefined;
    const fdLength = /[1-9]/.test(c) && source[i + 1] === '>' ? 1 : 0;
    if (c === '>' || fdLength === 1) {
      if (isTarget) return undefined;
      const start = i;
      const fd = fdLength === 1 ? { start: i, end: i + 1 } : undefined;
      i += fdLength + 1;
      let op: '>' | '>>' | '>&' = '>';
      if (source[i] === '>') {
        op = '>>';
        i++;
      } else if (source[i] === '&') {
        op = '>&';
        i++;
        if (!/[0-9]/.test(source[i] ?? '') || !boundaryAt(i + 1)) return undefined;
        tokens.push({ kind: 'redirect', op, fd, start, end: i });
        tokens.push({ kind: 'number', start: i, end: i + 1 });
        i++;
        continue;
      } else if (source[i] === '|' || source[i] === '(') {
        return undefined; // >| and >(…)
      }
      tokens.push({ kind: 'redirect', op, fd, start, end: i });
      // The target follows after optional blanks; it is read as the next token.
      while (source[i] === ' ' || source[i] === '\t') i++;
      if (i >= n || !(source[i] === '"' || source[i] === "'" || WORD_CHAR.test(source[i]!))) return undefined;
      targetNext = true;
      continue;
    }
    if (c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0 || source.slice(i + 1, close).includes('\n') || !boundaryAt(close + 1)) return undefined;
      tokens.push({ kind: 'raw_string', start: i, end: close + 1 });
      i = close + 1;
      continue;
    }
    if (c === '"') {
      const close = source.indexOf('"', i + 1);
      const content = source.slice(i + 1, close);
      // Blanks alone are no string_content for tree-sitter-bash (it skips them): the parser's.
      if (close < 0 || /[$`\\\n\r]/.test(content) || (content !== '' && content.trim() === '') || !boundaryAt(close + 1)) return undefined;
      tokens.push({ kind: 'string', start: i, end: close + 1, content: close > i + 1 ? { start: i + 1, end: close } : undefined });
      i = close + 1;
      continue;
    }
    if (!WORD_CHAR.test(c)) return undefined;
    const start = i;
    while (i < n && WORD_CHAR.test(source[i]!)) i++;
    if (!boundaryAt(i)) return undefined; // glued to a quote, `>`, `(`, `$` …
    const text = source.slice(start, i);
    // tree-sitter-bash drops a lone `-` before a descriptor's redirection (`cat - 2>f`), and reads
    // `==` and `=~` as test operators.
    if (text === '-' || text === '==' || text === '=~') return undefined;
    tokens.push({ kind: NUMBER.test(text) ? 'number' : 'word', start, end: i });
  }
  return tokens;
}

/** `program` items: statements (a list, pipeline, command or redirected statement) and `;`s. */
function parseStatements(tokens: readonly Token[], source: string): (SyntaxNode | ';')[] | undefined {
  const items: (SyntaxNode | ';')[] = [];
  let at = 0;
  while (at < tokens.length) {
    const parsed = parseList(tokens, at, source);
    if (!parsed) return undefined;
    items.push(parsed.node);
    at = parsed.next;
    if (at >= tokens.length) break;
    const separator = tokens[at]!;
    if (separator.kind !== 'op' || separator.op !== ';') return undefined;
    items.push(';');
    at++;
  }
  return items.length > 0 ? items : undefined;
}

/** Pipelines joined by `&&` / `||`, left-associative, as nested `list` nodes. */
function parseList(tokens: readonly Token[], at: number, source: string): { node: SyntaxNode; next: number } | undefined {
  let parsed: ParsedPipeline | undefined = parsePipeline(tokens, at, source);
  if (!parsed) return undefined;
  let node = parsed.node;
  let next = parsed.next;
  for (;;) {
    const operator = tokens[next];
    if (operator?.kind !== 'op' || (operator.op !== '&&' && operator.op !== '||')) return { node, next };
    // tree-sitter-bash nests `a | b | c && d` as `a | (b | c && d)`, and a redirection after a
    // later command of a list as the whole list's: such lines go to the parser.
    if (parsed.stages > 2 || parsed.laterRedirects) return undefined;
    parsed = parsePipeline(tokens, next + 1, source);
    if (!parsed || parsed.firstRedirects || parsed.laterRedirects) return undefined;
    node = { ...container('list'), children: [node, anonymous(operator.op), parsed.node] };
    next = parsed.next;
  }
}

interface ParsedPipeline {
  node: SyntaxNode;
  next: number;
  stages: number;
  /** Its first command has redirections. */
  firstRedirects: boolean;
  /** A later command has (only the last one may: they are the whole pipeline's). */
  laterRedirects: boolean;
}

function parsePipeline(tokens: readonly Token[], at: number, source: string): ParsedPipeline | undefined {
  const stages: Stage[] = [];
  let next = at;
  for (;;) {
    const stage = parseStage(tokens, next, source);
    if (!stage) return undefined;
    stages.push(stage.stage);
    next = stage.next;
    const operator = tokens[next];
    if (operator?.kind !== 'op' || operator.op !== '|') break;
    next++;
  }
  const firstRedirects = stages[0]!.redirects.length > 0;
  if (stages.length === 1) return { node: stageNode(stages[0]!, null), next, stages: 1, firstRedirects, laterRedirects: false };
  // tree-sitter-bash reads `a | b > f | c` as `(a | b > f) | c`: the parser's.
  if (stages.slice(1, -1).some((stage) => stage.redirects.length > 0)) return undefined;
  // tree-sitter-bash reads redirections after the last command as the whole pipeline's.
  const last = stages[stages.length - 1]!;
  const members: SyntaxNode[] = [];
  stages.forEach((stage, index) => {
    if (index > 0) members.push(anonymous('|'));
    members.push(index === stages.length - 1 ? commandNode(stage, null) : stageNode(stage, null));
  });
  const result = { next, stages: stages.length, firstRedirects, laterRedirects: last.redirects.length > 0 };
  if (last.redirects.length === 0) return { node: { ...container('pipeline'), children: members }, ...result };
  const pipeline: SyntaxNode = { ...container('pipeline'), field: 'body', children: members };
  const end = last.redirects[last.redirects.length - 1]!.target.end;
  return { node: { ...spanned('redirected_statement', stages[0]!.name.start, end, null), children: [pipeline, ...last.redirects.map(redirectNode)] }, ...result };
}

function parseStage(tokens: readonly Token[], at: number, source: string): { stage: Stage; next: number } | undefined {
  const name = tokens[at];
  if (name?.kind !== 'word') return undefined;
  const text = source.slice(name.start, name.end);
  if (!PLAIN_NAME.test(text) || NOT_PLAIN_NAMES.has(text)) return undefined;
  const stage: Stage = { name, args: [], redirects: [] };
  let next = at + 1;
  for (;;) {
    const token = tokens[next];
    if (token === undefined || token.kind === 'op') return { stage, next };
    if (token.kind === 'redirect') {
      const target = tokens[next + 1];
      if (target === undefined || target.kind === 'op' || target.kind === 'redirect') return undefined;
      if (token.op === '>&' ? target.kind !== 'number' : target.kind === 'number') return undefined;
      stage.redirects.push({ start: token.start, fd: token.fd, op: token.op, target });
      next += 2;
      continue;
    }
    if (stage.redirects.length > 0) return undefined; // words after a redirection
    stage.args.push(token);
    next++;
  }
}

/** A command, wrapped in a redirected statement when it has redirections. */
function stageNode(stage: Stage, field: string | null): SyntaxNode {
  if (stage.redirects.length === 0) return commandNode(stage, field);
  const end = stage.redirects[stage.redirects.length - 1]!.target.end;
  return { ...spanned('redirected_statement', stage.name.start, end, field), children: [commandNode(stage, 'body'), ...stage.redirects.map(redirectNode)] };
}

function commandNode(stage: Stage, field: string | null): SyntaxNode {
  const end = stage.args.length > 0 ? stage.args[stage.args.length - 1]!.end : stage.name.end;
  const name: SyntaxNode = { ...spanned('command_name', stage.name.start, stage.name.end, 'name'), children: [spanned('word', stage.name.start, stage.name.end, null)] };
  return { ...spanned('command', stage.name.start, end, field), children: [name, ...stage.args.map((arg) => argumentNode(arg, 'argument'))] };
}

function redirectNode(redirect: Redirect): SyntaxNode {
  const children: SyntaxNode[] = [];
  if (redirect.fd) children.push(spanned('file_descriptor', redirect.fd.start, redirect.fd.end, 'descriptor'));
  children.push(anonymous(redirect.op), argumentNode(redirect.target, 'destination'));
  return { ...spanned('file_redirect', redirect.start, redirect.target.end, 'redirect'), children };
}

function argumentNode(arg: Argument, field: string): SyntaxNode {
  if (arg.kind !== 'string') return spanned(arg.kind, arg.start, arg.end, field);
  const children = [anonymous('"')];
  if (arg.content) children.push(spanned('string_content', arg.content.start, arg.content.end, null));
  children.push(anonymous('"'));
  return { ...spanned('string', arg.start, arg.end, field), children };
}

/** A named node whose span the analysis reads. */
function spanned(type: string, start: number, end: number, field: string | null): SyntaxNode {
  return { type, field, named: true, missing: false, start, end, children: [] };
}

/** A named container whose own span syntax-tree.ts does not copy (program, list, pipeline). */
function container(type: string): SyntaxNode {
  return { type, field: null, named: true, missing: false, start: -1, end: -1, children: [] };
}

/** An operator or punctuation token. */
function anonymous(type: string): SyntaxNode {
  return { type, field: null, named: false, missing: false, start: -1, end: -1, children: [] };
}
