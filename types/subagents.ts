/**
 * The sub-agent runner (G1–G3): one service, bound under TOKENS.SubagentRunner by the
 * `subagents` plugin, that the `agent` tool, fork-mode skills (S6) and the hooks' `subagent`
 * action (H3) all use, so every sub-agent gets the same tool filter, permission chain, hooks,
 * iteration limits and visibility.
 */
import type { Usage } from './messages.js';
import type { AgentEvent, RunEndReason } from './events.js';
import type { PermissionMode } from './permissions.js';
import type { AgentSession, ForkContext } from './session.js';

/** A role a sub-agent can be started as: built in (`general`, `explore`) or from a definition file. */
export interface SubagentRole {
  name: string;
  description: string;
  /** `builtin`, or the definition file's path. */
  source: string;
  /** Allowed tools as written (Claude Code's names accepted); undefined = every tool. */
  tools?: readonly string[];
  disallowedTools?: readonly string[];
  /** A configured provider name or a model name. */
  model?: string;
  /** Only tools whose `readOnly` is true (the `explore` role). */
  readOnly?: boolean;
}

/**
 * Claude Code's names of the types MewCode has under its own: a payload says these (Claude Code's
 * spelling), and a hook matcher matches them as well as ours.
 */
const CLAUDE_TYPE_NAMES: Readonly<Record<string, string>> = { general: 'general-purpose', explore: 'Explore' };

/**
 * Claude Code's built-in types MewCode has none of by that name, and the role that does their
 * work: `general-purpose` is `general`; `Plan` (a read-only researcher for plan mode) is `explore`.
 */
const FROM_CLAUDE_TYPES: Readonly<Record<string, string>> = { 'general-purpose': 'general', plan: 'explore' };

/** A type as Claude Code spells it (`explore` is `Explore`); other names as they are. */
export function claudeAgentType(name: string): string {
  return Object.hasOwn(CLAUDE_TYPE_NAMES, name) ? CLAUDE_TYPE_NAMES[name]! : name;
}

/** Every name a type answers to: ours and Claude Code's (what a SubagentStart matcher is tested against). */
export function agentTypeNames(name: string): string[] {
  const claude = claudeAgentType(name);
  return claude === name ? [name] : [name, claude];
}

/**
 * The role a type name names, wherever one is written (an `agent:` key, the agent tool's
 * `subagent_type`, `Agent(…)` rules): the exact name, else the same name without case (`Explore`
 * is `explore`), else Claude Code's built-in type MewCode does under another name
 * (`general-purpose` is `general`, `Plan` is `explore`). Undefined when no role has that name: the
 * caller must then not run the item at all (a fork with every tool would be more than its author asked for).
 */
export function findRole<Role extends SubagentRole>(roles: readonly Role[], name: string): Role | undefined {
  const wanted = name.trim();
  const folded = wanted.toLowerCase();
  const mapped = Object.hasOwn(FROM_CLAUDE_TYPES, folded) ? FROM_CLAUDE_TYPES[folded] : undefined;
  return roles.find((role) => role.name === wanted) ?? roles.find((role) => role.name.toLowerCase() === folded) ?? (mapped === undefined ? undefined : roles.find((role) => role.name === mapped));
}

/** The refusal for an `agent:` naming no role: file, key, the name and the names there are. */
export function unknownAgentMessage(file: string, name: string, roles: readonly SubagentRole[]): string {
  return `${file}: agent: "${name}" names no sub-agent type (available: ${roles.map((role) => role.name).join(', ') || 'none'}); not run, so that it never runs with more tools than its author chose`;
}

export interface SubagentRequest {
  /** The delegating session; default: the kernel's main session. */
  parent?: AgentSession;
  prompt: string;
  /** A role name (`subagent_type`); default `general`. An unknown name is an error result. */
  role?: string;
  /** A short label (the `agent` tool's `description`), shown in events and task lists. */
  description?: string;
  /** How much of the parent's history the sub-agent starts with (default `none`). */
  context?: ForkContext;
  /** Only tools whose `readOnly` is true, whatever the role allows (a hook's verifier). */
  readOnly?: boolean;
  /** A hard allowlist of tool names, applied after the role's own filter (system tools exempt). */
  allowedTools?: readonly string[];
  /** Tools the sub-agent is not given, added to the role's own (a fork-mode skill's or command's `disallowed-tools`). */
  disallowedTools?: readonly string[];
  /** System-prompt parts added after the role's prompt (e.g. a fork-mode skill's body). */
  systemPrompt?: readonly string[];
  /** A configured provider name or model, overriding the role's. */
  model?: string;
  /** The permission mode the sub-agent runs in (default: the parent's current mode). */
  mode?: PermissionMode;
  signal?: AbortSignal;
  /** Runs as a background task: the background allowlist applies (G2 step 3). */
  background?: boolean;
  /** The sub-agent's id, chosen by the caller (a background task's id); default: a new one. */
  agentId?: string;
}

export interface SubagentResult {
  agentId: string;
  /** The sub-agent's final text: all that returns to the parent. */
  text: string;
  endReason: RunEndReason;
  isError: boolean;
  usage: Usage;
  iterations: number;
}

/** What a sub-agent is doing, for user interfaces: each event of its run, tagged with who said it. */
export interface SubagentEvent {
  agentId: string;
  parentAgentId: string;
  role: string;
  description?: string;
  /** Set when the sub-agent runs as a background task. */
  taskId?: string;
  event: AgentEvent;
}

export interface SubagentRunner {
  /** The roles that can be started, sorted by name (project definitions win over user ones). */
  roles(): readonly SubagentRole[];
  /** Run a sub-agent to completion and return its final text. Never throws for a run failure. */
  run(request: SubagentRequest): Promise<SubagentResult>;
  /** Every sub-agent's events as they happen (UIs show them; headless stream-json tags them). Returns how to stop listening. */
  subscribe?(listener: (event: SubagentEvent) => void): () => void;
}
