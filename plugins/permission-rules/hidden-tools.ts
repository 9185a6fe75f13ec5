/**
 * Tools a deny rule takes away whole leave the model's context (Claude Code: "a bare tool name in
 * deny removes the tool from the model's context"): a deny rule without a pattern — `Bash`,
 * `Bash(*)`, `WebFetch`, `mcp__github`, `mcp__*`, `*`, `--disallowedTools Write,Edit` — of any
 * layer (managed, the command line, a settings file: a project's deny rules apply untrusted, they
 * only take away). Such a tool is left out of the tool list of every model request
 * (`preModelRequest`, which every request passes: each turn, sub-agents', compaction and sampling
 * requests), so the model does not spend turns on calls that can only be refused.
 *
 * A rule removes the tools it names: `Edit` removes edit_file, `Write` write_file, `Read`
 * read_file. The other tools a path rule also covers (a `Read` deny also applies to glob and grep
 * searches, an `Edit` deny to write_file's path calls) stay offered; their calls are still denied.
 * A system tool (always offered: types/tools.ts) stays in the list; its calls are still denied. The
 * call-time check is unchanged either way: a model that calls a removed tool is refused as before.
 */
import { FRIENDLY_NAMES } from './rule-syntax.js';
import type { CompiledRule, RuleLayer } from './rule-set.js';

/** Whether a deny rule without a pattern names this tool (by its name, Claude Code's name, a glob or its MCP server). */
export function deniedWhole(rule: CompiledRule, toolName: string): boolean {
  if (rule.list !== 'deny' || rule.parsed.pattern !== undefined) return false;
  const tool = rule.parsed.tool;
  if (tool.kind === 'glob') return tool.regex.test(toolName);
  if (tool.kind === 'server') return toolName.startsWith(tool.prefix);
  return tool.name === toolName || (Object.hasOwn(FRIENDLY_NAMES, tool.name) && FRIENDLY_NAMES[tool.name] === toolName);
}

/** The names, among `toolNames`, that a deny rule of any layer removes whole. */
export function hiddenTools(layers: readonly RuleLayer[], toolNames: readonly string[]): Set<string> {
  const denials = layers.flatMap((layer) => layer.rules.deny).filter((rule) => rule.parsed.pattern === undefined);
  const hidden = new Set<string>();
  if (denials.length === 0) return hidden;
  for (const name of toolNames) if (denials.some((rule) => deniedWhole(rule, name))) hidden.add(name);
  return hidden;
}
