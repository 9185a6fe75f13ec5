/**
 * Compiled rules and the layers that hold them. Layers, highest first (A1 as stated by the
 * permission issue): managed (the organisation's managed settings: deny and ask only) > session
 * (CLI flags and "allow for this session") > local > project > user. The engine decides by kind
 * across all layers (deny, then ask, then allow: engine.ts); the order names the deciding rule.
 */
import path from 'node:path';
import type { ToolCategory } from '../../types/tools.js';
import { compileCommandTest, compilePathTest, compileRegex, hasPathGlobChars, resolveExactPath, resolvePathPattern, type PathBases, type Test } from './matchers.js';
import { FRIENDLY_NAMES, PATH_RULE_NAMES, friendlyName, type ParsedRule, type RuleList } from './rule-syntax.js';

export type Scope = 'managed' | 'session' | 'local' | 'project' | 'user';
export const SCOPES: readonly Scope[] = ['managed', 'session', 'local', 'project', 'user'];

export interface RuleOrigin {
  scope: Scope;
  /** The settings file, `--allowedTools`, `--disallowedTools` or `approval`. */
  source: string;
  /** `file:line:col` when the rule was read from a file. */
  where?: string;
  /**
   * Written by the user (their own files, the command line, an approval they gave), not by the
   * project: only such a rule may pass a protected path. Absent: the user's only for the `user`
   * and `session` scopes.
   */
  userOwned?: boolean;
}

/** Whether the user, not the project, wrote the rule (see RuleOrigin.userOwned). */
export function ownedByUser(origin: RuleOrigin): boolean {
  return origin.userOwned ?? (origin.scope === 'user' || origin.scope === 'session');
}

/** What the rules need to know about a call to choose the rules that concern it. */
export interface ToolFacts {
  toolName: string;
  category: ToolCategory;
  targetKind: 'path' | 'command' | 'named' | 'none';
}

export class CompiledRule {
  private commandTest: Test | undefined;
  private pathTest: Test | undefined;

  constructor(
    readonly parsed: ParsedRule,
    readonly list: RuleList,
    readonly origin: RuleOrigin,
    private readonly bases: PathBases,
  ) {}

  get text(): string {
    return this.parsed.text;
  }

  /** An un-negated `=` pattern, or a glob without `*`: it names one command and can never widen. */
  get exact(): boolean {
    const pattern = this.parsed.pattern;
    if (!pattern || pattern.negations !== 0) return false;
    return pattern.kind === 'exact' || (pattern.kind === 'glob' && !pattern.body.includes('*'));
  }

  /**
   * Does the rule concern this tool? Besides its own and its registered name, Claude Code's
   * conventions: `Edit(…)` covers every file-writing tool, `Read(…)` every reading tool with a
   * path target (glob, grep), and a `Read` deny also blocks writes to the path.
   */
  appliesTo(facts: ToolFacts): boolean {
    const tool = this.parsed.tool;
    if (tool.kind === 'glob') return tool.regex.test(facts.toolName);
    if (tool.kind === 'server') return facts.toolName.startsWith(tool.prefix);
    const name = tool.name;
    if (name === facts.toolName || FRIENDLY_NAMES[name] === facts.toolName) return true;
    if (facts.targetKind !== 'path') return false;
    if (name === 'Edit') return facts.category === 'write';
    if (name === 'Read') return facts.category === 'read' || (this.list === 'deny' && facts.category === 'write');
    return false;
  }

  matchesCommand(command: string): boolean {
    const pattern = this.parsed.pattern;
    if (!pattern) return true;
    this.commandTest ??= compileCommandTest(pattern);
    return this.commandTest(command);
  }

  matchesPath(absolute: string): boolean {
    const pattern = this.parsed.pattern;
    if (!pattern) return true;
    this.pathTest ??= compilePathTest(pattern, this.bases);
    return this.pathTest(absolute);
  }

  /** The one file a path pattern names (`=x`, or a path without glob characters and no trailing `/`); else undefined. */
  exactPath(): string | undefined {
    const pattern = this.parsed.pattern;
    if (!pattern || pattern.negations !== 0) return undefined;
    if (pattern.kind === 'exact') return resolveExactPath(pattern.body, this.bases);
    if (pattern.kind !== 'glob' || pattern.body.endsWith('/') || hasPathGlobChars(pattern.body)) return undefined;
    const resolved = resolvePathPattern(pattern.body, this.bases);
    return resolved.glob === undefined ? resolved.prefix : undefined;
  }

  /** A plain path pattern written from `/` (`//abs`) or the home (`~/…`): what may name a place outside the project. */
  namesOutsidePath(): boolean {
    const pattern = this.parsed.pattern;
    if (!pattern || pattern.negations !== 0 || (pattern.kind !== 'glob' && pattern.kind !== 'exact')) return false;
    return pattern.body.startsWith('//') || pattern.body.startsWith('~/');
  }

  /**
   * The absolute path every path this rule matches lies in (the pattern's part before its first
   * glob character), for callers that must enumerate what a rule covers (the OS sandbox hides
   * Read-denied paths); undefined when that cannot be known: no pattern, a regex, a negation.
   */
  literalPrefix(): string | undefined {
    const pattern = this.parsed.pattern;
    if (!pattern || pattern.negations !== 0) return undefined;
    if (pattern.kind === 'exact') return resolveExactPath(pattern.body, this.bases);
    if (pattern.kind !== 'glob') return undefined;
    return resolvePathPattern(pattern.body, this.bases).prefix;
  }

  /**
   * A named target (a sub-agent type, a skill): the pattern as a command glob, without regard to
   * case — agent and skill names are lower case, Claude Code's rules write `Agent(Explore)`.
   */
  matchesNamed(subject: string): boolean {
    const pattern = this.parsed.pattern;
    if (!pattern) return true;
    this.namedTest ??= compileCommandTest(pattern.kind === 'regex' ? pattern : { ...pattern, body: pattern.body.toLowerCase() });
    return this.namedTest(subject.toLowerCase()) || (pattern.kind === 'regex' && this.namedTest(subject));
  }

  private namedTest: Test | undefined;

  /** Tools without a target (MCP tools): the pattern is matched against the tool name. */
  matchesName(toolName: string): boolean {
    return this.matchesCommand(toolName);
  }

  /** Compile what can be compiled now, so a broken pattern is reported at load (K2). */
  precompile(): void {
    const pattern = this.parsed.pattern;
    if (!pattern) return;
    if (pattern.kind === 'regex') compileRegex(pattern.body);
    const tool = this.parsed.tool;
    if (tool.kind !== 'name') return;
    if (PATH_RULE_NAMES.has(tool.name) || PATH_RULE_NAMES.has(friendlyName(tool.name))) this.pathTest ??= compilePathTest(pattern, this.bases);
    else this.commandTest ??= compileCommandTest(pattern);
  }

  describeOrigin(): string {
    const where = this.origin.where ?? this.origin.source;
    return this.origin.scope === 'session' ? `session rule (${this.origin.source})` : `${this.origin.scope} rule (${where})`;
  }
}

export function pathBasesFor(scope: Scope, projectRoot: string, homeDir: string): PathBases {
  return {
    projectRoot,
    homeDir,
    // Claude Code: a single leading slash is relative to the settings file's source — the
    // project for project and local files (and the command line), ~/.mewcode for the user file.
    slashBase: scope === 'user' ? path.join(homeDir, '.mewcode') : projectRoot,
    caseInsensitive: process.platform === 'darwin' || process.platform === 'win32',
  };
}

export class RuleLayer {
  readonly rules: Record<RuleList, CompiledRule[]> = { deny: [], ask: [], allow: [] };

  constructor(readonly scope: Scope) {}

  /** Adds the rule unless the same text is already in the list; returns whether it was added. */
  add(rule: CompiledRule): boolean {
    const list = this.rules[rule.list];
    if (list.some((existing) => existing.text === rule.text)) return false;
    list.push(rule);
    return true;
  }

  remove(text: string, list: RuleList, filter: (rule: CompiledRule) => boolean = () => true): number {
    const before = this.rules[list].length;
    this.rules[list] = this.rules[list].filter((rule) => rule.text !== text.trim() || !filter(rule));
    return before - this.rules[list].length;
  }

  replaceAll(rules: readonly CompiledRule[]): void {
    this.rules.deny = [];
    this.rules.ask = [];
    this.rules.allow = [];
    for (const rule of rules) this.add(rule);
  }

  get size(): number {
    return this.rules.deny.length + this.rules.ask.length + this.rules.allow.length;
  }
}
