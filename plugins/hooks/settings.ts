/**
 * User hook rules in Claude Code's settings shape, read from MewCode's settings files:
 *   ~/.mewcode/settings.yaml, <root>/.mewcode/settings.yaml, <root>/.mewcode/settings.local.yaml
 * (YAML or JSON content) and, at the same scopes, Claude Code's own ~/.claude/settings.json,
 * <root>/.claude/settings.json, <root>/.claude/settings.local.json (files.ts), under `hooks: { <Event>: [ { matcher, hooks: [ { type: command,
 * command, timeout, async } | { type: http, url, headers, timeout } | { type: agent, prompt,
 * model, timeout } ] } ] }` — exactly as Claude Code documents it for settings.json; a handler's
 * `if` (a permission rule, tool events only) narrows it to the calls that rule matches.
 *
 * A bad entry is skipped with a message naming the file, line and key (K2); the rest load.
 * Project files (the shared one and the local one, whatever git says of it) apply only when the
 * workspace trust service approves their `hooks` value; without a trust service they are
 * untrusted (fail closed). Identical handlers from several files run once (as in Claude Code).
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import { formatPos, toPlain, type LocatedMap, type LocatedNode } from '../../config/located.js';
import { parseConfigTextCached } from '../../config/parse-cache.js';
import { projectBoundary } from '../../config/project-file.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { CLAUDE_EVENTS, TOOL_EVENTS, UNSUPPORTED_EVENTS, type ClaudeEvent } from './events.js';
import { hookSettingsFiles, type HookScope } from './files.js';
import { LinearRegExp, UnsupportedRegExp } from '../../sdk/linear-regex/index.js';
import { readConfigFile } from '../../config/config-file.js';

/** Claude Code's `http` handler: the payload POSTed as JSON; a 2xx JSON answer is the hook's output. */
export interface HttpHandler {
  type: 'http';
  url: string;
  headers: Record<string, string>;
  /** Claude Code's: the environment variables `$VAR` / `${VAR}` in `headers` may name (header-env.ts). */
  allowedEnvVars?: string[];
  timeoutSec?: number;
  async: boolean;
  sandbox: false;
}

/** Claude Code's `agent` handler: a read-only sub-agent verifies the event and answers {ok, reason}. */
export interface AgentHandler {
  type: 'agent';
  prompt: string;
  model?: string;
  /** A sub-agent role (MewCode's extension; default explore). */
  agent?: string;
  timeoutSec?: number;
  async: boolean;
  sandbox: false;
}

export interface CommandHandler {
  type: 'command';
  /** The shell command line, or with `args` the program (exec form). */
  command: string;
  /**
   * Claude Code's exec form: `command` is the program (found on PATH) and these its arguments,
   * passed as they are with no shell (run-command.ts); `${CLAUDE_PROJECT_DIR}`,
   * `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are filled in, nothing else (no `~`, no `$VAR`).
   */
  args?: string[];
  /** Seconds, as Claude Code (default per event: events.ts). */
  timeoutSec?: number;
  /** Run in the background: never blocks, its output is only logged. */
  async: boolean;
  /** `sandbox: true`: run inside the OS command sandbox even though it is the user's own hook. */
  sandbox: boolean;
}

export interface HookRule {
  /** `<file>:<line>` of the handler, plus its index: how the log and notices name it. */
  name: string;
  event: ClaudeEvent;
  /** Claude Code's matcher string ('' = all). */
  matcher: string;
  /**
   * The handler's `if`: one permission-rule string (`Bash(git push *)`) a tool call must match for
   * the handler to run, matched as the permission rules match (runtime.ts). Tool events only.
   */
  if?: string;
  handler: CommandHandler | HttpHandler | AgentHandler;
  scope: HookScope;
  file: string;
  /** A Claude Code plugin's hook: its id, and what its command processes get in their environment (CLAUDE_PLUGIN_ROOT…). */
  plugin?: { id: string; env: Readonly<Record<string, string>> };
  /**
   * Runs inside the OS command sandbox (when one is active): always for a project's hooks (a
   * repository's commands), for the user's own only with `sandbox: true` — they are the user's
   * code, as in Claude Code, and often need the network or files outside the project. (While
   * the project is untrusted every command hook runs contained anyway: containment.ts.)
   */
  sandboxed: boolean;
  /**
   * Why the handler cannot run (a malformed `args`, said in a warning at load). It stays a rule so
   * that a guard is not silently dropped: on PreToolUse and UserPromptSubmit it refuses what it
   * matches (dispatcher.ts), elsewhere it does nothing.
   */
  unrunnable?: string;
  /** A skill's, command's or agent's own hook (component-hooks.ts): it runs for this agent's events (and its sub-agents') only. */
  within?: { sessionId: string; agentId: string };
  /** Claude Code's `once: true` (a component's frontmatter only): it runs once per session. */
  once?: boolean;
}

export interface HookSource {
  scope: HookScope;
  file: string;
  exists: boolean;
  /** `trusted`, `untrusted` (skipped), or `personal` (the user's own file needs no trust). */
  trust: 'personal' | 'trusted' | 'untrusted';
  rules: HookRule[];
}

export interface LoadedHooks {
  rules: HookRule[];
  sources: HookSource[];
  warnings: string[];
}

const PREFIX = 'hooks:';

/** A project's files must be regular files really inside it (config/project-file.ts); the user's may be links. */
function readText(file: string, root: string | undefined, warnings: string[]): string | undefined {
  const read = readConfigFile(file, root);
  if (read.ok) return read.text;
  if (!read.missing) warnings.push(`${PREFIX} cannot read ${file}: ${read.reason}; its hooks are ignored`);
  return undefined;
}

export async function loadHookRules(projectRoot: string, homeDir: string, trust: WorkspaceTrust | undefined): Promise<LoadedHooks> {
  const warnings: string[] = [];
  const sources: HookSource[] = [];
  const seen = new Set<string>();
  const rules: HookRule[] = [];
  const root = projectBoundary(projectRoot, homeDir);
  for (const { scope, file } of hookSettingsFiles(projectRoot, homeDir)) {
    const source: HookSource = { scope, file, exists: false, trust: 'personal', rules: [] };
    sources.push(source);
    const text = readText(file, scope === 'user' ? undefined : root, warnings);
    if (text === undefined) continue;
    source.exists = true;
    const parsed = await parseConfigTextCached(file, text);
    if (parsed.error) {
      warnings.push(`${parsed.error}; its hooks are ignored`);
      continue;
    }
    const node = parsed.root.entries.get('hooks');
    if (node === undefined || (node.kind === 'scalar' && node.value === null)) continue;
    // A local file is the project's (nothing shows the user wrote it); only ~/.mewcode is the user's.
    const projectScope = scope !== 'user' && trust?.scopeOf(file) !== 'user';
    if (projectScope) {
      // The trust service lists what it refused in its one notice.
      if (!trust?.approves(file, 'hooks', toPlain(node))) {
        source.trust = 'untrusted';
        if (!trust) warnings.push(`${PREFIX} ${formatPos(node.pos)}: this build has no workspace trust service, so the project's hooks are not run`);
        continue;
      }
      source.trust = 'trusted';
    }
    for (const rule of parseHooks(node, scope, file, warnings, projectScope)) {
      const key = JSON.stringify([rule.event, rule.matcher, rule.if ?? null, rule.handler]);
      if (seen.has(key)) continue; // the same handler in several files runs once
      seen.add(key);
      source.rules.push(rule);
      rules.push(rule);
    }
  }
  return { rules, sources, warnings };
}

/** `once`: the handler key Claude Code reads in a skill's or agent's frontmatter only (component-hooks.ts). */
export function parseHooks(node: LocatedNode, scope: HookScope, file: string, warnings: string[], projectScope: boolean, options: { once?: boolean } = {}): HookRule[] {
  const where = (n: LocatedNode): string => formatPos(n.pos);
  if (node.kind !== 'map') {
    warnings.push(`${PREFIX} ${where(node)}: hooks must be a mapping of event names (PreToolUse, Stop, …) to matcher groups; ignored`);
    return [];
  }
  const rules: HookRule[] = [];
  for (const [event, groups] of (node as LocatedMap).entries) {
    // A key the file chose, shown on one line: a newline in it must not start a line of its own.
    const shownEvent = terminalSafe(event);
    if (UNSUPPORTED_EVENTS.includes(event)) {
      warnings.push(`${PREFIX} ${where(groups)}: hook event "${shownEvent}" (Claude Code's) is not supported by MewCode yet, so its hooks are not run (supported: ${CLAUDE_EVENTS.join(', ')}); skipped`);
      continue;
    }
    if (!(CLAUDE_EVENTS as readonly string[]).includes(event)) {
      warnings.push(`${PREFIX} ${where(groups)}: unknown hook event "${terminalSafe(event)}" (known: ${CLAUDE_EVENTS.join(', ')}); skipped`);
      continue;
    }
    if (groups.kind !== 'seq') {
      warnings.push(`${PREFIX} ${where(groups)}: hooks.${shownEvent} must be a list of { matcher, hooks: [...] }; skipped`);
      continue;
    }
    groups.items.forEach((group, groupIndex) => {
      if (group.kind !== 'map') {
        warnings.push(`${PREFIX} ${where(group)}: hooks.${shownEvent}[${groupIndex}] must be a mapping with "hooks"; skipped`);
        return;
      }
      const matcherNode = group.entries.get('matcher');
      const matcher = matcherNode === undefined ? '' : toPlain(matcherNode);
      if (typeof matcher !== 'string') {
        warnings.push(`${PREFIX} ${where(matcherNode!)}: hooks.${shownEvent}[${groupIndex}].matcher must be a string; the group is skipped`);
        return;
      }
      const invalid = matcherError(matcher);
      if (invalid !== undefined) {
        warnings.push(`${PREFIX} ${where(matcherNode!)}: hooks.${shownEvent}[${groupIndex}].matcher ${JSON.stringify(matcher)} ${invalid}; the group is skipped`);
        return;
      }
      const handlers = group.entries.get('hooks');
      if (handlers?.kind !== 'seq') {
        warnings.push(`${PREFIX} ${where(handlers ?? group)}: hooks.${shownEvent}[${groupIndex}].hooks must be a list of handlers; the group is skipped`);
        return;
      }
      handlers.items.forEach((handlerNode, handlerIndex) => {
        const label = `hooks.${shownEvent}[${groupIndex}].hooks[${handlerIndex}]`;
        const parsed = parseHandler(handlerNode, label, warnings, options.once === true);
        if (!parsed) return;
        const onceNode = options.once === true && handlerNode.kind === 'map' ? handlerNode.entries.get('once') : undefined;
        const once = onceNode !== undefined && toPlain(onceNode) === true;
        const { handler, unrunnable } = parsed;
        const condition = parseIf(handlerNode, event as ClaudeEvent, label, warnings);
        if (condition === null) return;
        rules.push({ name: where(handlerNode), event: event as ClaudeEvent, matcher, ...(condition !== undefined ? { if: condition } : {}), handler, scope, file, sandboxed: projectScope || handler.sandbox, ...(unrunnable !== undefined ? { unrunnable } : {}), ...(once ? { once } : {}) });
      });
    });
  }
  return rules;
}

/**
 * A handler's `if`: undefined when it has none, null when the handler is skipped (said in a
 * warning): an `if` that is not a string, or one on an event that is not a tool event, where
 * Claude Code never runs such a handler. Whether the string is a rule is checked at load
 * (runtime.ts), by the permission rules' own parser.
 */
function parseIf(node: LocatedNode, event: ClaudeEvent, label: string, warnings: string[]): string | undefined | null {
  if (node.kind !== 'map') return undefined;
  const value = node.entries.get('if');
  if (value === undefined) return undefined;
  const text = toPlain(value);
  if (typeof text !== 'string' || text.trim() === '') {
    warnings.push(`${PREFIX} ${formatPos(value.pos)}: ${label}.if must be one permission rule, like "Bash(git push *)"; the handler is skipped`);
    return null;
  }
  if (!TOOL_EVENTS.has(event)) {
    warnings.push(`${PREFIX} ${formatPos(value.pos)}: ${label}.if is evaluated only on tool events (${[...TOOL_EVENTS].join(', ')}); a ${terminalSafe(event)} handler with one never runs (as in Claude Code): skipped`);
    return null;
  }
  return text.trim();
}

/** Why a matcher cannot be used, or undefined. A regex is matched in linear time (events.ts), so one needing backtracking (a backreference, lookbehind) is refused. */
function matcherError(matcher: string): string | undefined {
  if (matcher === '' || matcher === '*' || /^[A-Za-z0-9_\-\s,|]+$/.test(matcher)) return undefined;
  try {
    new LinearRegExp(matcher.trim());
    return undefined;
  } catch (error) {
    if (error instanceof UnsupportedRegExp) return `is refused: ${error.message} cannot be matched in linear time`;
    return 'is not a valid regular expression';
  }
}

function parseHandler(node: LocatedNode, label: string, warnings: string[], onceAllowed: boolean): { handler: CommandHandler | HttpHandler | AgentHandler; unrunnable?: string } | undefined {
  const where = formatPos(node.pos);
  const value = toPlain(node) as Record<string, unknown> | unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    warnings.push(`${PREFIX} ${where}: ${label} must be a mapping like { type: command, command: "…" }; skipped`);
    return undefined;
  }
  const entry = value as Record<string, unknown>;
  let handler: CommandHandler | HttpHandler | AgentHandler;
  let unrunnable: string | undefined;
  if (entry.type === 'http') {
    if (typeof entry.url !== 'string' || !/^https?:\/\//.test(entry.url)) {
      warnings.push(`${PREFIX} ${where}: ${label}: url must be an http:// or https:// URL; skipped`);
      return undefined;
    }
    const headers = entry.headers ?? {};
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
      warnings.push(`${PREFIX} ${where}: ${label}: headers must map names to strings; skipped`);
      return undefined;
    }
    const allowed = entry.allowedEnvVars;
    if (allowed !== undefined && (!Array.isArray(allowed) || allowed.some((name) => typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)))) {
      warnings.push(`${PREFIX} ${where}: ${label}: allowedEnvVars must be a list of environment variable names; skipped`);
      return undefined;
    }
    handler = { type: 'http', url: entry.url, headers: headers as Record<string, string>, async: entry.async === true, sandbox: false, ...(allowed !== undefined ? { allowedEnvVars: allowed as string[] } : {}) };
  } else if (entry.type === 'command') {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') {
      warnings.push(`${PREFIX} ${where}: ${label}: command must be a non-empty string; skipped`);
      return undefined;
    }
    handler = { type: 'command', command: entry.command, async: entry.async === true, sandbox: entry.sandbox === true };
    if (entry.args !== undefined) {
      const argsNode = node.kind === 'map' ? node.entries.get('args') : undefined;
      if (!Array.isArray(entry.args) || entry.args.some((arg) => typeof arg !== 'string')) {
        // Run without its arguments, `bash` or `python3` would read the payload as a program.
        const why = 'args must be a list of strings (exec form: command is the program, args its arguments)';
        warnings.push(`${PREFIX} ${formatPos((argsNode ?? node).pos)}: ${label}: ${why}; the handler does not run (a PreToolUse or UserPromptSubmit one refuses what it matches)`);
        unrunnable = 'its args is not a list of strings';
      } else handler.args = entry.args as string[];
    }
  } else if (entry.type === 'agent') {
    if (typeof entry.prompt !== 'string' || entry.prompt.trim() === '') {
      warnings.push(`${PREFIX} ${where}: ${label}: prompt must be a non-empty string; skipped`);
      return undefined;
    }
    if ((entry.model !== undefined && typeof entry.model !== 'string') || (entry.agent !== undefined && typeof entry.agent !== 'string')) {
      warnings.push(`${PREFIX} ${where}: ${label}: model and agent must be names; skipped`);
      return undefined;
    }
    handler = { type: 'agent', prompt: entry.prompt, async: entry.async === true, sandbox: false, ...(entry.model ? { model: entry.model } : {}), ...(entry.agent ? { agent: entry.agent } : {}) };
  } else {
    warnings.push(`${PREFIX} ${where}: ${label}: type ${JSON.stringify(entry.type)} is not supported (command, http and agent are; prompt and mcp_tool handlers are not built yet); skipped`);
    return undefined;
  }
  if (entry.timeout !== undefined) {
    if (typeof entry.timeout !== 'number' || !(entry.timeout > 0) || entry.timeout > 3600) {
      warnings.push(`${PREFIX} ${where}: ${label}: timeout must be a number of seconds above 0 and at most 3600; skipped`);
      return undefined;
    }
    handler.timeoutSec = entry.timeout;
  }
  for (const key of Object.keys(entry)) {
    if (!['type', 'if', 'command', 'args', 'url', 'headers', 'allowedEnvVars', 'timeout', 'async', 'statusMessage', 'sandbox', 'prompt', 'model', 'agent', ...(onceAllowed ? ['once'] : [])].includes(key)) warnings.push(`${PREFIX} ${where}: ${label}: unknown key "${terminalSafe(key)}" is ignored`);
  }
  for (const [key, type] of [['args', 'command'], ['allowedEnvVars', 'http']] as const) {
    if (entry[key] !== undefined && handler.type !== type) warnings.push(`${PREFIX} ${where}: ${label}: "${terminalSafe(key)}" is for ${type} handlers and is ignored here`);
  }
  return { handler, ...(unrunnable !== undefined ? { unrunnable } : {}) };
}
