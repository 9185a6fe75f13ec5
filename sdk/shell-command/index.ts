/**
 * The shell parser shared by the permission layers (SPEC A10): splits a command line into every
 * simple command it would run, with a real bash grammar (tree-sitter-bash via web-tree-sitter),
 * so that a check applies to each segment of `a; b`, `a && b`, `a || b`, `a | b`, `a & b`,
 * `(a; b)`, `{ a; }`, `$(a)`, `` `a` `` (also inside "…" and assignments), `<(a)`, `>(a)`,
 * if/while/until/for/select/case bodies and function bodies — and, recursively, to the source
 * run by `sh|bash|zsh|dash|ksh… -c`, `eval`, `su -c`, `watch`, `env -S`, `alias x='…'`,
 * `trap '…' SIG`, and a shell fed by a heredoc, a here-string or `echo …|`/`printf …|`.
 * Wrappers (`sudo`, `doas`, `env`, `nice`, `nohup`, `timeout`, `time`, `command`, `builtin`,
 * `exec`, `stdbuf`, `ionice`, `setsid`, `xargs`, `busybox`, `find -exec`, …) keep their own
 * segment and add the wrapped command as a segment too; `echo a b | xargs rm` adds `rm a b`.
 *
 * This folder is a library, not a plugin. web-tree-sitter is imported on the first call only
 * (≈60 ms, then cached); simple commands (no quotes, `$`, brackets, redirections) take a pure
 * JavaScript fast path that builds the same tree; results are cached (LRU, 256) and frozen.
 * Callers must treat `parseError` conservatively: the segments are then best-effort.
 */
import { fastSyntaxTree } from './fast-path.js';
import { bashParser, parseToSyntaxTree, type SyntaxNode } from './syntax-tree.js';
import { decodeAnsiC, wordValue } from './words.js';
import { commandName, unwrapCommand, type Word } from './wrappers.js';

export interface ShellSegment {
  /**
   * Words after shell unquoting: `rm -rf "/"` → `['rm', '-rf', '/']`. Words with expansions keep
   * their source text for those parts (`"$HOME"/x` → `$HOME/x`, `~` stays `~`). Empty for a
   * statement made only of assignments or redirections.
   */
  argv: string[];
  /** The segment's source text, trimmed, e.g. `rm -rf /` (with its redirections, if any). */
  text: string;
  /** e.g. `{ op: '>', target: '/dev/sda' }`; `op` is the operator without the fd number (`2>` → `>`). */
  redirects: { op: string; target: string }[];
  /** Leading `VAR=value` words (unquoted like argv); for `env X=1 cmd` also env's assignments. */
  assignments: string[];
  /**
   * The segment's source text without the redirections written in it (`npm test 2>&1` →
   * `npm test`); absent when the segment is only redirections. Its `redirects` still list them.
   */
  textWithoutRedirects?: string;
}

export interface ParsedCommand {
  segments: ShellSegment[];
  /** Set when the command (or a nested `sh -c` string) does not parse cleanly; segments are best-effort. */
  parseError?: string;
  /** True when a shell function is defined anywhere (fork bombs are functions). */
  hasFunctionDefinition: boolean;
  /**
   * Set (to the reasons) when the command contains a construct in which bash may evaluate a
   * string as arithmetic — and so run a `$(…)` hidden in an array subscript of it — or as a
   * prompt string: `[[ … -eq/-ne/-lt/-le/-gt/-ge/-v/-R … ]]`, `(( … ))`, `for ((…))`,
   * `$(( … ))`/`$[ … ]`, `let`, `declare/typeset/local -i/-n`, a non-numeric array subscript
   * (`a[i]=…`, `${a[i]}`), `${!x}`, `${x:off}` with a non-numeric offset, `${x@P}`, and name
   * arguments of `read`/`unset`/`mapfile`/`readarray`/`printf -v`/`wait -p`/`test -v`.
   * The visible segments are then not everything the command may run: callers must treat it
   * like `parseError` (never allow by rule). Literal strings of such a command that contain
   * `$(` or a backquote are parsed as scripts too, so what they would run is among the segments.
   */
  opaque?: string;
  raw: string;
}

/** A function defined in the command, for recursion (fork bomb) analysis. */
export interface ShellFunction {
  name: string;
  /** Command names called in its body (literal names only). */
  calls: string[];
  /** The body starts concurrent processes: a pipeline, `&`, `|&`, process substitution or coproc. */
  spawns: boolean;
}

export interface ShellAnalysis {
  parsed: ParsedCommand;
  functions: ShellFunction[];
}

/** How deep `sh -c "sh -c '…'"` / `eval` nesting is followed before giving up (parse error). */
export const MAX_NESTING = 8;
/** Segments beyond this make the command a parse error (nobody writes that by hand). */
export const MAX_SEGMENTS = 4096;

export async function parseShellCommand(command: string): Promise<ParsedCommand> {
  return (await analyzeShellCommand(command)).parsed;
}

/**
 * parseShellCommand plus the defined functions and what they call (for the blacklist).
 * Results are cached (the blacklist and the rules layer parse the same command in one check)
 * and deeply frozen: treat them as read-only.
 */
export async function analyzeShellCommand(command: string, options: { fastPath?: boolean } = {}): Promise<ShellAnalysis> {
  const useFastPath = options.fastPath ?? true;
  const cached = useFastPath ? cache.get(command) : undefined;
  if (cached) {
    cache.delete(command); // refresh its place in the LRU order
    cache.set(command, cached);
    return cached;
  }
  const parser = await bashParser();
  const out: Output = { segments: [], errors: [], functions: [], hasFunctionDefinition: false, opaque: [] };
  const parse = (source: string): SyntaxNode => (useFastPath ? fastSyntaxTree(source) : undefined) ?? parseToSyntaxTree(parser, source);
  analyzeSource(parse, command, 0, out);
  const parsed: ParsedCommand = { segments: out.segments, hasFunctionDefinition: out.hasFunctionDefinition, raw: command };
  if (out.errors.length > 0) parsed.parseError = out.errors.join('; ');
  if (out.opaque.length > 0) parsed.opaque = [...new Set(out.opaque)].join('; ');
  const analysis = freezeAnalysis({ parsed, functions: out.functions });
  if (useFastPath) {
    cache.set(command, analysis);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return analysis;
}

const CACHE_SIZE = 256;
const cache = new Map<string, ShellAnalysis>();

/** Cached results are shared between callers: freeze them so a mutation fails loudly. */
function freezeAnalysis(analysis: ShellAnalysis): ShellAnalysis {
  for (const segment of analysis.parsed.segments) {
    for (const redirect of segment.redirects) Object.freeze(redirect);
    Object.freeze(segment.argv);
    Object.freeze(segment.redirects);
    Object.freeze(segment.assignments);
    Object.freeze(segment);
  }
  for (const fn of analysis.functions) {
    Object.freeze(fn.calls);
    Object.freeze(fn);
  }
  Object.freeze(analysis.parsed.segments);
  Object.freeze(analysis.parsed);
  Object.freeze(analysis.functions);
  return Object.freeze(analysis);
}

/** Warms the parser up (loads the WebAssembly) without parsing anything. */
export async function loadShellParser(): Promise<void> {
  await bashParser();
}

interface Output {
  segments: ShellSegment[];
  errors: string[];
  functions: ShellFunction[];
  hasFunctionDefinition: boolean;
  /** Why the command is opaque (see ParsedCommand.opaque); empty when it is not. */
  opaque: string[];
  truncated?: boolean;
}

type Redirect = ShellSegment['redirects'][number];

interface Context {
  /** Redirections of an enclosing compound statement (`{ a; b; } > f`), inherited by its commands. */
  redirects: Redirect[];
  fn: ShellFunction | undefined;
}

/** What a pipeline needs to know about one of its stages. */
interface Stage {
  /** The innermost command after unwrapping (`sudo sh` → `sh`). */
  words: Word[];
  /** A shell that runs what arrives on stdin. */
  readsStdin: boolean;
  /** `xargs cmd`: cmd gets what arrives on stdin as extra arguments. */
  xargs?: { words: Word[]; text: string };
}

function analyzeSource(parse: (source: string) => SyntaxNode, source: string, depth: number, out: Output): void {
  if (depth > MAX_NESTING) {
    out.errors.push(`commands nested more than ${MAX_NESTING} levels deep (sh -c / eval) were not analysed`);
    return;
  }
  let root: SyntaxNode;
  try {
    root = parse(source);
  } catch (error) {
    out.errors.push(`the shell parser failed: ${(error as Error).message}`);
    return;
  }
  const walker = new Walker(source, depth, out);
  walker.walk(root, { redirects: [], fn: undefined });
  // In an opaque command, a literal string such as 'a[$(cmd)]' may be run as code: parse it too.
  // (After `: `, so that `a[$(cmd)]` is read as a word, not as a broken array assignment.)
  if (out.opaque.length > 0) walker.scripts.push(...walker.codeLikeStrings.map((s) => `: ${s}`));
  for (const script of walker.scripts) analyzeSource(parse, script, depth + 1, out);
}

const SPAWNING_TOKENS = new Set(['&', '|&']);

/** `[[ … ]]` operators under which bash evaluates the operands as arithmetic or variable names. */
const ARITHMETIC_TEST_OPERATORS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-v', '-R']);
/** Builtins whose operands are variable names (bash evaluates an `a[…]` subscript in them). */
const NAME_TAKING_BUILTINS = new Set(['read', 'unset', 'mapfile', 'readarray', 'getopts']);

function collect(node: SyntaxNode, test: (node: SyntaxNode) => boolean, into: SyntaxNode[] = []): SyntaxNode[] {
  for (const child of node.children) {
    if (test(child)) into.push(child);
    collect(child, test, into);
  }
  return into;
}

/** Syntax-tree depth the walk follows (`$( $( $( …` thousands deep would exhaust the stack). */
const MAX_TREE_DEPTH = 400;

class Walker {
  /** Shell source found in this source (sh -c strings, eval, heredocs fed to a shell), parsed after the walk. */
  readonly scripts: string[] = [];
  /** Literal strings (quoted or escaped) whose value contains `$(` or a backquote. */
  readonly codeLikeStrings: string[] = [];
  private level = 0;
  private tooDeep = false;

  constructor(
    private readonly source: string,
    private readonly depth: number,
    private readonly out: Output,
  ) {}

  walk(node: SyntaxNode, ctx: Context): Stage | undefined {
    if (this.level >= MAX_TREE_DEPTH) {
      if (!this.tooDeep) this.error(node, `nesting deeper than ${MAX_TREE_DEPTH} levels was not analysed`);
      this.tooDeep = true;
      return undefined;
    }
    this.level++;
    try {
      return this.visit(node, ctx);
    } finally {
      this.level--;
    }
  }

  private visit(node: SyntaxNode, ctx: Context): Stage | undefined {
    if (node.missing) {
      this.error(node, `missing "${node.type}"`);
      return undefined;
    }
    this.noteEvaluatingConstruct(node);
    switch (node.type) {
      case 'command':
        return this.command(node, undefined, ctx);
      case 'redirected_statement':
        return this.redirectedStatement(node, ctx);
      case 'pipeline':
        this.pipeline(node, ctx);
        return undefined;
      case 'variable_assignment':
      case 'variable_assignments': {
        const asCommand = this.assignmentsAsCommand(node);
        if (asCommand) return this.command(asCommand, undefined, ctx);
        const assignments = node.type === 'variable_assignment' ? [node] : node.children.filter((c) => c.type === 'variable_assignment');
        this.emit({ argv: [], text: this.text(node), redirects: [...ctx.redirects], assignments: assignments.map((a) => this.assignment(a)) });
        for (const a of assignments) this.walkChildren(a, ctx);
        return undefined;
      }
      case 'declaration_command':
      case 'unset_command':
        this.declaration(node, ctx);
        return undefined;
      case 'function_definition': {
        this.out.hasFunctionDefinition = true;
        const nameNode = node.children.find((c) => c.field === 'name');
        const fn: ShellFunction = { name: nameNode ? wordValue(nameNode, this.source).value : '', calls: [], spawns: false };
        this.out.functions.push(fn);
        this.walkChildren(node, { redirects: [], fn });
        return undefined;
      }
      case 'c_style_for_statement':
        // `for ((i=0; …))`: the assignments are arithmetic, not statements.
        for (const child of node.children) {
          if (child.type === 'variable_assignment') this.walkChildren(child, ctx);
          else this.walk(child, ctx);
        }
        return undefined;
      case 'command_substitution':
        this.walkChildren(node, { redirects: [], fn: ctx.fn });
        return undefined;
      case 'process_substitution':
        if (ctx.fn) ctx.fn.spawns = true;
        this.walkChildren(node, { redirects: [], fn: ctx.fn });
        return undefined;
      case 'ERROR':
        this.error(node, 'syntax error');
        this.walkChildren(node, ctx);
        return undefined;
      case 'comment':
        return undefined;
      default:
        if (!node.named && SPAWNING_TOKENS.has(node.type) && ctx.fn) ctx.fn.spawns = true;
        this.walkChildren(node, ctx);
        return undefined;
    }
  }

  private opaque(reason: string): void {
    this.out.opaque.push(reason);
  }

  /** Records (in out.opaque) a construct in which bash may evaluate a string as arithmetic or a prompt. */
  private noteEvaluatingConstruct(node: SyntaxNode): void {
    switch (node.type) {
      case 'test_command':
        for (const op of collect(node, (n) => n.type === 'test_operator')) {
          const text = this.source.slice(op.start, op.end);
          // `[ a -eq b ]` (the test builtin) wants plain integers; `[[ a -eq b ]]` evaluates arithmetic.
          const evaluates = node.children[0]?.type === '[[' ? ARITHMETIC_TEST_OPERATORS.has(text) : text === '-v' || text === '-R';
          if (evaluates) this.opaque(`${node.children[0]?.type ?? '[['} … ${text} … evaluates its operands as arithmetic or variable names`);
        }
        return;
      case 'compound_statement':
        if (node.children[0]?.type === '((') this.opaque('(( … )) arithmetic');
        return;
      case 'c_style_for_statement':
        this.opaque('for (( … )) arithmetic');
        return;
      case 'arithmetic_expansion':
        this.opaque('$(( … )) arithmetic expansion');
        return;
      case 'subscript': {
        const index = /\[([\s\S]*)\]$/.exec(this.source.slice(node.start, node.end))?.[1] ?? '';
        if (!/^\s*(?:\d+|@|\*)\s*$/.test(index)) this.opaque('a non-numeric array subscript (arithmetic)');
        return;
      }
      case 'expansion': {
        const text = this.source.slice(node.start, node.end);
        if (text.startsWith('${!')) this.opaque('${!…} indirect expansion');
        if (/@P\}$/.test(text)) this.opaque('${…@P} prompt expansion');
        const substring = /^\$\{#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*])(?:\[[^\]]*\])?:(?![-=?+])([\s\S]*)\}$/.exec(text);
        if (substring && /[^\s0-9:+-]/.test(substring[1]!)) this.opaque('${x:offset} with a non-numeric offset (arithmetic)');
        return;
      }
      case 'raw_string':
      case 'ansi_c_string':
      case 'word':
      case 'string': {
        if (!/[$`\\]/.test(this.source.slice(node.start, node.end))) return;
        if (node.type === 'string' && node.children.some((c) => c.type === 'command_substitution')) return;
        const { value } = wordValue(node, this.source);
        if (/\$\(|`/.test(value)) this.codeLikeStrings.push(value);
        return;
      }
      default:
        return;
    }
  }

  /** Records builtins that evaluate their arguments as arithmetic or take variable names that may be `a[…]`. */
  private noteEvaluatingCommand(words: readonly Word[]): void {
    const name = commandName(words[0]);
    if (name === undefined) return;
    const args = words.slice(1);
    const options = args.filter((w) => w.value.startsWith('-')).map((w) => w.value);
    const hasOption = (letter: string): boolean => options.some((o) => /^-[A-Za-z]+$/.test(o) && o.includes(letter));
    if (name === 'let') this.opaque('let evaluates arithmetic');
    else if ((name === 'declare' || name === 'typeset' || name === 'local') && (hasOption('i') || hasOption('n'))) this.opaque(`${name} -i/-n evaluates its values`);
    else if ((name === 'test' || name === '[') && options.some((o) => o === '-v' || o === '-R')) this.opaque(`${name} -v/-R evaluates a variable name`);
    else if (
      NAME_TAKING_BUILTINS.has(name) ||
      (name === 'printf' && options.some((o) => o.startsWith('-v'))) ||
      (name === 'wait' && hasOption('p'))
    ) {
      if (args.some((w) => !w.literal || w.value.includes('['))) this.opaque(`${name} with a computed or subscripted variable name`);
    }
  }

  private walkChildren(node: SyntaxNode, ctx: Context): void {
    for (const child of node.children) this.walk(child, ctx);
  }

  private text(node: SyntaxNode): string {
    return this.source.slice(node.start, node.end).trim();
  }

  /** The source of `node` with the given redirection nodes (those inside it) cut out. */
  private textWithout(node: SyntaxNode, redirects: readonly SyntaxNode[]): string {
    const pieces: string[] = [];
    let at = node.start;
    const inside = redirects.filter((r) => r.start >= node.start && r.end <= node.end).sort((a, b) => a.start - b.start);
    for (const r of inside) {
      if (r.start < at) continue;
      pieces.push(this.source.slice(at, r.start).trim());
      // `echo > f hi`: tree-sitter-bash hangs `hi` on the redirection; it is an argument: keep it.
      const destinations = r.type === 'file_redirect' ? r.children.filter((c) => c.field === 'destination') : [];
      at = destinations.length > 1 ? destinations[0]!.end : r.end;
    }
    pieces.push(this.source.slice(at, node.end).trim());
    return pieces.filter((p) => p !== '').join(' ');
  }

  private error(node: SyntaxNode, what: string): void {
    const near = node.start >= 0 ? this.source.slice(node.start, Math.min(node.end, node.start + 40)).replace(/\s+/g, ' ') : '';
    const at = node.start >= 0 ? ` at offset ${node.start}` : '';
    const where = this.depth > 0 ? ` in the nested command "${this.source.slice(0, 60)}"` : '';
    this.out.errors.push(`${what}${at}${near ? ` near "${near}"` : ''}${where}`);
  }

  private emit(segment: ShellSegment): void {
    if (this.out.segments.length >= MAX_SEGMENTS) {
      if (!this.out.truncated) this.out.errors.push(`more than ${MAX_SEGMENTS} commands; the rest were not analysed`);
      this.out.truncated = true;
      return;
    }
    this.out.segments.push(segment);
  }

  private word(node: SyntaxNode): Word {
    const { value, literal } = wordValue(node, this.source);
    return { value, literal, start: node.start, end: node.end };
  }

  /**
   * tree-sitter-bash accepts `--opt=v` or `a-b=1` as assignments; bash runs them as commands.
   * For such a statement, a `command` node made of the same words; otherwise undefined.
   */
  private assignmentsAsCommand(node: SyntaxNode): SyntaxNode | undefined {
    if (node.type !== 'variable_assignment' && node.type !== 'variable_assignments') return undefined;
    const assignments = node.type === 'variable_assignment' ? [node] : node.children.filter((c) => c.type === 'variable_assignment');
    if (assignments.every((a) => this.isAssignment(a))) return undefined;
    return { ...node, type: 'command', children: assignments };
  }

  /** A real assignment: NAME=… or NAME[…]=… with a valid name (tree-sitter-bash is more lenient). */
  private isAssignment(node: SyntaxNode): boolean {
    let name = node.children.find((c) => c.field === 'name');
    if (name?.type === 'subscript') name = name.children.find((c) => c.type === 'variable_name');
    return name !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(this.source.slice(name.start, name.end));
  }

  private assignment(node: SyntaxNode): string {
    const name = node.children.find((c) => c.field === 'name');
    const value = node.children.find((c) => c.field === 'value');
    const operator = node.children.find((c) => !c.named && (c.type === '=' || c.type === '+='));
    const left = name ? this.source.slice(name.start, name.end) : '';
    return `${left}${operator?.type ?? '='}${value ? wordValue(value, this.source).value : ''}`;
  }

  private redirectedStatement(node: SyntaxNode, ctx: Context): Stage | undefined {
    const body = node.children.find((c) => c.field === 'body');
    if (body && (body.type === 'pipeline' || body.type === 'list')) {
      // tree-sitter-bash hangs `a | b > f` and `a && b > f` on the whole pipeline or list; in
      // bash the redirection belongs to the last command only. Re-attach it there.
      const redirectNodes = node.children.filter((c) => c !== body);
      return this.walk(attachToLast(body, redirectNodes, node.end), ctx);
    }
    const asCommand = body && this.assignmentsAsCommand(body);
    if (asCommand || body?.type === 'command') {
      const stage = this.command(asCommand ?? body!, node, ctx);
      for (const child of node.children) if (child !== body) this.walk(child, { redirects: [], fn: ctx.fn });
      return stage;
    }
    const parsed = this.redirects(node.children.filter((c) => c.field === 'redirect' || c.type.endsWith('_redirect')));
    const before = this.out.segments.length;
    if (body) this.walk(body, { ...ctx, redirects: [...ctx.redirects, ...parsed.redirects] });
    if (this.out.segments.length === before || parsed.extraWords.length > 0) {
      // `> /dev/sda` alone, or a compound whose body ran no command: keep the redirections visible.
      this.emit({ argv: parsed.extraWords.map((w) => w.value), text: this.text(node), redirects: [...ctx.redirects, ...parsed.redirects], assignments: [] });
    }
    for (const child of node.children) if (child !== body) this.walk(child, { redirects: [], fn: ctx.fn });
    return undefined;
  }

  private redirects(nodes: SyntaxNode[]): { redirects: Redirect[]; extraWords: Word[]; stdin: string[] } {
    const result = { redirects: [] as Redirect[], extraWords: [] as Word[], stdin: [] as string[] };
    for (const node of nodes) this.redirect(node, result);
    return result;
  }

  private redirect(node: SyntaxNode, into: { redirects: Redirect[]; extraWords: Word[]; stdin: string[] }): void {
    if (node.type === 'file_redirect') {
      const op = node.children.find((c) => !c.named && c.field !== 'descriptor')?.type ?? '>';
      const destinations = node.children.filter((c) => c.field === 'destination');
      into.redirects.push({ op, target: destinations[0] ? wordValue(destinations[0], this.source).value : '' });
      // tree-sitter-bash attaches the words after a redirection target (`sudo >x rm -rf /`) to the
      // redirection; bash passes them to the command.
      for (const extra of destinations.slice(1)) into.extraWords.push(this.word(extra));
    } else if (node.type === 'heredoc_redirect') {
      const op = node.children.find((c) => !c.named && (c.type === '<<' || c.type === '<<-'))?.type ?? '<<';
      const start = node.children.find((c) => c.type === 'heredoc_start');
      into.redirects.push({ op, target: start ? this.source.slice(start.start, start.end).replace(/['"\\]/g, '') : '' });
      const body = node.children.find((c) => c.type === 'heredoc_body');
      if (body) into.stdin.push(this.source.slice(body.start, body.end));
      for (const nested of node.children) if (nested.type === 'file_redirect' || nested.type === 'herestring_redirect') this.redirect(nested, into);
    } else if (node.type === 'herestring_redirect') {
      const value = node.children.find((c) => c.named);
      const target = value ? wordValue(value, this.source).value : '';
      into.redirects.push({ op: '<<<', target });
      into.stdin.push(target);
    }
  }

  private command(cmd: SyntaxNode, outer: SyntaxNode | undefined, ctx: Context): Stage {
    const words: Word[] = [];
    const assignments: string[] = [];
    const redirectNodes: SyntaxNode[] = [];
    for (const child of cmd.children) {
      if (child.type === 'variable_assignment') {
        // Only leading, valid NAME=value words are assignments; bash runs `--opt=v` as a command.
        if (words.length === 0 && this.isAssignment(child)) assignments.push(this.assignment(child));
        else words.push({ value: this.assignment(child), literal: wordValue(child.children.find((c) => c.field === 'value') ?? child, this.source).literal, start: child.start, end: child.end });
      } else if (child.field === 'name' || child.field === 'argument') words.push(this.word(child));
      else if (child.type.endsWith('_redirect')) redirectNodes.push(child);
    }
    if (outer) for (const child of outer.children) if (child.field === 'redirect' || (child.type.endsWith('_redirect') && child.field !== 'body')) redirectNodes.push(child);
    const parsed = this.redirects(redirectNodes);
    words.push(...parsed.extraWords);
    const redirects = [...ctx.redirects, ...parsed.redirects];
    this.emit({ argv: words.map((w) => w.value), text: this.text(outer ?? cmd), redirects, assignments, textWithoutRedirects: this.textWithout(outer ?? cmd, redirectNodes) });
    this.recordCall(words, ctx);
    this.noteEvaluatingCommand(words);

    // Nested commands inside the words: $(…), `…`, <(…), ${x:-$(…)}, heredoc bodies.
    const nested: Context = { redirects: [], fn: ctx.fn };
    for (const child of cmd.children) {
      if (child.type === 'variable_assignment') this.walkChildren(child, nested);
      else this.walk(child, nested);
    }

    const stage = this.unwrap(words, assignments, redirects, ctx);
    if (stage.readsStdin) this.scripts.push(...parsed.stdin);
    return stage;
  }

  private declaration(node: SyntaxNode, ctx: Context): void {
    const argv: string[] = [];
    for (const child of node.children) {
      if (!child.named) {
        if (argv.length === 0) argv.push(child.type); // export / local / declare / readonly / typeset / unset
        continue;
      }
      argv.push(child.type === 'variable_assignment' ? this.assignment(child) : wordValue(child, this.source).value);
    }
    this.emit({ argv, text: this.text(node), redirects: [...ctx.redirects], assignments: [], textWithoutRedirects: this.text(node) });
    if (['declare', 'typeset', 'local'].includes(argv[0] ?? '') && argv.some((a) => /^-[A-Za-z]*[in][A-Za-z]*$/.test(a))) this.opaque(`${argv[0]} -i/-n evaluates its values`);
    const nested: Context = { redirects: [], fn: ctx.fn };
    for (const child of node.children) {
      if (child.type === 'variable_assignment') this.walkChildren(child, nested);
      else this.walk(child, nested);
    }
  }

  /** Adds the commands a wrapper runs as segments of their own, and queues shell source it runs. */
  private unwrap(words: Word[], assignments: string[], redirects: Redirect[], ctx: Context): Stage {
    let stage: Stage = { words, readsStdin: false };
    const queue = [{ words, assignments }];
    for (let guard = 0; queue.length > 0 && guard < 32; guard++) {
      const item = queue.shift()!;
      const result = unwrapCommand(item.words);
      this.scripts.push(...result.scripts);
      if (result.readsStdin) stage = { words: item.words, readsStdin: true };
      for (const inner of result.commands) {
        const first = inner.words[0]!;
        const last = inner.words[inner.words.length - 1]!;
        const merged = [...item.assignments, ...inner.assignments];
        const text = this.source.slice(first.start, last.end).trim();
        this.emit({ argv: inner.words.map((w) => w.value), text, redirects: [...redirects], assignments: merged, textWithoutRedirects: text });
        this.recordCall(inner.words, ctx);
        this.noteEvaluatingCommand(inner.words);
        queue.push({ words: inner.words, assignments: merged });
        stage = { words: inner.words, readsStdin: false };
        if (commandName(item.words[0]) === 'xargs') stage.xargs = { words: inner.words, text };
      }
    }
    return stage;
  }

  private recordCall(words: Word[], ctx: Context): void {
    if (!ctx.fn) return;
    const name = commandName(words[0]) ?? words[0]?.value;
    if (name !== undefined) ctx.fn.calls.push(name);
    if (name === 'coproc') ctx.fn.spawns = true;
  }

  private pipeline(node: SyntaxNode, ctx: Context): void {
    if (ctx.fn) ctx.fn.spawns = true;
    const stages: (Stage | undefined)[] = [];
    for (const child of node.children) {
      if (child.named) stages.push(this.walk(child, ctx));
      else this.walk(child, ctx);
    }
    // `echo 'rm -rf /' | sh`: what the shell runs is the echoed text; `echo / | xargs rm -rf`:
    // the echoed words become arguments (a segment whose text is the command plus those words).
    for (let i = 1; i < stages.length; i++) {
      const previous = stages[i - 1];
      const stage = stages[i];
      if (!previous || !stage) continue;
      const echoed = stage.readsStdin || stage.xargs ? echoedText(previous.words) : undefined;
      if (echoed === undefined) continue;
      if (stage.readsStdin) this.scripts.push(echoed);
      if (stage.xargs) {
        const inputs = echoed.split(/\s+/).filter((w) => w !== '').slice(0, 64);
        const argv = stage.xargs.words.map((w) => w.value);
        const replaced = argv.includes('{}') ? inputs.slice(0, 16).map((input) => argv.map((a) => (a === '{}' ? input : a))) : [[...argv, ...inputs]];
        for (const words of replaced) {
          const text = `${stage.xargs.text} ${inputs.join(' ')}`;
          this.emit({ argv: words, text, redirects: [], assignments: [], textWithoutRedirects: text });
        }
      }
    }
  }
}

/** `body` with `redirects` wrapped around its last command (through nested lists and pipelines). */
function attachToLast(body: SyntaxNode, redirects: SyntaxNode[], end: number): SyntaxNode {
  let lastIndex = -1;
  body.children.forEach((child, i) => {
    if (child.named && child.type !== 'comment') lastIndex = i;
  });
  if (lastIndex === -1) return body;
  const last = body.children[lastIndex]!;
  const replaced =
    last.type === 'pipeline' || last.type === 'list'
      ? attachToLast(last, redirects, end)
      : { type: 'redirected_statement', field: last.field, named: true, missing: false, start: firstStart(last), end, children: [{ ...last, field: 'body' }, ...redirects] };
  const children = [...body.children];
  children[lastIndex] = replaced;
  return { ...body, children };
}

function firstStart(node: SyntaxNode): number {
  if (node.start >= 0) return node.start;
  for (const child of node.children) {
    const start = firstStart(child);
    if (start >= 0) return start;
  }
  return -1;
}

/** The text `echo`/`printf` with literal operands writes, or undefined. */
function echoedText(words: Word[]): string | undefined {
  const name = commandName(words[0]);
  if ((name !== 'echo' && name !== 'printf') || !words.every((w) => w.literal)) return undefined;
  const args = words.slice(1).map((w) => w.value);
  if (name === 'echo') {
    let escapes = false;
    while (args.length > 0 && /^-[neE]+$/.test(args[0]!)) escapes ||= args.shift()!.includes('e');
    const text = args.join(' ');
    return escapes ? decodeAnsiC(text) : text;
  }
  const format = args.shift();
  if (format === undefined) return undefined;
  let text = decodeAnsiC(format).replace(/%[sbqd]/g, () => args.shift() ?? '');
  if (args.length > 0) text += ` ${args.join(' ')}`;
  return text;
}
