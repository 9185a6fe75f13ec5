/**
 * The rules layer's decision for one call (A1, A5, A10).
 *
 * Each subject is decided by kind first, across every layer: a matching deny rule of any layer
 * (managed, session, local, project, user) denies; otherwise a matching ask rule of any layer
 * asks; otherwise a matching allow rule allows. Claude Code's order (deny → ask → allow, whatever
 * the source). The layer order (managed > session > local > project > user) only chooses which
 * rule is named when several of the same kind match. So no layer lifts another layer's deny or
 * ask: a project's (or the local file's) ask cannot turn the user's deny into a question, a
 * project's or local allow cannot lift the user's deny or ask, `--allowedTools` and "allow for
 * this session" / "allow always" answers lift no deny or ask rule, and the project's deny and ask
 * rules really only take permissions away. A call can have several subjects ("units"):
 * - a path call: the normalised absolute path and, when different, its symlink-resolved real
 *   path (so a link to `.env` is still `.env` for a deny rule);
 * - a command call: every segment of the parsed command line, plus the whole line;
 * - anything else: the tool name (MCP tools: `mcp__server__tool`).
 * Combination: a deny on any unit denies; otherwise an ask on any unit asks; otherwise the call
 * is allowed only if every segment (or path) is allowed — some unit with no matching rule
 * leaves the whole call undecided for the mode layer. A command line is also allowed by an
 * exact rule (`=…`, or a glob without `*`) naming the whole line — what "allow always" writes
 * for a compound command. A command that cannot be parsed, or defines shell functions, is never
 * allowed by a rule (nor is an "opaque" one: see the shell parser); deny and ask rules still apply
 * to its text and its best-effort segments. Allow rules ignore a segment's redirections but allow it
 * only when its writing redirections stay inside the project (or go to /dev/null, a descriptor…),
 * judged from every directory the segment may run in (after `cd`; the bash call's `workdir`).
 * Deny and ask rules see a command however it is spelled (`/bin/rm`, `\rm`, `"r""m"`, wrapped);
 * when a word after the name is computed, or a git alias renames the subcommand (`git $(echo push)`,
 * `G=push; git $G`, `git {push,x}`, `git -c alias.xx=push xx`, `rm -rf $X`), a deny (ask) rule whose
 * words agree up to that word denies (asks): computed-words.ts;
 * when a segment's command name is computed at run time (`$a -rf x`, `${x:-rm}`, `rm${IFS}x`),
 * or the segment runs commands the parser cannot see at all (`curl … | sh`, `bash "$f"`,
 * `source <(…)`, `git -c alias.x='!…'`, `./r` after `cp /bin/rm r`: ShellSegment.unknownCommands),
 * any deny rule for the tool denies it (and any ask rule asks): it cannot be checked.
 */
import path from 'node:path';
import { expandHome, isWithin, resolveRealSync } from '../../sdk/path-containment.js';
import type { PermissionDecision, PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { allowTextOf, looksThrough } from './allow-wrappers.js';
import { ruleForms } from './command-forms.js';
import { mayMatchAt, unknownWords } from './computed-words.js';
import { computedWord } from './global-options.js';
import { RULE_LISTS, type RuleList } from './rule-syntax.js';
import { SCOPES, ownedByUser, type CompiledRule, type RuleLayer, type Scope, type ToolFacts } from './rule-set.js';

/** The shell-command plugin's parse result (structural, so this file does not depend on its loading). */
export interface ShellSegmentLike {
  argv: string[];
  text: string;
  redirects: { op: string; target: string }[];
  assignments: string[];
  /** The text without the redirections written in it; `text` when absent. */
  textWithoutRedirects?: string;
  /** Directories it may run in, relative to the start (absent: the start only; null: unknown). */
  dirs?: readonly string[] | null;
  /** Program text handed to an interpreter. */
  inlineCode?: { interpreter: string; code: string };
  /** Why the segment runs commands the parser cannot see (no rule can be matched against them). */
  unknownCommands?: string;
  /** The same operation as another command (`find x -delete` ≈ `rm x`), for deny and ask rules. */
  equivalent?: string;
}
export interface ParsedCommandLike {
  segments: ShellSegmentLike[];
  parseError?: string;
  /** The command may evaluate strings as code (arithmetic, prompt expansion): treated like parseError. */
  opaque?: string;
  hasFunctionDefinition: boolean;
  raw: string;
}
export type CommandParser = (command: string) => Promise<ParsedCommandLike>;

export const LAYER_NAME = 'permission-rules';

interface Unit {
  /** For messages: the segment, path or tool name. */
  label: string;
  matches(rule: CompiledRule, list: RuleList): boolean;
}

interface UnitDecision {
  decision: PermissionDecision;
  rule: CompiledRule;
  unit: Unit;
}

export interface EngineContext {
  homeDir: string;
  parseCommand: CommandParser;
}

export class RulesEngine {
  /** Highest precedence first. */
  constructor(readonly layers: readonly RuleLayer[]) {}

  layer(scope: Scope): RuleLayer {
    const found = this.layers.find((l) => l.scope === scope);
    if (!found) throw new Error(`internal: no ${scope} layer`);
    return found;
  }

  async check(request: PermissionRequest, context: EngineContext): Promise<PermissionVerdict | undefined> {
    const facts: ToolFacts = { toolName: request.toolName, category: request.category, targetKind: request.target.kind };
    const applicable = this.applicable(facts);
    if (!applicable) return undefined;
    const target = request.target;
    if (target.kind === 'path') return this.decidePath(applicable, target.path, request.projectRoot, context.homeDir);
    if (target.kind === 'command') return this.decideCommand(applicable, target.command, context.parseCommand, request.projectRoot, context.homeDir, startDirectory(request));
    const name: Unit = { label: request.toolName, matches: (rule) => rule.matchesName(request.toolName) };
    return combine([evaluate(applicable, name)], { allowed: true });
  }

  /**
   * For one search by a search tool (glob, grep): which files it must leave out. A file a read
   * rule denies (or asks about — a search cannot ask per file) is not listed or searched,
   * whatever the search root. Undefined when no rule concerns the tool (the common case).
   */
  searchFilter(toolName: string, projectRoot: string, homeDir: string): ((absolutePath: string) => boolean) | undefined {
    const applicable = this.applicable({ toolName, category: 'read', targetKind: 'path' });
    if (!applicable) return undefined;
    return (absolutePath) => {
      const decision = this.decidePathNow(applicable, absolutePath, projectRoot, homeDir)?.decision;
      return decision === 'deny' || decision === 'ask';
    };
  }

  /**
   * The literal prefixes of every deny and ask rule that concerns this reading tool, in all layers:
   * `[]` when there are none, undefined when one of them has no knowable prefix (see
   * CompiledRule.literalPrefix). An allow rule never narrows what is hidden, so it is not listed.
   */
  readRulePrefixes(toolName: string): string[] | undefined {
    const applicable = this.applicable({ toolName, category: 'read', targetKind: 'path' });
    if (!applicable) return [];
    const prefixes = new Set<string>();
    for (const lists of applicable) {
      for (const rule of [...lists.deny, ...lists.ask]) {
        const prefix = rule.literalPrefix();
        if (prefix === undefined) return undefined;
        prefixes.add(prefix);
      }
    }
    return [...prefixes];
  }

  /**
   * The deny and ask rules of the reading tools (`Read(…)`), for commands that read files: each
   * with the one file it names (`exact`) or the directory all its files lie in (`prefix`, the
   * part before the first glob character); both undefined when unknowable (a regex, a negation).
   */
  readRules(): { rule: CompiledRule; exact: string | undefined; prefix: string | undefined }[] {
    const applicable = this.applicable({ toolName: 'read_file', category: 'read', targetKind: 'path' });
    return (applicable ?? []).flatMap((lists) => [...lists.deny, ...lists.ask]).map((rule) => ({ rule, exact: rule.exactPath(), prefix: rule.literalPrefix() }));
  }

  /** What the Read rules say about reading this absolute path (as read_file would be judged). */
  readVerdict(absolute: string, projectRoot: string, homeDir: string): PermissionVerdict | undefined {
    const applicable = this.applicable({ toolName: 'read_file', category: 'read', targetKind: 'path' });
    return applicable && this.decidePathNow(applicable, absolute, projectRoot, homeDir);
  }

  /** The rules that concern this tool, per layer and list; undefined when there are none (most calls). */
  private applicable(facts: ToolFacts): Record<RuleList, CompiledRule[]>[] | undefined {
    // The rules that concern this tool, per layer and list; most calls stop here with none.
    const applicable: Record<RuleList, CompiledRule[]>[] = [];
    let any = false;
    for (const layer of this.layers) {
      const lists = { deny: [] as CompiledRule[], ask: [] as CompiledRule[], allow: [] as CompiledRule[] };
      for (const list of RULE_LISTS) {
        for (const rule of layer.rules[list]) {
          if (rule.appliesTo(facts)) {
            lists[list].push(rule);
            any = true;
          }
        }
      }
      applicable.push(lists);
    }
    return any ? applicable : undefined;
  }

  private async decidePath(applicable: Record<RuleList, CompiledRule[]>[], input: string, projectRoot: string, homeDir: string): Promise<PermissionVerdict | undefined> {
    return this.decidePathNow(applicable, input, projectRoot, homeDir);
  }

  private decidePathNow(applicable: Record<RuleList, CompiledRule[]>[], input: string, projectRoot: string, homeDir: string): PermissionVerdict | undefined {
    const absolute = path.resolve(projectRoot, expandHome(input, homeDir));
    const candidates = [absolute];
    const real = realPath(absolute);
    if (real !== undefined && real !== absolute) candidates.push(real);
    const decisions = candidates.map((candidate) => evaluate(applicable, { label: candidate, matches: (rule) => rule.matchesPath(candidate) }));
    return combine(decisions, { allowed: true });
  }

  private async decideCommand(
    applicable: Record<RuleList, CompiledRule[]>[],
    command: string,
    parse: CommandParser,
    projectRoot: string,
    homeDir: string,
    startDir: string,
  ): Promise<PermissionVerdict | undefined> {
    let parsed: ParsedCommandLike;
    try {
      parsed = await parse(command);
    } catch (error) {
      parsed = { segments: [], parseError: (error as Error).message, hasFunctionDefinition: false, raw: command };
    }
    const raw = command.trim();
    const whole: Unit = { label: raw, matches: (rule) => rule.matchesCommand(raw) };
    const wholeDecision = evaluate(applicable, whole);
    // With a parse error (or an opaque construct) the segments are best-effort, or not all the
    // command may run: they can still deny or ask, never allow.
    const writes: WriteCheck = { projectRoot, homeDir, startDir };
    const segmentDecisions = parsed.segments.map((segment) => evaluate(applicable, segmentUnit(segment, writes)));
    const verifiable = parsed.parseError === undefined && parsed.opaque === undefined && !parsed.hasFunctionDefinition && parsed.segments.length > 0;

    const objection =
      combine([wholeDecision, ...segmentDecisions], { allowed: false }) ??
      computedNameObjection(applicable, parsed.segments) ??
      computedWordObjection(applicable, parsed.segments, raw) ??
      unknownGlobalOptionObjection(applicable, parsed.segments) ??
      unknownCommandsObjection(applicable, parsed.segments) ??
      (parsed.parseError !== undefined ? unparsedObjection(applicable, parsed.parseError) : undefined) ??
      (parsed.opaque !== undefined ? opaqueObjection(applicable, parsed.opaque) : undefined);
    if (objection) return objection;
    if (!verifiable) return undefined;
    if (wholeDecision?.decision === 'allow' && wholeDecision.rule.exact) return verdictFor('allow', [wholeDecision]);
    // A wrapper allow rules look through (`timeout 5 npm test`: allow-wrappers.ts) needs no allow
    // of its own: the command it runs is a segment of its own, and that one must be allowed.
    const needed = segmentDecisions.filter((decision, i) => decision !== undefined || !looksThrough(parsed.segments[i]!, parsed.segments));
    return combine(needed, { allowed: true });
  }

  /**
   * Whether an allow rule for file writes names exactly this file (an `=` pattern or a path
   * without glob characters, not a folder): the only rule that passes a protected path. Only the
   * user's own rules count (~/.mewcode/settings.yaml, the command line, a saved approval): a
   * project's settings, trusted or not, never unlock the project's protected files.
   */
  allowsExactFile(absolute: string, toolName: string): boolean {
    const candidates = new Set([absolute, realPath(absolute) ?? absolute]);
    for (const tool of new Set([toolName, 'edit_file', 'write_file'])) {
      const applicable = this.applicable({ toolName: tool, category: 'write', targetKind: 'path' });
      for (const lists of applicable ?? []) {
        for (const rule of lists.allow) {
          if (!ownedByUser(rule.origin)) continue;
          const named = rule.exactPath();
          if (named !== undefined && [...candidates].some((c) => c === named && rule.matchesPath(c))) return true;
        }
      }
    }
    return false;
  }
}

/** Where a command starts: the bash call's `workdir` (relative to the project root), else the root. */
function startDirectory(request: PermissionRequest): string {
  const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
  return typeof workdir === 'string' && workdir !== '' ? path.resolve(request.projectRoot, workdir) : request.projectRoot;
}

/**
 * The symlink-resolved path, dangling links followed (sdk/path-containment's resolveRealSync, the
 * sandbox's resolution). Undefined when it cannot be resolved (a loop, an unreadable ancestor).
 */
export function realPath(absolute: string): string | undefined {
  try {
    return resolveRealSync(absolute);
  } catch {
    return undefined;
  }
}

/** A command name bash computes at run time (an expansion, a glob, a brace list): no rule can see the verb. */
export function computedCommandName(word: string | undefined): boolean {
  if (word === undefined || word === '[' || word === '[[') return false; // the test builtin
  return computedWord(word);
}

/** With a deny (or ask) rule for the tool, a command that does not parse cannot be checked against it: denied (asked). */
function unparsedObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], parseError: string): PermissionVerdict | undefined {
  for (const list of ['deny', 'ask'] as const) {
    const rule = applicable.flatMap((lists) => lists[list])[0];
    if (!rule) continue;
    return {
      decision: list,
      layer: `${LAYER_NAME}:${rule.origin.scope}`,
      reason: `the command does not parse (${parseError}), so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against it; fix the syntax`,
    };
  }
  return undefined;
}

/** With a deny (or ask) rule for the tool, a segment whose verb is computed at run time is denied (asked). */
function computedNameObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  const computed = segments.find((s) => computedCommandName(s.argv[0]));
  return computed && unseenObjection(applicable, (list, rule) =>
    `the command name ${quote(computed.argv[0]!)} in ${quote(computed.text)} is computed at run time, so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against it; write the command name literally`);
}

/**
 * A segment with a word after the command name that the text does not show (computed at run time,
 * or a subcommand renamed by a git alias: computed-words.ts): a deny (ask) rule that may match
 * whatever that word turns out to be denies (asks). `git $(echo push) x` is `git push x` to
 * `Bash(git push *)`, `rm -rf $X` may be `rm -rf /`.
 */
function computedWordObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[], line: string): PermissionVerdict | undefined {
  for (const segment of segments) {
    const unknown = unknownWords(segment.argv, line);
    if (unknown.length === 0) continue;
    for (const list of ['deny', 'ask'] as const) {
      for (const lists of applicable) {
        for (const rule of lists[list]) {
          const found = unknown.find((u) => mayMatchAt(rule, u.words, u.at));
          if (!found) continue;
          return {
            decision: list,
            layer: `${LAYER_NAME}:${rule.origin.scope}`,
            reason:
              `in ${quote(segment.text)} ${found.why}, so what runs may be what ${list} rule ${rule.describeOrigin()} "${rule.text}" names ` +
              'and the rule cannot be checked against it; write the command out literally',
          };
        }
      }
    }
  }
  return undefined;
}

/**
 * A multiplexer (git, npm, cargo, docker…) with a global option the tables do not know before
 * its subcommand: the subcommand cannot be found (the option may take the next word), so any deny
 * or ask rule naming the program with a subcommand (`git push`) asks, as a computed name would
 * deny. An ask, not a deny: the command is written out and a person can read it.
 */
function unknownGlobalOptionObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  for (const segment of segments) {
    const name = segment.argv[0];
    if (name === undefined) continue;
    const base = name.slice(name.lastIndexOf('/') + 1);
    const unknown = ruleForms([base, ...segment.argv.slice(1)]).unknownOption;
    if (!unknown) continue;
    for (const list of ['deny', 'ask'] as const) {
      const rule = applicable.flatMap((lists) => lists[list]).find((r) => namesProgram(r, unknown.program));
      if (!rule) continue;
      return {
        decision: 'ask',
        layer: `${LAYER_NAME}:${rule.origin.scope}`,
        reason:
          `${quote(segment.text)} has the option ${quote(unknown.option)} before its subcommand, which is not known, so the subcommand ` +
          `cannot be found and ${list} rule ${rule.describeOrigin()} "${rule.text}" may apply: it needs approval (refused where nobody can approve)`,
      };
    }
  }
  return undefined;
}

/** A rule whose pattern begins with the program and a further word (a regex: mentions it). */
function namesProgram(rule: CompiledRule, program: string): boolean {
  const pattern = rule.parsed.pattern;
  if (!pattern) return false; // a rule for every command already matched the segment itself
  if (pattern.kind === 'regex') return pattern.body.includes(program);
  return pattern.body.startsWith(`${program} `);
}

/** With a deny (or ask) rule for the tool, a segment that runs commands nothing shows is denied (asked). */
function unknownCommandsObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  const hidden = segments.find((s) => s.unknownCommands !== undefined);
  return hidden && unseenObjection(applicable, (list, rule) =>
    `${quote(hidden.text)} runs commands that cannot be seen (${hidden.unknownCommands}), so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against them; write the commands out`);
}

/**
 * With a deny (or ask) rule for the tool, a command the parser cannot see through (interpreter
 * code on the command line, arithmetic or a prompt string over run-time values, `eval`,
 * command-running options…) may run what the rule names: it asks. Not a deny: such constructs are
 * everyday (`python3 -c …`, `for ((…))`) and a person can read the command; where nobody can be
 * asked (headless runs) an ask is refused, so the rule holds there as a deny.
 */
function opaqueObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], opaque: string): PermissionVerdict | undefined {
  const rule = applicable.flatMap((lists) => lists.deny)[0] ?? applicable.flatMap((lists) => lists.ask)[0];
  if (!rule) return undefined;
  const shown = opaque.length > 160 ? `${opaque.slice(0, 160)}…` : opaque;
  return {
    decision: 'ask',
    layer: `${LAYER_NAME}:${rule.origin.scope}`,
    reason:
      `what this command runs cannot be fully seen (${shown}), so it may do what ${rule.list} rule ${rule.describeOrigin()} "${rule.text}" forbids: ` +
      'it needs approval (refused where nobody can approve); write the commands out as plain shell commands',
  };
}

/** What a deny rule (else an ask rule) of the tool says about a command it cannot see: deny (ask). */
function unseenObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], reason: (list: 'deny' | 'ask', rule: CompiledRule) => string): PermissionVerdict | undefined {
  for (const list of ['deny', 'ask'] as const) {
    const rule = applicable.flatMap((lists) => lists[list])[0];
    if (rule) return { decision: list, layer: `${LAYER_NAME}:${rule.origin.scope}`, reason: reason(list, rule) };
  }
  return undefined;
}

/**
 * The unit's decision: a deny rule of any layer, else an ask rule of any layer, else an allow
 * rule — never "the first layer with a match", which let a less trusted layer's ask or allow
 * (an untrusted project's `ask`) stand in front of a more trusted layer's deny (the user's).
 * Within one kind the most authoritative layer's rule (`applicable` is highest first) is the one
 * named, with its file:line:col.
 */
function evaluate(applicable: readonly Record<RuleList, CompiledRule[]>[], unit: Unit): UnitDecision | undefined {
  for (const list of RULE_LISTS) {
    for (const lists of applicable) {
      for (const rule of lists[list]) {
        if (unit.matches(rule, list)) return { decision: list, rule, unit };
      }
    }
  }
  return undefined;
}

/**
 * Deny anywhere → deny; ask anywhere → ask; with `allowed`, every unit allowed → allow;
 * otherwise undecided.
 */
function combine(decisions: readonly (UnitDecision | undefined)[], options: { allowed: boolean }): PermissionVerdict | undefined {
  const deny = decisions.find((d) => d?.decision === 'deny');
  if (deny) return verdictFor('deny', [deny]);
  const ask = decisions.find((d) => d?.decision === 'ask');
  if (ask) return verdictFor('ask', [ask]);
  if (!options.allowed || decisions.length === 0) return undefined;
  if (decisions.every((d) => d?.decision === 'allow')) return verdictFor('allow', decisions as UnitDecision[]);
  return undefined;
}

function verdictFor(decision: PermissionDecision, deciding: readonly UnitDecision[]): PermissionVerdict {
  const scopes = SCOPES.filter((scope) => deciding.some((d) => d.rule.origin.scope === scope));
  const parts = uniqueBy(deciding, (d) => `${d.rule.origin.scope}\u0000${d.rule.text}\u0000${d.unit.label}`).map(
    (d) => `${d.rule.list} ${d.rule.describeOrigin()} "${d.rule.text}" matches ${quote(d.unit.label)}`,
  );
  return { decision, layer: `${LAYER_NAME}:${scopes.join('+')}`, reason: parts.join('; ') };
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/**
 * One segment. Allow rules see the segment as written but without its redirections
 * (`npm test 2>&1` is `npm test`), and allow only a segment whose writing redirections all go to
 * /dev/null, /dev/stdout, /dev/stderr, a file descriptor or a file inside the project (otherwise
 * the segment is left to the mode layer). Deny and ask rules see the full text and also its
 * words unquoted and without leading assignments (`"git" push` is `git push` for a deny), a
 * multiplexer's global options removed (`git -C . push` is `git push`) and the leading
 * single-letter flags in every grouping and order (`rm -r -f` is `rm -rf`): command-forms.ts.
 * Wrapped commands (`timeout 5 git push`, `sh -c '…'`) are segments of their own from the parser;
 * what a bare `xargs` runs is matched by allow rules with its unknown input marked (allow-wrappers.ts).
 */
function segmentUnit(segment: ShellSegmentLike, writes: WriteCheck): Unit {
  const text = segment.text.trim();
  const allowText = allowTextOf(segment);
  const forms = new Set<string>([text]);
  if (segment.argv.length > 0) {
    forms.add(segment.argv.join(' '));
    // `/bin/rm -rf x` is `rm -rf x` for a deny rule (and `RM` on a case-insensitive disk).
    const name = segment.argv[0]!;
    const base = name.slice(name.lastIndexOf('/') + 1);
    forms.add([base, ...segment.argv.slice(1)].join(' '));
    forms.add([base.toLowerCase(), ...segment.argv.slice(1)].join(' '));
    for (const form of ruleForms([base, ...segment.argv.slice(1)]).forms) forms.add(form);
  }
  if (segment.equivalent !== undefined) forms.add(segment.equivalent);
  const denyForms = [...forms];
  let writesAllowed: boolean | undefined;
  return {
    label: text,
    matches: (rule, list) => {
      if (list !== 'allow') return denyForms.some((form) => rule.matchesCommand(form));
      writesAllowed ??= segment.redirects.every((r) => redirectAllowed(r, segment.dirs, writes));
      return writesAllowed && rule.matchesCommand(allowText);
    },
  };
}

interface WriteCheck {
  projectRoot: string;
  homeDir: string;
  /** Where the command line starts (the bash call's workdir, or the project root). */
  startDir: string;
}

/** The absolute directories a segment may run in; undefined when unknown. */
export function segmentDirectories(dirs: readonly string[] | null | undefined, startDir: string, homeDir: string): string[] | undefined {
  if (dirs === null) return undefined;
  const out: string[] = [];
  for (const dir of dirs ?? ['.']) {
    if (dir === '~' || dir.startsWith('~/')) out.push(path.resolve(homeDir, dir.slice(2)));
    else if (dir.startsWith('~')) return undefined; // ~user
    else out.push(path.resolve(startDir, dir));
  }
  return out;
}

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** A redirection an allow rule may let through: not writing, or writing to a harmless place or inside the project. */
function redirectAllowed(redirect: { op: string; target: string }, dirs: readonly string[] | null | undefined, writes: WriteCheck): boolean {
  const { op, target } = redirect;
  if (!op.includes('>')) return true; // <, <<, <<<, <&: reading
  if (HARMLESS_TARGETS.has(target)) return true;
  if ((op === '>&' || op === '<&' || op === '>&-') && /^(?:\d+|-)$/.test(target)) return true; // 2>&1, >&-
  const expanded = expandHome(target, writes.homeDir);
  // Expansions, globs, process substitution, …: the real target is unknown.
  if (!/^[A-Za-z0-9_./@%+=,:-]+$/.test(expanded) || expanded.startsWith('-')) return false;
  const bases = path.isAbsolute(expanded) ? [writes.startDir] : segmentDirectories(dirs, writes.startDir, writes.homeDir);
  if (bases === undefined) return false; // a relative target after `cd "$X"`: where it lands is unknown
  try {
    const root = resolveRealSync(writes.projectRoot);
    return bases.every((base) => isWithin(root, resolveRealSync(path.resolve(base, expanded))));
  } catch {
    return false;
  }
}
