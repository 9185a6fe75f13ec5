/**
 * Claude Code's parameter rules: `Agent(model:opus)`, `Bash(run_in_background:true)`,
 * `Agent(run_in_background:true)` — in deny and ask lists only, they match a call whose top-level
 * scalar input parameter of that name has that value (a glob: `model:*opus*`). The name must be a
 * parameter of the tool (its input schema lists it), and not the field the rule's ordinary pattern
 * is matched against (the command, the path, the sub-agent type): `Bash(git:*)` stays a command
 * prefix rule, since bash has no `git` parameter. In an allow list such a rule can never match
 * (Claude Code does not allow by parameter): permission-rules.ts warns about it at load.
 */
import type { PermissionRequest } from '../../types/permissions.js';
import type { Tool, ToolInput } from '../../types/tools.js';
import { compileCommandTest, type Test } from './matchers.js';
import type { CompiledRule } from './rule-set.js';

const PARAM = /^([A-Za-z_][A-Za-z0-9_]*):(.+)$/s;

/** `key:value` of a rule's pattern, when it has that shape (un-negated glob); else undefined. */
export function paramForm(rule: CompiledRule): { key: string; value: string } | undefined {
  const pattern = rule.parsed.pattern;
  if (!pattern || pattern.negations !== 0 || pattern.kind !== 'glob') return undefined;
  const match = PARAM.exec(pattern.body.trim());
  return match ? { key: match[1]!, value: match[2]!.trim() } : undefined;
}

/** Whether the tool's input schema lists this top-level parameter. */
export function toolHasParam(tool: Pick<Tool, 'inputSchema'> | undefined, key: string): boolean {
  const properties = tool?.inputSchema?.properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, key);
}

/** The string the rule's ordinary pattern is matched against: never a parameter rule's subject. */
function primaryValue(request: PermissionRequest): string | undefined {
  const target = request.target;
  if (target.kind === 'command') return target.command;
  if (target.kind === 'path') return target.path;
  if (target.kind === 'named') return target.name;
  return undefined;
}

/** The key this rule tests for this call, when it is a parameter rule for it; else undefined. */
export function paramKeyFor(rule: CompiledRule, request: PermissionRequest): { key: string; value: string } | undefined {
  if (rule.list === 'allow') return undefined;
  const form = paramForm(rule);
  if (!form || !toolHasParam(request.tool, form.key)) return undefined;
  const primary = primaryValue(request);
  const given = request.input[form.key];
  if (primary !== undefined && given === primary) return undefined;
  return form;
}

const tests = new WeakMap<CompiledRule, Test>();

/** Whether the call's parameter has the rule's value (scalars only: strings, numbers, booleans). */
export function matchesParam(rule: CompiledRule, form: { key: string; value: string }, input: ToolInput): boolean {
  const given = input[form.key];
  if (typeof given !== 'string' && typeof given !== 'number' && typeof given !== 'boolean') return false;
  let test = tests.get(rule);
  if (!test) {
    test = compileCommandTest({ negations: 0, kind: 'glob', body: form.value });
    tests.set(rule, test);
  }
  return test(String(given));
}
