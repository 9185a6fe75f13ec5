/**
 * The rules layer's decision for one call (SPEC A1, A5, A10).
 *
 * Layers are tried in order session > local > project > user; inside a layer deny, then ask,
 * then allow; the first layer holding a matching rule decides that subject. A call can have
 * several subjects ("units"):
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
 * only when its writing redirections stay inside the project (or go to /dev/null, a descriptor…).
 */
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { expandHome, isWithin, resolveRealSync } from '../../sdk/path-containment.js';
import type { PermissionDecision, PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { RULE_LISTS, type RuleList } from './rule-syntax.js';
import { SCOPES, type CompiledRule, type RuleLayer, type Scope, type ToolFacts } from './rule-set.js';

/** The shell-command plugin's parse result (structural, so this file does not depend on its loading). */
export interface ShellSegmentLike {
  argv: string[];
  text: string;
  redirects: { op: string; target: string }[];
  assignments: string[];
  /** The text without the redirections written in it; `text` when absent. */
  textWithoutRedirects?: string;
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
    if (target.kind === 'command') return this.decideCommand(applicable, target.command, context.parseCommand, request.projectRoot, context.homeDir);
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
    const real = realPathSync(absolute);
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
    const writes: WriteCheck = { projectRoot, homeDir, changesDirectory: parsed.segments.some((s) => DIRECTORY_CHANGERS.has(path.basename(s.argv[0] ?? ''))) };
    const segmentDecisions = parsed.segments.map((segment) => evaluate(applicable, segmentUnit(segment, writes)));
    const verifiable = parsed.parseError === undefined && parsed.opaque === undefined && !parsed.hasFunctionDefinition && parsed.segments.length > 0;

    const objection = combine([wholeDecision, ...segmentDecisions], { allowed: false });
    if (objection) return objection;
    if (!verifiable) return undefined;
    if (wholeDecision?.decision === 'allow' && wholeDecision.rule.exact) return verdictFor('allow', [wholeDecision]);
    return combine(segmentDecisions, { allowed: true });
  }
}

/**
 * The symlink-resolved path (through the nearest existing ancestor for a path that does not
 * exist yet), as kernel/path-containment's resolveReal but synchronous: one realpath(3) call on
 * a local disk costs microseconds, a thread-pool round trip ten times more on every check.
 * Undefined when an ancestor cannot be read (the tool reports that; the path is judged as written).
 */
function realPathSync(absolute: string): string | undefined {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The first layer with a matching rule decides the unit: deny, then ask, then allow. */
function evaluate(applicable: readonly Record<RuleList, CompiledRule[]>[], unit: Unit): UnitDecision | undefined {
  for (const lists of applicable) {
    for (const list of RULE_LISTS) {
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
 * words unquoted and without leading assignments (`"git" push` is `git push` for a deny).
 * Wrapped commands (`timeout 5 git push`, `sh -c '…'`) are segments of their own from the parser.
 */
function segmentUnit(segment: ShellSegmentLike, writes: WriteCheck): Unit {
  const text = segment.text.trim();
  const allowText = (segment.textWithoutRedirects ?? segment.text).trim();
  const forms = new Set<string>([text]);
  if (segment.argv.length > 0) forms.add(segment.argv.join(' '));
  const denyForms = [...forms];
  let writesAllowed: boolean | undefined;
  return {
    label: text,
    matches: (rule, list) => {
      if (list !== 'allow') return denyForms.some((form) => rule.matchesCommand(form));
      writesAllowed ??= segment.redirects.every((r) => redirectAllowed(r, writes));
      return writesAllowed && rule.matchesCommand(allowText);
    },
  };
}

interface WriteCheck {
  projectRoot: string;
  homeDir: string;
  /** Some segment changes directory (`cd /etc && echo x > passwd`): relative targets are unknown. */
  changesDirectory: boolean;
}

const DIRECTORY_CHANGERS = new Set(['cd', 'pushd', 'popd']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** A redirection an allow rule may let through: not writing, or writing to a harmless place or inside the project. */
function redirectAllowed(redirect: { op: string; target: string }, writes: WriteCheck): boolean {
  const { op, target } = redirect;
  if (!op.includes('>')) return true; // <, <<, <<<, <&: reading
  if (HARMLESS_TARGETS.has(target)) return true;
  if ((op === '>&' || op === '<&' || op === '>&-') && /^(?:\d+|-)$/.test(target)) return true; // 2>&1, >&-
  const expanded = expandHome(target, writes.homeDir);
  // Expansions, globs, process substitution, …: the real target is unknown.
  if (!/^[A-Za-z0-9_./@%+=,:-]+$/.test(expanded) || expanded.startsWith('-')) return false;
  if (!path.isAbsolute(expanded) && writes.changesDirectory) return false;
  try {
    return isWithin(resolveRealSync(writes.projectRoot), resolveRealSync(path.resolve(writes.projectRoot, expanded)));
  } catch {
    return false;
  }
}
