/**
 * Permission rule syntax (A5, Claude Code spelling): `Tool` or `Tool(pattern)`.
 *
 * Tool part: a friendly name (Bash, Read, Write, Edit, Glob, Grep), an exact registered tool
 * name (`read_file`, `mcp__fs__read`), a whole MCP server (`mcp__fs`, `mcp__fs__*`), or, in deny
 * and ask lists only, a tool-name glob (`*`, `mcp__*`) — as Claude Code, an allow glob needs a
 * literal `mcp__<server>__` prefix so one rule can never allow every tool.
 *
 * Pattern prefixes: `=` exact, `~` regex (RE2 syntax, linear time, unanchored like the seed's
 * Go `regexp.MatchString`), `!` negation (nestable, `!!x` is `x`), anything else a glob.
 * A pattern starting with `~/` (or exactly `~`) is not a regex but a home-relative glob, as in
 * Claude Code (`Read(~/.zshrc)`); a regex that starts with a slash is written `~^/…`.
 */

import { CLAUDE_TO_OURS, claudeToolName, mcpServerPrefix } from '../../sdk/claude-tool-names.js';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';

export type RuleList = 'deny' | 'ask' | 'allow';
export const RULE_LISTS: readonly RuleList[] = ['deny', 'ask', 'allow'];

/** Friendly rule names → registered tool names (A5): Claude Code's names, shared in the sdk. */
export const FRIENDLY_NAMES: Readonly<Record<string, string>> = CLAUDE_TO_OURS;

/** The name a rule for this tool is best written with: `Bash` for bash, the tool name otherwise. */
export const friendlyName = claudeToolName;

/** Friendly names whose patterns are paths. */
export const PATH_RULE_NAMES: ReadonlySet<string> = new Set(['Read', 'Write', 'Edit', 'Glob', 'Grep']);

export type ToolSpec =
  | { kind: 'name'; name: string }
  /** `mcp__server` or `mcp__server__*`: every tool of one MCP server */
  | { kind: 'server'; prefix: string }
  /** `regex` runs in linear time: a project's settings must not be able to hang a check (sdk/linear-regex). */
  | { kind: 'glob'; source: string; regex: { test(subject: string): boolean } };

export type PatternKind = 'exact' | 'regex' | 'glob';

export interface PatternSpec {
  /** Number of leading `!`; odd inverts the match. */
  negations: number;
  kind: PatternKind;
  body: string;
}

export interface ParsedRule {
  /** The rule as written, trimmed: its identity for de-duplication and revocation. */
  text: string;
  tool: ToolSpec;
  /** Undefined for a bare `Tool` (or `Tool(*)`): every call of the tool. */
  pattern: PatternSpec | undefined;
}

export type RuleParseResult = { ok: true; rule: ParsedRule } | { ok: false; error: string };

const NAME = /^[A-Za-z0-9_.*-]+$/;

export function parseRule(input: unknown, list: RuleList): RuleParseResult {
  if (typeof input !== 'string') return { ok: false, error: `a rule must be a string, found ${describeValue(input)}` };
  const text = input.trim();
  if (text === '') return { ok: false, error: 'empty rule' };
  const open = text.indexOf('(');
  let name: string;
  let patternText: string | undefined;
  if (open === -1) {
    if (text.includes(')')) return { ok: false, error: 'unbalanced ")"' };
    name = text;
  } else {
    if (!text.endsWith(')')) return { ok: false, error: 'a rule with a pattern must end with ")" (write Tool(pattern))' };
    name = text.slice(0, open).trim();
    patternText = text.slice(open + 1, -1);
    if (patternText.trim() === '') return { ok: false, error: 'empty pattern: write the bare tool name to match every call' };
  }
  if (name === '') return { ok: false, error: 'missing tool name before "("' };
  if (!NAME.test(name)) return { ok: false, error: `invalid tool name "${name}"` };

  const tool = parseToolSpec(name, list);
  if (!tool.ok) return tool;
  let pattern: PatternSpec | undefined;
  if (patternText !== undefined && patternText !== '*' && patternText !== '**') {
    const parsed = parsePattern(patternText);
    if (!parsed.ok) return parsed;
    pattern = parsed.pattern;
  }
  return { ok: true, rule: { text, tool: tool.spec, pattern } };
}

function parseToolSpec(name: string, list: RuleList): { ok: true; spec: ToolSpec } | { ok: false; error: string } {
  const server = mcpServerPrefix(name);
  if (server !== undefined) return { ok: true, spec: { kind: 'server', prefix: server } };
  if (!name.includes('*')) return { ok: true, spec: { kind: 'name', name } };
  if (list === 'allow' && !/^mcp__[^*]+?__/.test(name)) {
    return {
      ok: false,
      error: 'a tool-name wildcard in an allow rule must start with a literal mcp__<server>__ (wildcards like "*" or "mcp__*" are accepted in deny and ask only)',
    };
  }
  return { ok: true, spec: { kind: 'glob', source: name, regex: new LinearRegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`) } };
}

export function parsePattern(text: string): { ok: true; pattern: PatternSpec } | { ok: false; error: string } {
  let negations = 0;
  let rest = text;
  while (rest.startsWith('!')) {
    negations++;
    rest = rest.slice(1);
  }
  if (rest === '') return { ok: false, error: 'nothing after "!"' };
  if (rest.startsWith('=')) {
    const body = rest.slice(1);
    if (body.trim() === '') return { ok: false, error: 'nothing after "="' };
    return { ok: true, pattern: { negations, kind: 'exact', body } };
  }
  if (rest.startsWith('~') && !(rest === '~' || rest.startsWith('~/'))) {
    const body = rest.slice(1);
    return { ok: true, pattern: { negations, kind: 'regex', body } };
  }
  return { ok: true, pattern: { negations, kind: 'glob', body: rest } };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
