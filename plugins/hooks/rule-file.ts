/**
 * MewCode's own hook rule files (H2–H3): `<root>/.mewcode/hooks.yaml`, then
 * `~/.mewcode/hooks.yaml`; rules accumulate, a duplicate name is skipped with a warning. Each rule
 * is compiled on its own with the seed's 14 checks; a rule that fails one is skipped with
 * `file:line:col: hook "<name>": <problem>` and the others load (K2).
 *
 * ```yaml
 * hooks:
 *   - name: no-env-writes
 *     event: PreToolUse
 *     if: { all_of: [ { field: tool_name, match: { type: exact, value: write_file } },
 *                     { field: tool_input.path, match: { type: glob, value: "**\/.env*" } } ] }
 *     action: { type: shell, command: "echo 'no .env writes' >&2; exit 2" }
 *     timeout: 10s          # default 30s (60s for a subagent action)
 *     only_once: false      # per session; a failed run does not count
 *     async: false          # not allowed on a blocking event
 *     fail_closed: false    # a failure blocks instead of letting the action go on
 * ```
 * The project's file needs workspace trust (its whole text is what is approved).
 */
import { formatPos, toPlain, type LocatedMap, type LocatedNode } from '../../config/located.js';
import { parseConfigTextCached } from '../../config/parse-cache.js';
import { projectBoundary, readProjectTextFile, withinRoot } from '../../config/project-file.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { ruleFiles } from './files.js';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export const MEWCODE_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'SessionResume',
  'UserPromptSubmit',
  'Stop',
  'PreUserMessage',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'Notification',
  'SubagentStart',
  'SubagentStop',
] as const;
export type MewcodeEvent = (typeof MEWCODE_EVENTS)[number];

/** H1: only these can block. */
export const MEWCODE_BLOCKING: ReadonlySet<MewcodeEvent> = new Set(['PreToolUse', 'UserPromptSubmit']);

export type Match =
  | { type: 'exact'; value: string }
  /** `pattern` runs in linear time (sdk/linear-regex): a project's rule must not hang on a long payload field. */
  | { type: 'regex'; value: string; pattern: { test(subject: string): boolean } }
  | { type: 'glob'; value: string }
  | { type: 'not'; inner: Match };

export interface Atom {
  field: string;
  match: Match;
}

export interface Condition {
  mode: 'all_of' | 'any_of';
  atoms: Atom[];
}

export type RuleAction =
  | { type: 'shell'; command: string }
  | { type: 'prompt'; text: string }
  | { type: 'http'; url: string; method: string; headers: Record<string, string>; body?: string }
  /** Runs the named sub-agent with the payload; its final text becomes context (subagent-action.ts). */
  | { type: 'subagent'; agentName: string; prompt: string };

export interface MewcodeRule {
  name: string;
  event: MewcodeEvent;
  if?: Condition;
  action: RuleAction;
  onlyOnce: boolean;
  async: boolean;
  timeoutMs: number;
  failClosed: boolean;
  file: string;
  where: string;
  /** A project file's rule runs inside the OS command sandbox (shell actions). */
  sandboxed: boolean;
}

export const DEFAULT_RULE_TIMEOUT_MS = 30_000;
/** A sub-agent works for a while (Claude Code's `agent` hooks default to 60 s). */
export const DEFAULT_SUBAGENT_TIMEOUT_MS = 60_000;
const MAX_FILE_BYTES = 1024 * 1024;

class RuleError extends Error {
  constructor(
    readonly node: LocatedNode,
    message: string,
  ) {
    super(message);
  }
}

/** `30s`, `1.5s`, `500ms`, `2m` (Go's time.ParseDuration for the units a hook needs). */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return value > 0 ? value : undefined;
}

export interface LoadedRules {
  rules: MewcodeRule[];
  warnings: string[];
  files: { file: string; exists: boolean; trust: 'personal' | 'trusted' | 'untrusted'; rules: MewcodeRule[] }[];
}

export async function loadRuleFiles(projectRoot: string, homeDir: string, trust: WorkspaceTrust | undefined): Promise<LoadedRules> {
  const warnings: string[] = [];
  const rules: MewcodeRule[] = [];
  const files: LoadedRules['files'] = [];
  const names = new Map<string, { rule: MewcodeRule; project: boolean }>();
  const root = projectBoundary(projectRoot, homeDir);
  for (const { file, project } of ruleFiles(projectRoot, homeDir)) {
    const entry: LoadedRules['files'][number] = { file, exists: false, trust: project ? 'trusted' : 'personal', rules: [] };
    files.push(entry);
    const read = readProjectTextFile(file, withinRoot(project ? root : undefined, { maxBytes: MAX_FILE_BYTES }));
    if (!read.ok) {
      if (!read.missing) warnings.push(`hooks: cannot read ${file}: ${read.reason}; its rules are ignored`);
      continue;
    }
    const text = read.text;
    entry.exists = true;
    if (project && !trust?.approves(file, 'hooks', text)) {
      entry.trust = 'untrusted';
      if (!trust) warnings.push(`hooks: ${file}: this build has no workspace trust service, so the project's hook rules are not run`);
      continue;
    }
    const parsed = await parseConfigTextCached(file, text);
    if (parsed.error) {
      warnings.push(`${parsed.error}; its hook rules are ignored`);
      continue;
    }
    const list = parsed.root.entries.get('hooks');
    if (list === undefined) continue;
    if (list.kind !== 'seq') {
      warnings.push(`${formatPos(list.pos)}: hooks must be a list of rules; ${file} is ignored`);
      continue;
    }
    list.items.forEach((node, index) => {
      try {
        const rule = compileRule(node, index, file, project);
        const previous = names.get(rule.name);
        if (previous !== undefined && !(previous.project && !project)) {
          warnings.push(`${rule.where}: hook "${rule.name}" is already defined at ${previous.rule.where}; this one is skipped`);
          return;
        }
        if (previous !== undefined) {
          // A repository must not shadow the user's own rule (a guard) by reusing its name: yours wins.
          warnings.push(`${previous.rule.where}: hook "${rule.name}" is also defined in your ${rule.where}; the project's rule is skipped`);
          rules.splice(rules.indexOf(previous.rule), 1);
          const owner = files.find((f) => f.rules.includes(previous.rule));
          owner?.rules.splice(owner.rules.indexOf(previous.rule), 1);
        }
        names.set(rule.name, { rule, project });
        rules.push(rule);
        entry.rules.push(rule);
      } catch (error) {
        if (!(error instanceof RuleError)) throw error;
        const name = node.kind === 'map' ? toPlain(node.entries.get('name') ?? node) : undefined;
        warnings.push(`${formatPos(error.node.pos)}: ${typeof name === 'string' && name ? `hook "${name}"` : `hook #${index + 1}`}: ${error.message}; skipped`);
      }
    });
  }
  return { rules, warnings, files };
}

function mapOf(node: LocatedNode | undefined, what: string, at: LocatedNode): LocatedMap {
  if (node?.kind !== 'map') throw new RuleError(node ?? at, `${what} must be a mapping`);
  return node;
}

function stringAt(map: LocatedMap, key: string, message: string): string {
  const node = map.entries.get(key);
  const value = node === undefined ? undefined : toPlain(node);
  if (typeof value !== 'string' || value.trim() === '') throw new RuleError(node ?? map, message);
  return value;
}

function compileRule(node: LocatedNode, index: number, file: string, project: boolean): MewcodeRule {
  const map = mapOf(node, `hook #${index + 1}`, node);
  const nameNode = map.entries.get('name');
  const name = nameNode === undefined ? undefined : toPlain(nameNode);
  if (typeof name !== 'string' || name.trim() === '') throw new RuleError(nameNode ?? map, `hook #${index + 1}: name is required`); // 1
  const eventNode = map.entries.get('event');
  const event = eventNode === undefined ? undefined : toPlain(eventNode);
  if (typeof event !== 'string' || !(MEWCODE_EVENTS as readonly string[]).includes(event)) {
    throw new RuleError(eventNode ?? map, `unknown event ${JSON.stringify(event ?? null)} (known: ${MEWCODE_EVENTS.join(', ')})`); // 2
  }
  for (const key of map.entries.keys()) {
    if (!['name', 'event', 'if', 'action', 'only_once', 'async', 'timeout', 'fail_closed'].includes(key)) throw new RuleError(map.entries.get(key)!, `unknown key "${terminalSafe(key)}"`);
  }
  const action = compileAction(mapOf(map.entries.get('action'), 'action', map));
  const flag = (key: string): boolean => {
    const value = map.entries.get(key);
    if (value === undefined) return false;
    const plain = toPlain(value);
    if (typeof plain !== 'boolean') throw new RuleError(value, `${key} must be true or false`);
    return plain;
  };
  let timeoutMs = action.type === 'subagent' ? DEFAULT_SUBAGENT_TIMEOUT_MS : DEFAULT_RULE_TIMEOUT_MS;
  const timeoutNode = map.entries.get('timeout');
  if (timeoutNode !== undefined) {
    const raw = toPlain(timeoutNode);
    const parsed = typeof raw === 'string' ? parseDuration(raw) : undefined;
    if (parsed === undefined || parsed > 3_600_000) throw new RuleError(timeoutNode, `invalid timeout ${JSON.stringify(raw)} (e.g. "30s", "500ms", at most 1h)`); // 13
    timeoutMs = parsed;
  }
  const isAsync = flag('async');
  if (isAsync && MEWCODE_BLOCKING.has(event as MewcodeEvent)) throw new RuleError(map.entries.get('async')!, `async is not allowed on the blocking event ${event}`); // 14
  const rule: MewcodeRule = {
    name,
    event: event as MewcodeEvent,
    action,
    onlyOnce: flag('only_once'),
    async: isAsync,
    timeoutMs,
    failClosed: flag('fail_closed'),
    file,
    where: formatPos(map.pos),
    sandboxed: project,
  };
  const ifNode = map.entries.get('if');
  if (ifNode !== undefined) rule.if = compileCondition(mapOf(ifNode, 'if', map));
  return rule;
}

function compileAction(map: LocatedMap): RuleAction {
  const type = map.entries.get('type') === undefined ? undefined : toPlain(map.entries.get('type')!);
  switch (type) {
    case 'shell':
      return { type, command: stringAt(map, 'command', 'shell action requires command') }; // 4
    case 'prompt':
      return { type, text: stringAt(map, 'text', 'prompt action requires text') }; // 5
    case 'http': {
      const url = stringAt(map, 'url', 'http action requires url'); // 6
      if (!/^https?:\/\//.test(url)) throw new RuleError(map.entries.get('url')!, 'http action url must start with http:// or https://');
      const method = map.entries.get('method') === undefined ? 'POST' : stringAt(map, 'method', 'http action method must be a string').toUpperCase();
      const headersNode = map.entries.get('headers');
      const headers: Record<string, string> = {};
      if (headersNode !== undefined) {
        for (const [key, value] of Object.entries((toPlain(mapOf(headersNode, 'headers', map)) ?? {}) as Record<string, unknown>)) {
          if (typeof value !== 'string') throw new RuleError(headersNode, `header ${key} must be a string`);
          headers[key] = value;
        }
      }
      const action: RuleAction = { type, url, method, headers };
      if (map.entries.get('body') !== undefined) action.body = stringAt(map, 'body', 'http action body must be a string template');
      return action;
    }
    case 'subagent': {
      const agentName = stringAt(map, 'agent_name', 'subagent action requires agent_name'); // 7
      return { type, agentName, prompt: stringAt(map, 'prompt', 'subagent action requires prompt') };
    }
    default:
      throw new RuleError(map.entries.get('type') ?? map, `unknown action type ${JSON.stringify(type ?? null)} (expected shell, prompt, http or subagent)`); // 3
  }
}

function compileCondition(map: LocatedMap): Condition {
  const all = map.entries.get('all_of');
  const any = map.entries.get('any_of');
  if (all !== undefined && any !== undefined) throw new RuleError(map, 'if must contain all_of or any_of, not both'); // 8
  const list = all ?? any;
  if (list === undefined) throw new RuleError(map, 'if must contain all_of or any_of'); // 9
  if (list.kind !== 'seq') throw new RuleError(list, `${all ? 'all_of' : 'any_of'} must be a list`);
  return {
    mode: all ? 'all_of' : 'any_of',
    atoms: list.items.map((item) => {
      const atom = mapOf(item, 'a condition', list);
      const field = atom.entries.get('field') === undefined ? undefined : toPlain(atom.entries.get('field')!);
      if (typeof field !== 'string' || field.trim() === '') throw new RuleError(atom.entries.get('field') ?? atom, 'field is required'); // 10
      return { field, match: compileMatch(mapOf(atom.entries.get('match'), 'match', atom)) };
    }),
  };
}

function compileMatch(map: LocatedMap): Match {
  const type = map.entries.get('type') === undefined ? undefined : toPlain(map.entries.get('type')!);
  if (type === 'not') {
    const inner = map.entries.get('inner');
    if (inner === undefined) throw new RuleError(map, 'not match requires inner'); // 12
    return { type, inner: compileMatch(mapOf(inner, 'inner', map)) };
  }
  if (type !== 'exact' && type !== 'regex' && type !== 'glob') throw new RuleError(map.entries.get('type') ?? map, `unknown match type ${JSON.stringify(type ?? null)} (expected exact, regex, glob or not)`);
  const value = stringAt(map, 'value', `${type} match requires value`); // 11
  if (type !== 'regex') return { type, value };
  try {
    return { type, value, pattern: new LinearRegExp(value) };
  } catch (error) {
    throw new RuleError(map.entries.get('value')!, `invalid regex: ${(error as Error).message}`);
  }
}
