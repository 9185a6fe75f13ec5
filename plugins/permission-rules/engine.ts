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
 * - a named call (the sub-agent type `agent` starts, the skill `load_skill` loads): that name,
 *   its aliases and `name detail` (`Agent(Explore)`, `Skill(commit)`, `Skill(review-pr *)`);
 * - anything else: the tool name (MCP tools: `mcp__server__tool`).
 * Besides, a deny or ask rule `Tool(key:value)` naming a parameter of the tool judges that
 * parameter's value (param-rules.ts), whatever the call's target.
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
 *
 * This file decides paths and tool names: glob, grep and the sandbox ask it synchronously, at any
 * time. A command's decision (segments, objections, redirections) is command-decision.ts, which
 * the context hands in (EngineContext.decideCommand): the plugin loads it with the rest of a
 * call's checks at the first check (call-checks.ts), not at start-up.
 */
import path from 'node:path';
import { expandHome, resolveRealSync } from '../../sdk/path-containment.js';
import type { PermissionDecision, PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { RULE_LISTS, type RuleList } from './rule-syntax.js';
import { matchesParam, paramKeyFor } from './param-rules.js';
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
  /** Where in argv a command the (unknown) program may run could start (sdk/shell-command/plain-programs.ts). */
  mayRunOperands?: readonly number[];
  /** Index of the loosely read runner's segment that runs it (`npx jest`): allowed with that runner. */
  ranBy?: number;
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

export interface Unit {
  /** For messages: the segment, path or tool name. */
  label: string;
  matches(rule: CompiledRule, list: RuleList): boolean;
}

export interface UnitDecision {
  decision: PermissionDecision;
  rule: CompiledRule;
  unit: Unit;
}

/** The rules that concern one call's tool, per layer (highest first) and list. */
export type ApplicableRules = Record<RuleList, CompiledRule[]>[];

/** A command call's verdict from the rules that concern its tool: command-decision.ts. */
export type DecideCommand = (applicable: ApplicableRules, command: string, request: PermissionRequest, context: EngineContext) => Promise<PermissionVerdict | undefined>;

export interface EngineContext {
  homeDir: string;
  parseCommand: CommandParser;
  /** command-decision.ts's decideCommand, loaded at the first command call rather than at start-up. */
  decideCommand(): Promise<DecideCommand>;
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
    const all = this.applicable(facts);
    if (!all) return undefined;
    // Parameter rules (`Agent(model:opus)`) judge the call's parameter, the others its target.
    const { applicable, params } = splitParamRules(all, request);
    const byParam = params && evaluate(params, { label: 'its parameters', matches: (rule) => matchesParam(rule, paramKeyFor(rule, request)!, request.input) });
    if (!byParam) return this.checkTarget(applicable, request, context);
    const byTarget = await this.checkTarget(applicable, request, context);
    if (byTarget?.decision === 'deny') return byTarget;
    // Named by the parameter it judged (`run_in_background:true`), not by the call's target.
    const { key } = paramKeyFor(byParam.rule, request)!;
    return verdictFor(byParam.decision, [{ ...byParam, unit: { ...byParam.unit, label: `${key}:${String(request.input[key])}` } }]);
  }

  private async checkTarget(applicable: ApplicableRules, request: PermissionRequest, context: EngineContext): Promise<PermissionVerdict | undefined> {
    const target = request.target;
    // Where the path led when the tool was asked (`real`) is judged too: a link on its way may have been swapped since.
    if (target.kind === 'path') return this.decidePath(applicable, target.path, request.projectRoot, context.homeDir, typeof target.real === 'string' ? target.real : undefined);
    if (target.kind === 'command') return (await context.decideCommand())(applicable, target.command, request, context);
    if (target.kind === 'named') {
      const subjects = namedSubjects(target);
      const named: Unit = { label: subjects[subjects.length - 1]!, matches: (rule) => subjects.some((subject) => rule.matchesNamed(subject)) };
      return combine([evaluate(applicable, named)], { allowed: true });
    }
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

  /**
   * The allow rule that names this path outside the project for a reading tool (Claude Code's
   * `Read(//abs/**)`, `Read(~/notes.md)`), or undefined. Only a rule whose pattern is written as an
   * absolute or `~/` path counts (not `Read`, `Read(**)` or a regex: a rule about the project must
   * not open the disk), and only rules the user let grant are loaded at all (an untrusted project's
   * allow rules are not: settings-files.ts). `paths`: every form of the path (as written, links
   * resolved); the rule must match each, so a link inside an allowed folder leads nowhere else.
   */
  outsideReadRule(toolName: string, paths: readonly string[]): CompiledRule | undefined {
    const applicable = this.applicable({ toolName, category: 'read', targetKind: 'path' });
    for (const lists of applicable ?? []) {
      for (const rule of lists.allow) {
        if (rule.namesOutsidePath() && paths.length > 0 && paths.every((candidate) => rule.matchesPath(candidate))) return rule;
      }
    }
    return undefined;
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

  private async decidePath(applicable: Record<RuleList, CompiledRule[]>[], input: string, projectRoot: string, homeDir: string, judged?: string): Promise<PermissionVerdict | undefined> {
    return this.decidePathNow(applicable, input, projectRoot, homeDir, judged);
  }

  private decidePathNow(applicable: Record<RuleList, CompiledRule[]>[], input: string, projectRoot: string, homeDir: string, judged?: string): PermissionVerdict | undefined {
    const absolute = path.resolve(projectRoot, expandHome(input, homeDir));
    const candidates = [absolute];
    const real = realPath(absolute);
    if (real !== undefined && real !== absolute) candidates.push(real);
    if (judged !== undefined && !candidates.includes(judged)) candidates.push(judged);
    const decisions = candidates.map((candidate) => evaluate(applicable, { label: candidate, matches: (rule) => rule.matchesPath(candidate) }));
    return combine(decisions, { allowed: true });
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

/** What a named target's rules are matched against: the name, its aliases, then `name detail`. */
function namedSubjects(target: { name: string; aliases?: readonly string[]; detail?: string }): string[] {
  const names = [target.name, ...(target.aliases ?? [])].filter((name) => typeof name === 'string' && name !== '');
  const detail = typeof target.detail === 'string' ? target.detail.trim() : '';
  return detail === '' ? names : [...names, `${target.name} ${detail}`];
}

/** The rules split into parameter rules that concern this call (undefined when none) and the rest. */
function splitParamRules(all: ApplicableRules, request: PermissionRequest): { applicable: ApplicableRules; params: ApplicableRules | undefined } {
  let any = false;
  const params: ApplicableRules = [];
  const applicable: ApplicableRules = [];
  for (const lists of all) {
    const mine = { deny: [] as CompiledRule[], ask: [] as CompiledRule[], allow: [] as CompiledRule[] };
    const rest = { deny: [] as CompiledRule[], ask: [] as CompiledRule[], allow: lists.allow };
    for (const list of ['deny', 'ask'] as const) {
      for (const rule of lists[list]) {
        if (paramKeyFor(rule, request)) {
          mine[list].push(rule);
          any = true;
        } else rest[list].push(rule);
      }
    }
    params.push(mine);
    applicable.push(rest);
  }
  return any ? { applicable, params } : { applicable: all, params: undefined };
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

/**
 * The unit's decision: a deny rule of any layer, else an ask rule of any layer, else an allow
 * rule — never "the first layer with a match", which let a less trusted layer's ask or allow
 * (an untrusted project's `ask`) stand in front of a more trusted layer's deny (the user's).
 * Within one kind the most authoritative layer's rule (`applicable` is highest first) is the one
 * named, with its file:line:col.
 */
export function evaluate(applicable: readonly Record<RuleList, CompiledRule[]>[], unit: Unit): UnitDecision | undefined {
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
export function combine(decisions: readonly (UnitDecision | undefined)[], options: { allowed: boolean }): PermissionVerdict | undefined {
  const deny = decisions.find((d) => d?.decision === 'deny');
  if (deny) return verdictFor('deny', [deny]);
  const ask = decisions.find((d) => d?.decision === 'ask');
  if (ask) return verdictFor('ask', [ask]);
  if (!options.allowed || decisions.length === 0) return undefined;
  if (decisions.every((d) => d?.decision === 'allow')) return verdictFor('allow', decisions as UnitDecision[]);
  return undefined;
}

export function verdictFor(decision: PermissionDecision, deciding: readonly UnitDecision[]): PermissionVerdict {
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

export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

