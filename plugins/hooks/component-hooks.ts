/**
 * A skill's, a command file's or a sub-agent definition's own `hooks:` (TOKENS.ComponentHooks):
 * the frontmatter's `hooks` value, read by the settings files' parser (settings.ts: the same
 * events, matchers and handlers, the same warnings naming file, line and key) and run for as long
 * as the component is active, for its agent's events and its sub-agents' only (HookRule.within).
 * Claude Code's `once: true` is read here (a handler runs once per session), and a component that
 * runs as a sub-agent has its `Stop` hooks run as `SubagentStop`, as Claude Code does.
 *
 * Whose file it is and whether the project trusts it is the caller's to judge (it read the file);
 * a project's file's commands run as a project's settings hooks do: in the OS sandbox when one is
 * active. The dispatcher and its taps are made at the first activation (runtime.ts).
 */
import { parseConfigText } from '../../config/parse-file.js';
import type { LocatedNode, SourcePos } from '../../config/located.js';
import { normaliseText, readFrontmatter, splitFrontmatter } from '../../sdk/frontmatter.js';
import type { ComponentHookFile, ComponentHooks, ComponentHookScope } from '../../types/component-hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import { compileConditions } from './conditions.js';
import { applyComponentHooks, type ComponentRules } from './runtime.js';
import { parseHooks, type HookRule } from './settings.js';

/** A plain value as located nodes, all at one place (a frontmatter only a lenient reader could read). */
function locatedAt(value: unknown, pos: SourcePos): LocatedNode {
  if (Array.isArray(value)) return { kind: 'seq', pos, items: value.map((item) => locatedAt(item, pos)) };
  if (typeof value === 'object' && value !== null) return { kind: 'map', pos, entries: new Map(Object.entries(value).map(([key, item]) => [key, locatedAt(item, pos)])) };
  return { kind: 'scalar', pos, value };
}

/** The frontmatter's `hooks` value, each node at its line of the file; undefined when there is none. */
async function hooksNode(file: string, text: string): Promise<LocatedNode | undefined> {
  const split = splitFrontmatter(normaliseText(text));
  if (!split?.hasFrontmatter) return undefined;
  // The frontmatter starts on the file's second line: one empty line first keeps the file's line numbers.
  const parsed = parseConfigText(file, `\n${split.yaml}`);
  if (parsed.error === undefined) return parsed.root.entries.get('hooks');
  // Not strict YAML (Claude Code's lenient reading): the value as the lenient reader gives it, at its key's line.
  const lenient = await readFrontmatter(text);
  if (!lenient.ok || lenient.data.hooks === undefined) return undefined;
  return locatedAt(lenient.data.hooks, { file, line: lenient.keyLines.hooks ?? 1, col: 1 });
}

/** The file's valid rules (`warnings` gets the rest), not yet bound to an agent. */
async function rulesOf(file: ComponentHookFile, warnings: string[]): Promise<HookRule[]> {
  const node = await hooksNode(file.file, file.text);
  if (node === undefined || (node.kind === 'scalar' && node.value === null)) return [];
  const project = file.scope === 'project';
  const rules = parseHooks(node, project ? 'project' : 'user', file.file, warnings, project, { once: true });
  return file.variables ? rules.map((rule) => ({ ...rule, plugin: { id: file.file, env: file.variables! } })) : rules;
}

export class ComponentHookRunner implements ComponentHooks {
  #applied: ComponentRules | undefined;

  constructor(
    private readonly kernel: KernelApi,
    private readonly env: NodeJS.ProcessEnv,
    private readonly startedAt: number,
  ) {}

  async check(file: ComponentHookFile): Promise<string[]> {
    const warnings: string[] = [];
    const rules = await rulesOf(file, warnings);
    // An `if` that is not a permission rule is said too, as for a settings file's handler.
    await compileConditions(this.kernel, rules, (message) => warnings.push(message));
    return warnings;
  }

  async activate(file: ComponentHookFile, scope: ComponentHookScope): Promise<() => void> {
    // The problems were said when the file was loaded (check): here they are only left out.
    const quiet: string[] = [];
    const within = { sessionId: scope.sessionId, agentId: scope.agentId };
    const parsed = (await rulesOf(file, quiet)).map((rule): HookRule => ({ ...rule, within, ...(scope.asSubagent && rule.event === 'Stop' ? { event: 'SubagentStop' as const } : {}) }));
    if (parsed.length === 0) return () => undefined;
    const { rules: added, conditions } = await compileConditions(this.kernel, parsed, (message) => quiet.push(message));
    const applied = (this.#applied ??= applyComponentHooks(this.kernel, this.env, this.startedAt));
    for (const [rule, matcher] of conditions) applied.conditions.set(rule, matcher);
    applied.rules.push(...added);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const rule of added) {
        const index = applied.rules.indexOf(rule);
        if (index >= 0) applied.rules.splice(index, 1);
        applied.conditions.delete(rule);
      }
    };
  }

  close(): void {
    this.#applied?.close();
    this.#applied = undefined;
  }
}
