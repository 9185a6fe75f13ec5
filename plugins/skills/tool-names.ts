/**
 * `allowed_tools` as written in a SKILL.md — Claude Code's names (`Read`, `Bash(git:*)`) or
 * MewCode's (`read_file`) — made into the names tools are registered under, for fork mode's hard
 * allowlist (the seed compared `load_skill` with `LoadSkill` and silently lost tools). Claude's
 * names come from the one shared map (sdk/claude-tool-names.ts). A rule's argument
 * (`Bash(git:*)`) narrows nothing here: the permission engine still checks every call.
 */
import { fromClaudeToolName } from '../../sdk/claude-tool-names.js';

export function registeredToolNames(allowed: readonly string[]): string[] {
  const names: string[] = [];
  for (const entry of allowed) {
    const bare = entry.replace(/\(.*\)$/s, '').trim();
    // MultiEdit: Claude Code's older many-edits tool; edit_file is its counterpart here.
    const name = bare === 'MultiEdit' ? 'edit_file' : fromClaudeToolName(bare);
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
