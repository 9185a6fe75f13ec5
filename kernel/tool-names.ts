/**
 * Which names a plugin's tool may take. A tool's name is what permission rules (`Bash(rm *)`,
 * `mcp__github__*`), hooks' matchers and the user read, and they compare it as written: a tool
 * whose name only looks like another's would be judged as a stranger and shown as the real one.
 * So a plugin's tool name is:
 * - plain ASCII, `^[a-zA-Z0-9_-]{1,64}$` (what the Anthropic API and OpenAI accept): no Cyrillic
 *   `а` in `bаsh`, no zero-width joiner, no full-width or other NFKC variant, no space;
 * - not Claude Code's name for a tool in any case (`Read`, `BASH`, `WebFetch`, `task`), unless it
 *   is exactly the registered name that Claude name stands for (`bash`, `grep`, `agent`): rules
 *   and matchers read `Read` as read_file, so a tool called `Read` would escape a `Read(…)` deny;
 * - outside `mcp__`, whatever its case, which is the MCP servers' namespace (`mcp__server__*`
 *   rules): of the configured plugins only the MCP plugin (`mcp`, or one that replaces it)
 *   registers there; the build's own plugins may (a custom build's bridge);
 * - (checked by the registry, which knows the names) not another registered name in another case.
 */
import { CLAUDE_ONLY_TOOLS, CLAUDE_TO_OURS } from '../types/claude-tool-names.js';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MCP_PREFIX = 'mcp__';

/** The plugin that owns the `mcp__` namespace. */
export const MCP_PLUGIN = 'mcp';

/** A name as a message shows it: quoted, every character outside printable ASCII escaped, so `bаsh` reads `"b\u0430sh"`. */
export function shownToolName(name: unknown): string {
  if (typeof name !== 'string') return typeof name;
  const escaped = JSON.stringify(name).replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return name.length > 80 ? `${escaped.slice(0, 80)}…" (${name.length} characters)` : escaped;
}

/** The form two names are compared in: two names that differ only by case are one name to a reader. */
export const foldedToolName = (name: string): string => name.toLowerCase();

/** Why `name` may not be a plugin's tool name (`mayUseMcp`: the MCP plugin), or undefined. */
export function toolNameProblem(name: unknown, mayUseMcp: boolean): string | undefined {
  const shown = shownToolName(name);
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    return `tool ${shown} is not a tool name: 1 to 64 ASCII letters, digits, "_" or "-" (a look-alike, invisible or full-width character would pass for another tool)`;
  }
  const folded = foldedToolName(name);
  for (const claude of [...Object.keys(CLAUDE_TO_OURS), ...CLAUDE_ONLY_TOOLS]) {
    if (foldedToolName(claude) !== folded || CLAUDE_TO_OURS[claude] === name) continue;
    const ours = Object.hasOwn(CLAUDE_TO_OURS, claude) ? CLAUDE_TO_OURS[claude] : undefined;
    return `tool ${shown} takes Claude Code's tool name ${claude}${ours ? `, which permission rules and hook matchers read as ${ours}` : ', which permission rules and hook matchers reserve'}; choose another name`;
  }
  if (folded.startsWith(MCP_PREFIX) && (!mayUseMcp || !name.startsWith(MCP_PREFIX))) {
    return `tool ${shown} is in the namespace of MCP servers' tools (mcp__<server>__<tool>), which only the ${MCP_PLUGIN} plugin registers; choose another name`;
  }
  return undefined;
}

/** The first two of `names` that are one name when compared case-folded (the same name twice included), or undefined. */
export function repeatedToolName(names: readonly string[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const name of names) {
    const earlier = seen.get(foldedToolName(name));
    if (earlier !== undefined) return [earlier, name];
    seen.set(foldedToolName(name), name);
  }
  return undefined;
}
