/**
 * `disallowed-tools` of a SKILL.md or a command file (Claude Code's key): each entry is a deny
 * rule for as long as the skill or command is in force — `Write` takes the tool, `Bash(rm:*)` the
 * calls a deny rule of that text would match (any segment of a compound command, through wrappers,
 * and a command the parser cannot see through). Entries are matched by the permission rules' own
 * matcher (PermissionSettings.ruleMatcher); a build without it, or an entry that is not a rule,
 * denies every call of the entry's tool: a restriction its author wrote is never loosened.
 *
 * The answer is a preToolUse `deny`, which no later tap, mode, allow rule or approval lifts. It
 * covers the agent the skill or command is in force for and that agent's sub-agents.
 */
import type { ToolUseContext, ToolUseDecision } from '../types/hooks.js';
import type { KernelApi } from '../types/plugin.js';
import type { PermissionRuleMatcher, PermissionSettings } from '../types/services.js';
import { TOKENS } from '../types/tokens.js';
import { fromClaudeToolName, mcpServerPrefix } from './claude-tool-names.js';
import { nodeCrypto } from './lazy-builtin.js';

/** One item's `disallowed-tools`: its entries as written, who says so, and whose file it is (rules' `/x` base). */
export interface DenyList {
  entries: readonly string[];
  /** Named in the refusal: `/deploy (…/deploy.md)`, `skill "audit" (…/SKILL.md)`. */
  label: string;
  base: 'user' | 'project';
}

type Match = (subject: { toolName: string; context: ToolUseContext; input: ToolUseDecision['input'] }) => Promise<boolean>;

/** Claude Code's editing names: `Edit` takes every editing tool, as its rules do. */
const EDITING = new Set(['Edit', 'MultiEdit', 'NotebookEdit']);

/** The registered tools an entry's name takes (`Write`, `write_file`, `mcp__github`, `*`). */
export function entryNamesTool(entry: string, toolName: string): boolean {
  const name = entry.replace(/\(.*\)$/s, '').trim();
  if (name === '*') return true;
  const server = mcpServerPrefix(name);
  if (server !== undefined) return toolName.startsWith(server);
  if (EDITING.has(name)) return toolName === 'edit_file' || toolName === 'write_file';
  return fromClaudeToolName(name) === toolName;
}

/** Entries with no argument (`Write`, `Bash`): a sub-agent is not given these tools at all. */
export function wholeToolEntries(entries: readonly string[]): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    const bare = entry.trim();
    if (!bare || bare.includes('(')) continue;
    const name = EDITING.has(bare) ? ['edit_file', 'write_file'] : [fromClaudeToolName(bare)];
    for (const one of name) if (!names.includes(one)) names.push(one);
  }
  return names;
}

/** A fresh sub-agent id, so a fork's deny can name the agent before it starts. */
export function forkAgentId(): string {
  return `agent-${nodeCrypto().randomBytes(4).toString('hex')}`;
}

export class ToolDenials {
  readonly #compiled = new Map<string, Promise<Match>>();

  constructor(private readonly kernel: Pick<KernelApi, 'container' | 'projectRoot'>) {}

  /** The first entry of `lists` the call matches, with its list's label; undefined when none does. */
  async find(lists: readonly DenyList[], context: ToolUseContext, input: ToolUseDecision['input']): Promise<{ entry: string; label: string } | undefined> {
    const toolName = context.call.name;
    for (const list of lists) {
      for (const entry of list.entries) {
        // A rule only ever matches calls of the tool it names: the cheap test first.
        if (!entryNamesTool(entry, toolName)) continue;
        const match = await this.matcher(entry, list.base);
        let hit: boolean;
        try {
          hit = await match({ toolName, context, input });
        } catch {
          hit = true;
        }
        if (hit) return { entry, label: list.label };
      }
    }
    return undefined;
  }

  /** preToolUse: a deny when a list takes the call; otherwise the decision as it was. */
  async decide(decision: ToolUseDecision, context: ToolUseContext, lists: readonly DenyList[]): Promise<ToolUseDecision> {
    if (lists.length === 0 || decision.decision === 'deny') return decision;
    const found = await this.find(lists, context, decision.input ?? context.input);
    if (!found) return decision;
    return {
      ...decision,
      decision: 'deny',
      by: 'disallowed-tools',
      reason: `${found.label} disallows this tool call (disallowed-tools: ${found.entry}); do not retry it, use another approach`,
    };
  }

  private matcher(entry: string, base: 'user' | 'project'): Promise<Match> {
    const key = `${base}\u0000${entry}`;
    let match = this.#compiled.get(key);
    if (!match) {
      match = this.compile(entry, base);
      this.#compiled.set(key, match);
    }
    return match;
  }

  private async compile(entry: string, base: 'user' | 'project'): Promise<Match> {
    const whole: Match = async ({ toolName }) => entryNamesTool(entry, toolName);
    // No argument: the whole tool, whatever a matcher would say.
    if (!entry.includes('(')) return whole;
    const { container } = this.kernel;
    const settings = container.isBound(TOKENS.PermissionSettings) ? container.get<PermissionSettings>(TOKENS.PermissionSettings) : undefined;
    if (!settings?.ruleMatcher) return whole;
    let compiled: PermissionRuleMatcher | { error: string };
    try {
      compiled = await settings.ruleMatcher(entry, base);
    } catch {
      return whole;
    }
    if ('error' in compiled) return whole;
    const rule = compiled;
    return ({ toolName, context, input }) => rule.matches({ toolName, tool: context.tool, input, projectRoot: this.kernel.projectRoot });
  }
}
