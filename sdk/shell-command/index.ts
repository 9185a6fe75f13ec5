/**
 * The shell parser shared by the permission layers (A10): splits a command line into every
 * simple command it would run, with a real bash grammar (tree-sitter-bash via web-tree-sitter),
 * so that a check applies to each segment of `a; b`, `a && b`, `a || b`, `a | b`, `a & b`,
 * `(a; b)`, `{ a; }`, `$(a)`, `` `a` `` (also inside "…" and assignments), `<(a)`, `>(a)`,
 * if/while/until/for/select/case bodies and function bodies — and, recursively, to the source
 * run by `sh|bash|zsh|dash|ksh… -c`, `eval`, `su -c`, `watch`, `env -S`, `alias x='…'`,
 * `trap '…' SIG`, `parallel … ::: …`, and a shell fed by a heredoc, a here-string or
 * `echo …|`/`printf …|` (opaque all the same: see wrappers.ts for shells); an alias's call site
 * runs the alias's value in place of its name, parsed as bash substitutes it (opaque: aliases.ts).
 * Wrappers (`sudo`, `doas`, `env`, `nice`, `nohup`, `timeout`, `time`, `command`, `builtin`,
 * `exec`, `stdbuf`, `ionice`, `setsid`, `xargs`, `chronic`, `firejail`, `busybox`, `find -exec`,
 * `fd -x`, …) keep their own segment and add the wrapped command as a segment too, found where the
 * program finds it (its options read as the program reads them: wrappers.ts); `echo a b | xargs
 * rm` adds `rm a b`.
 *
 * Fail closed: whatever the analysis cannot see through makes the command `opaque` (see
 * ParsedCommand.opaque) — callers never allow such a command by rule, but deny rules and the
 * blacklist still see every segment that could be found, including the source of `$(…)` and
 * `` `…` `` hidden in parameter expansions, unquoted heredoc bodies and nested backquotes, and
 * the shell strings of interpreter programs (`python3 -c "os.system('…')"`). A segment that runs
 * commands nothing shows — a shell reading a pipe, a file or process substitution on stdin, a
 * computed script or `-c` string, `git -c alias.x='!…'`, `make -f /dev/stdin`, a program the same
 * command line copied or wrote (hidden-runners.ts, written-files.ts), an editor, debugger or
 * `sed e` given commands (tool-runners.ts) — is marked `unknownCommands` as well: any deny rule
 * for the tool denies it. Tools that run a literal command from an option (`tar
 * --checkpoint-action=exec=…`, `ssh -o ProxyCommand=…`, `git rebase -x …`) have it parsed as a
 * script and are opaque; `cmake -E rm …` is the `rm` it performs.
 * Each segment records the directories it may run in after `cd`/`pushd` (`dirs`), so that
 * relative targets are resolved where the command runs, not where the command line starts.
 *
 * This folder is a library, not a plugin. A plain line (words, simple quotes, `|`, `&&`, `||`,
 * `;`, plain redirections: simple-syntax.ts) gets the tree tree-sitter would give it without the
 * parser; web-tree-sitter is imported at the first other line only (≈60 ms, then cached; in the
 * built CLI in a process of its own: parser-process.ts). Results are cached (LRU, 256) and frozen.
 * Callers must treat `parseError` conservatively: the segments are then best-effort.
 */
import path from 'node:path';
import { aliasDefinitions, enablesAliases, mentionsAliasTable, substituteAliases } from './aliases.js';
import { asBashReadsIt } from './bash-reading.js';
import { embeddedScripts, unescapeBackquoted } from './embedded.js';
import { evaluatedAssignment, evaluatedByBuiltin, type EvaluatedStrings } from './evaluating-builtins.js';
import { exportedEnvironment } from './exported-environment.js';
import { interpreterCall, shellStringsInCode } from './interpreters.js';
import { shellParser, type ParseShell } from './parser-process.js';
import { simpleSyntaxTree } from './simple-syntax.js';
import type { SyntaxNode } from './syntax-tree.js';
import { decodeAnsiC, maySplit, wordValue } from './words.js';
import { hiddenRunner } from './hidden-runners.js';
import { knownProgram, operandStarts } from './plain-programs.js';
import { commandName, isShell, unwrapCommand, type Word } from './wrappers.js';
import { renamedPrograms } from './written-files.js';
import { XARGS_INPUT, type ShellSegment } from './shell-shapes.js';

export type { ShellSegment } from './shell-shapes.js';

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
   * Also set for what the analysis cannot see through: a command substitution inside a parameter
   * expansion, a heredoc body with expansions, nested escaped backquotes, a substitution made
   * only of redirections (`$( > f)`, `$(< f)`), `eval`, interpreter program text (on the command
   * line or on stdin, `perl /dev/stdin`), and builtins or settings that evaluate a string as code
   * (a prompt variable, `mapfile -C`, `compgen -C`, a quoted `declare 'a[…]=1'`, `BASH_FUNC_…`:
   * evaluating-builtins.ts).
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

export { XARGS_INPUT } from './shell-shapes.js';

/** How deep `sh -c "sh -c '…'"` / `eval` nesting is followed before giving up (parse error). */
export const MAX_NESTING = 8;
/** Rewrites of one source as bash reads it (bash-reading.ts) before giving up (parse error). */
const MAX_REWRITES = 8;
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
export function analyzeShellCommand(command: string): Promise<ShellAnalysis> {
  return analyze(command, false);
}

async function analyze(command: string, background: boolean): Promise<ShellAnalysis> {
  const cached = cache.get(command);
  if (cached) {
    cache.delete(command); // refresh its place in the LRU order
    cache.set(command, cached);
    return cached;
  }
  const out = await analyzeWithTrees(command, background);
  for (const { segment, reason, unknown } of renamedPrograms(out.segments)) {
    if (unknown) segment.unknownCommands ??= reason;
    out.opaque.push(reason);
  }
  out.opaque.push(...unfollowedAliases(command, out.segments));
  const parsed: ParsedCommand = { segments: out.segments, hasFunctionDefinition: out.hasFunctionDefinition, raw: command };
  if (out.errors.length > 0) parsed.parseError = out.errors.join('; ');
  if (out.opaque.length > 0) parsed.opaque = [...new Set(out.opaque)].join('; ');
  const analysis = freezeAnalysis({ parsed, functions: out.functions });
  cache.set(command, analysis);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return analysis;
}

/**
 * The analysis asks for the tree of each script it finds (the command, then the sources of `sh -c`,
 * `eval`… inside it) synchronously, while the parser answers asynchronously (parser-process.ts). So
 * the analysis runs again with each round's new trees, until it asks for none it lacks: at most
 * once per nesting level, and once more when a round found aliases the earlier ones did not know
 * (every call site, wherever it stands, is then looked up). It is deterministic, so the last round is the analysis of the command
 * with every tree in place; what an earlier round found with a tree missing is dropped.
 */
async function analyzeWithTrees(command: string, background: boolean): Promise<Output> {
  let parseShell: ParseShell | undefined;
  const trees = new Map<string, SyntaxNode | Error>();
  // Aliases found by earlier rounds: a call site before the definition (in the text, or in a
  // script analysed earlier) is expanded too, so the rounds go on until no new alias turns up.
  const aliases = new Map<string, string[]>();
  let rounds = 0;
  for (;;) {
    const missing = new Set<string>();
    const known = aliasCount(aliases);
    const out: Output = { segments: [], errors: [], functions: [], hasFunctionDefinition: false, opaque: [], aliases };
    const parse = (source: string): SyntaxNode => {
      let tree = trees.get(source);
      if (tree instanceof Error) throw tree;
      if (tree) return tree;
      // A plain line's tree is built here, exactly as the parser would give it (simple-syntax.ts):
      // the parser's process is started only for a line that needs it.
      tree = simpleSyntaxTree(source);
      if (tree) {
        trees.set(source, tree);
        return tree;
      }
      missing.add(source);
      // A stand-in until the parser answers (this round's output is dropped): nothing to rewrite in it.
      return { type: 'program', field: null, named: true, missing: true, start: 0, end: source.length, children: [] };
    };
    analyzeSource(parse, { source: command, dirs: START }, 0, out);
    if (missing.size === 0 && aliasCount(aliases) === known) return out;
    if (++rounds > MAX_ROUNDS) {
      out.errors.push('aliases the analysis could not settle');
      return out;
    }
    if (missing.size === 0) continue;
    parseShell ??= await shellParser();
    const parseWith = parseShell;
    await Promise.all(
      [...missing].map(async (source) => {
        trees.set(source, await parseWith(source, background).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
      }),
    );
  }
}

function aliasCount(aliases: ReadonlyMap<string, readonly string[]>): number {
  let count = 0;
  for (const values of aliases.values()) count += values.length;
  return count;
}

/**
 * Aliases the analysis cannot follow (aliases.ts): `BASH_ALIASES` named anywhere, or a file
 * sourced where a command turns alias expansion on.
 */
function unfollowedAliases(command: string, segments: readonly ShellSegment[]): string[] {
  const reasons: string[] = [];
  if (mentionsAliasTable(command) || segments.some((s) => mentionsAliasTable(s.text) || s.argv.some(mentionsAliasTable) || s.assignments.some(mentionsAliasTable))) {
    reasons.push('BASH_ALIASES defines aliases of any name');
  }
  const sources = segments.some((s) => s.argv[0] === '.' || commandName({ value: s.argv[0] ?? '', literal: true, start: 0, end: 0 }) === 'source');
  if (sources && segments.some((s) => enablesAliases(s.argv, s.assignments))) reasons.push('a sourced file may define aliases where alias expansion is on');
  return reasons;
}

/** Rounds of analyzeWithTrees before giving up (parse error): one per nesting level, and per round that found new aliases. */
const MAX_ROUNDS = 4 * MAX_NESTING;

const CACHE_SIZE = 256;
const cache = new Map<string, ShellAnalysis>();

/** Cached results are shared between callers: freeze them so a mutation fails loudly. */
function freezeAnalysis(analysis: ShellAnalysis): ShellAnalysis {
  for (const segment of analysis.parsed.segments) {
    for (const redirect of segment.redirects) Object.freeze(redirect);
    Object.freeze(segment.argv);
    Object.freeze(segment.redirects);
    Object.freeze(segment.assignments);
    if (segment.dirs) Object.freeze(segment.dirs);
    if (segment.inlineCode) Object.freeze(segment.inlineCode);
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

/**
 * Warms the parser up: loads the WebAssembly and analyses one sample line, because V8 compiles a
 * WebAssembly function on its first call (the first parse otherwise pays for the grammar's lexer
 * and parser, tens of ms) and a JavaScript function too (the analysis of the tree): both would
 * otherwise happen inside the first permission check of a command. The analysis has no effect
 * beyond the cache entry of the sample line.
 */
export function loadShellParser(): Promise<ShellAnalysis> {
  return analyze(WARM_UP_COMMAND, true); // a run that ends meanwhile does not wait for it
}

/** Common shapes: a pipeline, a list, a redirection, quoting, a substitution, a compound command. */
export const WARM_UP_COMMAND = `cd src && ls -la "$HOME" | grep -v x > out.txt 2>&1; echo $(date) 'done' || for f in *.ts; do cat "$f"; done`;

interface Output {
  segments: ShellSegment[];
  errors: string[];
  functions: ShellFunction[];
  hasFunctionDefinition: boolean;
  /** Why the command is opaque (see ParsedCommand.opaque); empty when it is not. */
  opaque: string[];
  truncated?: boolean;
  /** Every alias the command defines, with each value it is given (aliases.ts). */
  aliases: Map<string, string[]>;
}

type Redirect = ShellSegment['redirects'][number];

interface RedirectsFound {
  redirects: Redirect[];
  extraWords: Word[];
  /** Text a heredoc or here-string gives the command on stdin. */
  stdin: string[];
  /** Some of that text is expanded at run time (an unquoted heredoc with `$`, `<<< "$x"`). */
  stdinComputed: boolean;
}

/** Shell source found inside a command, with the directories it starts in (null: unknown). */
interface Script {
  source: string;
  dirs: Dirs;
  /** The source is the value of these aliases: bash does not expand them again inside it. */
  expanding?: ReadonlySet<string>;
}

/** Possible working directories (see ShellSegment.dirs); null when unknown. */
type Dirs = readonly string[] | null;
const START: Dirs = ['.'];

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
  /** The shell's segment, marked when what arrives on stdin is unknown. */
  stdinSegment?: ShellSegment | undefined;
  /** Set once its stdin is known (a heredoc, here-string, redirection or pipe was seen). */
  fed?: boolean;
  /** An interpreter that reads its program from stdin: its segment gets the program text. */
  interpreterStdin?: { interpreter: string; segment: ShellSegment | undefined };
  /** `xargs cmd`: cmd gets what arrives on stdin as extra arguments (its segment ends with XARGS_INPUT until that is known). */
  xargs?: { words: Word[]; text: string; segment?: ShellSegment };
}

function analyzeSource(parse: (source: string) => SyntaxNode, script: Script, depth: number, out: Output): void {
  if (depth > MAX_NESTING) {
    out.errors.push(`commands nested more than ${MAX_NESTING} levels deep (sh -c / eval) were not analysed`);
    return;
  }
  let root: SyntaxNode;
  let source = script.source;
  try {
    root = parse(source);
    // Where tree-sitter-bash splits words or loses commands bash does not (bash-reading.ts), the
    // source as bash reads it is analysed instead.
    for (let round = 0; ; round++) {
      const rewritten = asBashReadsIt(source, root);
      if (rewritten === undefined) break;
      if (round >= MAX_REWRITES) {
        out.errors.push('line continuations or blanks the analysis could not settle');
        return;
      }
      source = rewritten;
      root = parse(source);
    }
  } catch (error) {
    out.errors.push(`the shell parser failed: ${(error as Error).message}`);
    return;
  }
  const walker = new Walker(source, depth, out, script.dirs, script.expanding ?? NOT_EXPANDING);
  walker.walk(root, { redirects: [], fn: undefined });
  walker.finish();
  // In an opaque command, a literal string such as 'a[$(cmd)]' may be run as code: parse it too.
  // (After `: `, so that `a[$(cmd)]` is read as a word, not as a broken array assignment.)
  if (out.opaque.length > 0) walker.scripts.push(...walker.codeLikeStrings.map((s) => ({ source: `: ${s}`, dirs: null })));
  for (const nested of walker.scripts) analyzeSource(parse, nested, depth + 1, out);
}

const NOT_EXPANDING: ReadonlySet<string> = new Set();

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
  readonly scripts: Script[] = [];
  /** Literal strings (quoted or escaped) whose value contains `$(` or a backquote. */
  readonly codeLikeStrings: string[] = [];
  /** Shells reading stdin with nothing known feeding it yet (a pipeline stage may still be fed). */
  private readonly stdinReaders: Stage[] = [];
  private level = 0;
  private tooDeep = false;
  /** Where the next command may run (see ShellSegment.dirs). */
  private dirs: Dirs;
  /** Set by a `cd` to where it goes when it succeeds (for `cd x && …`); cleared by other commands. */
  private afterCd: Dirs | undefined;
  /** Inside a loop body: a `cd` there may repeat, so it makes the directory unknown. */
  private loops = 0;
  /** `CDPATH` changes where `cd name` goes. */
  private readonly cdpath: boolean;

  constructor(
    private readonly source: string,
    private readonly depth: number,
    private readonly out: Output,
    dirs: Dirs,
    private readonly expanding: ReadonlySet<string>,
  ) {
    this.dirs = dirs;
    this.cdpath = /CDPATH/.test(source);
  }

  private queue(source: string, dirs: Dirs = this.dirs): void {
    if (source.trim() !== '') this.scripts.push({ source, dirs });
  }

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
        this.loops++;
        for (const child of node.children) {
          if (child.type === 'variable_assignment') this.walkChildren(child, ctx);
          else this.walk(child, ctx);
        }
        this.loops--;
        return undefined;
      case 'while_statement':
      case 'for_statement':
        this.loops++;
        this.walkChildren(node, ctx);
        this.loops--;
        return undefined;
      case 'list':
        this.list(node, ctx);
        return undefined;
      case 'command_substitution':
        this.commandSubstitution(node, ctx);
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

  /** The segment runs commands nothing shows (see ShellSegment.unknownCommands). */
  private hidden(segment: ShellSegment | undefined, reason: string): void {
    this.opaque(reason);
    if (segment) segment.unknownCommands ??= reason;
  }

  /** After the walk: a shell whose stdin nothing fed reads the caller's stdin, unknown. */
  finish(): void {
    for (const stage of this.stdinReaders) if (!stage.fed) this.hidden(stage.stdinSegment, 'a shell reading its script from stdin');
  }

  /**
   * A shell (or `source /dev/stdin`) runs what arrives on stdin: opaque in any case (the rule is
   * that only a literal `-c` string or script file is analysed as is); a literal heredoc or
   * here-string is still parsed, so deny rules see it; a file, process substitution or expanded
   * heredoc is unknown; a pipe is judged by the pipeline, anything else at the end (finish).
   */
  private shellStdin(stage: Stage, stdin: { stdin: string[]; stdinComputed: boolean }, redirects: readonly Redirect[]): void {
    this.opaque('a shell reading its script from stdin');
    if (stdin.stdin.length > 0) {
      for (const script of stdin.stdin) this.queue(script);
      if (stdin.stdinComputed) this.hidden(stage.stdinSegment, 'a shell reading a script with expansions from stdin');
      stage.fed = true;
    } else if (redirects.some((r) => r.op === '<' || r.op === '<>' || r.op === '<&')) {
      this.hidden(stage.stdinSegment, 'a shell reading its script from a file or process substitution on stdin');
      stage.fed = true;
    } else this.stdinReaders.push(stage);
  }

  /** Records (in out.opaque) a construct in which bash may evaluate a string as arithmetic or a prompt. */
  private noteEvaluatingConstruct(node: SyntaxNode): void {
    switch (node.type) {
      case 'test_command': {
        const double = node.children[0]?.type === '[[';
        for (const expression of collect(node, (n) => n.type === 'binary_expression' || n.type === 'unary_expression')) {
          const op = expression.children.find((c) => c.type === 'test_operator');
          if (!op) continue;
          const text = this.source.slice(op.start, op.end);
          // `[ a -eq b ]` (the test builtin) wants plain integers; `[[ a -eq b ]]` evaluates arithmetic.
          const evaluates = double ? ARITHMETIC_TEST_OPERATORS.has(text) : text === '-v' || text === '-R';
          if (!evaluates) continue;
          // `[[ $# -eq 0 ]]`: integer constants and `$#`/`$?` evaluate no string.
          const operands = expression.children.filter((c) => c !== op && c.named && c.start >= 0);
          const plain = text !== '-v' && text !== '-R' && operands.every((c) => plainArithmetic(this.source.slice(c.start, c.end).replace(/^"([\s\S]*)"$/, '$1')));
          if (!plain) this.opaque(`${node.children[0]?.type ?? '[['} … ${text} … evaluates its operands as arithmetic or variable names`);
        }
        return;
      }
      case 'compound_statement':
        if (node.children[0]?.type === '((' && !plainArithmetic(this.arithmeticText(node))) this.opaque('(( … )) arithmetic');
        return;
      case 'c_style_for_statement': {
        const header = this.arithmeticText(node);
        if (!plainArithmetic(header, numericInits(header, this.source))) this.opaque('for (( … )) arithmetic');
        return;
      }
      case 'arithmetic_expansion':
        if (!plainArithmetic(this.arithmeticText(node))) this.opaque('$(( … )) arithmetic expansion');
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
        if (/\$\(|`/.test(text)) {
          // tree-sitter-bash reads `${x:-`cmd`}` as text: find what it would run.
          this.opaque('a command substitution inside a parameter expansion');
          for (const script of embeddedScripts(text.slice(2, -1), { backquotesOnly: true })) this.queue(script);
        }
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
  private noteEvaluatingCommand(words: readonly Word[], segment: ShellSegment | undefined): void {
    const name = commandName(words[0]);
    if (name === undefined) return;
    this.noteEvaluated(evaluatedByBuiltin(name, words), segment);
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

  /**
   * The arithmetic text of `$((…))`, `((…))` or a `for ((…))` header: from its first to its last
   * named child before a loop body (tokens carry no position). `''` when there is none.
   */
  private arithmeticText(node: SyntaxNode): string {
    const parts = node.children.filter((c) => c.named && c.start >= 0 && c.type !== 'do_group' && c.type !== 'compound_statement' && c.type !== 'comment');
    if (parts.length === 0) return '';
    return this.source.slice(parts[0]!.start, parts[parts.length - 1]!.end);
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

  private emit(segment: ShellSegment): ShellSegment | undefined {
    if (this.out.segments.length >= MAX_SEGMENTS) {
      if (!this.out.truncated) this.out.errors.push(`more than ${MAX_SEGMENTS} commands; the rest were not analysed`);
      this.out.truncated = true;
      return undefined;
    }
    if (this.dirs === null) segment.dirs = null;
    else if (this.dirs.length !== 1 || this.dirs[0] !== '.') segment.dirs = [...this.dirs];
    this.out.segments.push(segment);
    if (segment.assignments.length > 0) {
      // `PS4='$(cmd)'`, `env`'s `BASH_FUNC_f%%=…`: values bash evaluates as code.
      const evaluated: EvaluatedStrings = { opaque: [], scripts: [] };
      for (const assignment of segment.assignments) evaluatedAssignment(assignment, evaluated);
      this.noteEvaluated(evaluated, segment);
      // A statement of assignments only: the values stay for the commands after it.
      if (segment.argv.length === 0) this.noteEvaluated(exportedEnvironment(segment.assignments), segment);
    }
    return segment;
  }

  /** Records what evaluating-builtins.ts found: opaque reasons, scripts to parse, hidden code. */
  private noteEvaluated(evaluated: EvaluatedStrings, segment: ShellSegment | undefined): void {
    for (const reason of evaluated.opaque) this.opaque(reason);
    for (const script of evaluated.scripts) this.queue(script);
    if (evaluated.unknown !== undefined) this.hidden(segment, evaluated.unknown);
  }

  /** `a && b`: when `a` ends with a `cd`, `b` runs only where that `cd` went. */
  private list(node: SyntaxNode, ctx: Context): void {
    const operator = node.children.find((c) => !c.named)?.type;
    let afterLeft = false;
    for (const child of node.children) {
      if (!child.named) {
        this.walk(child, ctx);
        continue;
      }
      if (afterLeft && operator === '&&' && this.afterCd !== undefined) {
        const either = this.dirs;
        this.dirs = this.afterCd;
        this.walk(child, ctx);
        this.dirs = either === null || this.dirs === null ? null : unique([...either, ...this.dirs]);
      } else {
        this.afterCd = undefined;
        this.walk(child, ctx);
      }
      afterLeft = true;
    }
  }

  /** Follows `cd`/`pushd`/`popd` (see ShellSegment.dirs). */
  private changeDirectory(words: readonly Word[], ctx: Context): void {
    const name = commandName(words[0]);
    if (name !== 'cd' && name !== 'pushd' && name !== 'popd') {
      this.afterCd = undefined;
      return;
    }
    const operands = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value) && w.value !== '--');
    const operand = operands[0];
    const target = name === 'popd' ? undefined : operand === undefined ? '~' : operand.literal && !/^[-+]/.test(operand.value) ? operand.value : undefined;
    if (target === undefined || this.dirs === null || ctx.fn || this.loops > 0 || this.cdpath) {
      this.dirs = null;
      this.afterCd = null;
      return;
    }
    const went = unique(this.dirs.map((dir) => joinDirectory(dir, target)));
    this.afterCd = went;
    this.dirs = unique([...this.dirs, ...went]); // the cd may fail: the old directory stays possible
  }

  /** `$(…)` / `` `…` ``: walked; a substitution made only of redirections, or nested escaped backquotes, is opaque. */
  private commandSubstitution(node: SyntaxNode, ctx: Context): void {
    const inner = node.children.filter((c) => c.named);
    if (inner.length > 0 && inner.every((c) => c.type.endsWith('_redirect'))) {
      // `$( > f)` truncates f, `$(< f)` reads it: bash does this without a command.
      this.opaque('a command substitution made only of redirections');
      this.emit({ argv: [], text: this.text(node), redirects: this.redirects(inner).redirects, assignments: [] });
    }
    const text = this.source.slice(node.start, node.end);
    if (text.startsWith('`') && text.includes('\\`')) {
      // tree-sitter-bash reads nested escaped backquotes as text: run the unescaped source too.
      this.opaque('nested escaped backquotes');
      this.queue(unescapeBackquoted(text.slice(1, text.endsWith('`') ? -1 : undefined)));
    }
    this.walkChildren(node, { redirects: [], fn: ctx.fn });
  }

  /** Interpreter program text: kept on the segment, opaque, its shell strings parsed as commands. */
  private interpreterCode(segment: ShellSegment | undefined, interpreter: string, code: string): void {
    this.opaque(`${interpreter} program text`);
    if (segment) segment.inlineCode = { interpreter, code };
    const dirs = /chdir|\bcd\b/.test(code) ? null : this.dirs;
    for (const script of shellStringsInCode(code)) this.queue(script, dirs);
  }

  private word(node: SyntaxNode): Word {
    const { value, literal } = wordValue(node, this.source);
    return { value, literal, start: node.start, end: node.end, ...(maySplit(node, this.source) ? { split: true } : {}) };
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

  private redirects(nodes: SyntaxNode[]): RedirectsFound {
    const result: RedirectsFound = { redirects: [], extraWords: [], stdin: [], stdinComputed: false };
    for (const node of nodes) this.redirect(node, result);
    return result;
  }

  private redirect(node: SyntaxNode, into: RedirectsFound): void {
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
      if (body) {
        const text = this.source.slice(body.start, body.end);
        into.stdin.push(text);
        const quoted = start !== undefined && /['"\\]/.test(this.source.slice(start.start, start.end));
        if (!quoted && /[$`]/.test(text)) {
          // An unquoted delimiter: the body is expanded, and tree-sitter-bash leaves backquotes as text.
          this.opaque('a heredoc body with expansions');
          into.stdinComputed = true;
          for (const script of embeddedScripts(text, { backquotesOnly: true })) this.queue(script);
        }
      }
      for (const nested of node.children) if (nested.type === 'file_redirect' || nested.type === 'herestring_redirect') this.redirect(nested, into);
    } else if (node.type === 'herestring_redirect') {
      const value = node.children.find((c) => c.named);
      const word = value ? wordValue(value, this.source) : { value: '', literal: true };
      into.redirects.push({ op: '<<<', target: word.value });
      into.stdin.push(word.value);
      if (!word.literal) into.stdinComputed = true;
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
        else words.push({ value: this.assignment(child), literal: wordValue(child.children.find((c) => c.field === 'value') ?? child, this.source).literal, start: child.start, end: child.end, ...(maySplit(child, this.source) ? { split: true } : {}) });
      } else if (child.field === 'name' || child.field === 'argument') words.push(this.word(child));
      else if (child.type.endsWith('_redirect')) redirectNodes.push(child);
    }
    if (outer) for (const child of outer.children) if (child.field === 'redirect' || (child.type.endsWith('_redirect') && child.field !== 'body')) redirectNodes.push(child);
    // tree-sitter-bash reads `bash 0< f` as the word `0` and `< f`; bash reads a descriptor.
    for (let i = words.length - 1; i > 0; i--) {
      const w = words[i]!;
      if (w.literal && /^\d+$/.test(w.value) && redirectNodes.some((r) => r.start === w.end)) words.splice(i, 1);
    }
    const parsed = this.redirects(redirectNodes);
    words.push(...parsed.extraWords);
    const redirects = [...ctx.redirects, ...parsed.redirects];
    const segment = this.emit({ argv: words.map((w) => w.value), text: this.text(outer ?? cmd), redirects, assignments, textWithoutRedirects: this.textWithout(outer ?? cmd, redirectNodes) });
    this.recordCall(words, ctx);
    this.noteEvaluatingCommand(words, segment);
    this.aliasCallSite(words, cmd);

    // Nested commands inside the words: $(…), `…`, <(…), ${x:-$(…)}, heredoc bodies.
    const nested: Context = { redirects: [], fn: ctx.fn };
    for (const child of cmd.children) {
      if (child.type === 'variable_assignment') this.walkChildren(child, nested);
      else this.walk(child, nested);
    }

    const stage = this.unwrap(words, assignments, redirects, ctx, segment);
    if (stage.readsStdin) this.shellStdin(stage, parsed, redirects);
    if (stage.xargs && parsed.stdin.length > 0) this.xargsInput(stage.xargs, parsed.stdin.join('\n'));
    if (stage.interpreterStdin && parsed.stdin.length > 0) {
      this.interpreterCode(stage.interpreterStdin.segment, stage.interpreterStdin.interpreter, parsed.stdin.join('\n'));
      stage.interpreterStdin = undefined;
    }
    this.changeDirectory(stage.words, ctx);
    return stage;
  }

  private declaration(node: SyntaxNode, ctx: Context): void {
    const argv: string[] = [];
    const words: Word[] = [];
    for (const child of node.children) {
      if (!child.named) {
        if (argv.length === 0) {
          argv.push(child.type); // export / local / declare / readonly / typeset / unset
          words.push({ value: child.type, literal: true, start: child.start, end: child.end });
        }
        continue;
      }
      argv.push(child.type === 'variable_assignment' ? this.assignment(child) : wordValue(child, this.source).value);
      if (child.type !== 'variable_assignment') words.push(this.word(child));
    }
    const segment = this.emit({ argv, text: this.text(node), redirects: [...ctx.redirects], assignments: [], textWithoutRedirects: this.text(node) });
    // Quoted operands (`declare 'a[$(cmd)]=1'`) are words; `NAME=value` operands are assignments.
    this.noteEvaluatingCommand(words, segment);
    const evaluated: EvaluatedStrings = { opaque: [], scripts: [] };
    for (const child of node.children) if (child.type === 'variable_assignment') evaluatedAssignment(this.assignment(child), evaluated);
    this.noteEvaluated(evaluated, segment);
    this.noteEvaluated(exportedEnvironment(argv.slice(1).filter((a) => !a.startsWith('-') && a.includes('='))), segment);
    if (['declare', 'typeset', 'local'].includes(argv[0] ?? '') && argv.some((a) => /^-[A-Za-z]*[in][A-Za-z]*$/.test(a))) this.opaque(`${argv[0]} -i/-n evaluates its values`);
    const nested: Context = { redirects: [], fn: ctx.fn };
    for (const child of node.children) {
      if (child.type === 'variable_assignment') this.walkChildren(child, nested);
      else this.walk(child, nested);
    }
  }

  /** Adds the commands a wrapper runs as segments of their own, and queues shell source it runs. */
  private unwrap(words: Word[], assignments: string[], redirects: Redirect[], ctx: Context, segment: ShellSegment | undefined): Stage {
    let stage: Stage = { words, readsStdin: false };
    const queue = [{ words, assignments, segment }];
    for (let guard = 0; queue.length > 0 && guard < 32; guard++) {
      const item = queue.shift()!;
      const result = unwrapCommand(item.words, item.assignments);
      const name = commandName(item.words[0]);
      if (name === 'eval') this.opaque('eval');
      if (result.opaque) this.opaque(result.opaque);
      if (result.unknown) this.hidden(item.segment, result.unknown);
      if (result.equivalent !== undefined && item.segment) item.segment.equivalent = result.equivalent;
      const runner = hiddenRunner(item.words, item.assignments);
      if (runner) this.hidden(item.segment, runner);
      if (item.segment && name !== undefined && (result.mayRunOperands || !knownProgram(name, item.words[0]!.value))) {
        // A program the analysis does not know (or reads loosely) may run a later word: plain-programs.ts.
        const starts = operandStarts(item.segment.argv.map((a) => (a === XARGS_INPUT ? '' : a)));
        if (starts.length > 0) item.segment.mayRunOperands = starts;
      }
      if (name === 'alias') this.defineAliases(item.words);
      // trap and alias bodies run later, wherever the shell is then.
      for (const script of result.scripts) this.queue(script, name === 'trap' || name === 'alias' ? null : this.dirs);
      const xargsFed = item.segment?.argv.includes(XARGS_INPUT) ?? false;
      if (xargsFed && name !== undefined && (isShell(name) || name === 'source' || name === '.') && result.scripts.length === 0) {
        // `… | xargs sh`: xargs appends the input as script files (its stdin is /dev/null).
        this.hidden(item.segment, 'a shell running script files named by xargs input');
      } else if (result.readsStdin) stage = { words: item.words, readsStdin: true, stdinSegment: item.segment };
      const interpreter = interpreterCall(item.words);
      if (interpreter?.opaque !== undefined) this.opaque(interpreter.opaque);
      if (interpreter?.unknown !== undefined) this.hidden(item.segment, interpreter.unknown);
      if (interpreter?.code !== undefined) this.interpreterCode(item.segment, interpreter.interpreter, interpreter.code);
      else if (interpreter?.readsStdin) stage = { words: item.words, readsStdin: false, interpreterStdin: { interpreter: interpreter.interpreter, segment: item.segment } };
      for (const inner of result.commands) {
        const first = inner.words[0]!;
        const last = inner.words[inner.words.length - 1]!;
        const merged = [...item.assignments, ...inner.assignments];
        const text = this.source.slice(first.start, last.end).trim();
        const innerSegment = this.emit({ argv: inner.words.map((w) => w.value), text, redirects: [...redirects], assignments: merged, textWithoutRedirects: text });
        const runner = result.mayRunOperands && item.segment ? this.out.segments.indexOf(item.segment) : -1;
        if (innerSegment && runner !== -1) innerSegment.ranBy = runner;
        this.recordCall(inner.words, ctx);
        this.noteEvaluatingCommand(inner.words, innerSegment);
        queue.push({ words: inner.words, assignments: merged, segment: innerSegment });
        stage = { words: inner.words, readsStdin: false };
        if (commandName(item.words[0]) === 'xargs') {
          // What xargs appends is unknown until a literal `echo … |`, heredoc or here-string shows it.
          if (innerSegment) {
            const replaces = innerSegment.argv.includes('{}');
            if (replaces) innerSegment.argv.splice(0, innerSegment.argv.length, ...innerSegment.argv.map((a) => (a === '{}' ? XARGS_INPUT : a)));
            else innerSegment.argv.push(XARGS_INPUT);
          }
          stage.xargs = { words: inner.words, text, ...(innerSegment ? { segment: innerSegment } : {}) };
        }
      }
    }
    return stage;
  }

  /** `alias NAME=VALUE …`: the table every call site is looked up in (aliases.ts). */
  private defineAliases(words: Word[]): void {
    const found = aliasDefinitions(words);
    if (found.unknown !== undefined) this.opaque(found.unknown);
    for (const [name, value] of found.defined) {
      const values = this.out.aliases.get(name);
      if (!values) this.out.aliases.set(name, [value]);
      else if (!values.includes(value)) values.push(value);
    }
  }

  /**
   * A command whose word at command position names an alias runs the alias's value: that source
   * is analysed where the command runs, and the command is opaque (bash substitutes text, and
   * whether expansion is on is not followed).
   */
  private aliasCallSite(words: Word[], cmd: SyntaxNode): void {
    if (this.out.aliases.size === 0 || words.length === 0) return;
    const used = new Set<string>();
    const end = cmd.end >= 0 ? cmd.end : words[words.length - 1]!.end;
    const variants = substituteAliases(words, this.source, end, this.out.aliases, this.expanding, used);
    if (variants.length === 0) return;
    this.opaque(`the alias ${[...used].join(', ')} runs its value in place of the name`);
    const expanding = new Set([...this.expanding, ...used]);
    for (const source of variants) if (source.trim() !== '') this.scripts.push({ source, dirs: this.dirs, expanding });
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
      if (stage.interpreterStdin) {
        const program = echoedText(previous.words);
        if (program === undefined) this.opaque('an interpreter reading its program from a pipe');
        else this.interpreterCode(stage.interpreterStdin.segment, stage.interpreterStdin.interpreter, program);
        continue;
      }
      const echoed = stage.readsStdin || stage.xargs ? echoedText(previous.words) : undefined;
      if (stage.readsStdin && !stage.fed) {
        stage.fed = true;
        if (echoed === undefined) this.hidden(stage.stdinSegment, 'a shell reading its script from a pipe');
      }
      if (echoed === undefined) continue;
      if (stage.readsStdin) this.queue(echoed);
      if (stage.xargs) this.xargsInput(stage.xargs, echoed);
    }
  }

  /** `echo a b | xargs rm`, `xargs rm <<< a`: the command with the words it gets, as a segment. */
  private xargsInput(xargs: NonNullable<Stage['xargs']>, input: string): void {
    if (xargs.segment) xargs.segment.argv.splice(0, xargs.segment.argv.length, ...xargs.words.map((w) => w.value));
    const inputs = input.split(/\s+/).filter((w) => w !== '').slice(0, 64);
    const argv = xargs.words.map((w) => w.value);
    const replaced = argv.includes('{}') ? inputs.slice(0, 16).map((one) => argv.map((a) => (a === '{}' ? one : a))) : [[...argv, ...inputs]];
    for (const words of replaced) {
      const text = `${xargs.text} ${inputs.join(' ')}`;
      this.emit({ argv: words, text, redirects: [], assignments: [], textWithoutRedirects: text });
    }
  }
}

/** Special parameters that always expand to a number. */
const NUMERIC_SPECIALS = /\$(?:#|\?|\$|!)/g;
/** Integer constants: `42`, `0x1f`, `8#17`, `64#Zz@_`. */
const INTEGER_CONSTANTS = /\b\d+#[A-Za-z0-9@_]+|\b0[xX][0-9a-fA-F]+|\b\d+/g;

/**
 * Arithmetic that cannot evaluate a string: only integer constants, operators and the variables
 * in `assigned` (set to a number earlier in the same construct) — `$((1 + 2))`, `((3 > 2))`,
 * `for ((i = 0; i < 3; i++))`. Any other name, expansion or subscript is read at run time, and
 * bash evaluates the value of a variable as arithmetic too (`x='a[$(cmd)]'; echo $((x))`).
 */
function plainArithmetic(text: string, assigned: ReadonlySet<string> = new Set()): boolean {
  const rest = text.replace(NUMERIC_SPECIALS, '0').replace(INTEGER_CONSTANTS, '0');
  if (/[$`[\]\\'"]/.test(rest)) return false;
  return (rest.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).every((name) => assigned.has(name));
}

/**
 * Names a `for ((…))` header's first clause sets to an integer constant (`i = 0, j = 10`) and
 * nothing else in the command line assigns (a body's `i='a[$(cmd)]'` would be evaluated by the
 * loop's test); none when the line has a builtin that may assign any name.
 */
function numericInits(header: string, source: string): Set<string> {
  const names = new Set<string>();
  if (/\b(?:read|mapfile|readarray|printf|declare|typeset|local|export|readonly|eval|source|let|unset|getopts|wait)\b|(?:^|[\s;&|(])\.\s/.test(source)) return names;
  const init = header.split(';')[0] ?? '';
  for (const part of init.split(',')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*-?\d+\s*$/.exec(part);
    if (!match) continue;
    const assignments = source.match(new RegExp(`(?:^|[^A-Za-z0-9_])${match[1]!}\\s*\\+?=(?!=)`, 'g')) ?? [];
    if (assignments.length === 1) names.add(match[1]!);
  }
  return names;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** Where `cd target` goes from `dir` (both as in ShellSegment.dirs). */
function joinDirectory(dir: string, target: string): string {
  if (target.startsWith('/') || target === '~' || target.startsWith('~/') || /^~[^/]/.test(target)) return path.posix.normalize(target);
  const joined = path.posix.normalize(`${dir}/${target}`);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
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
