/**
 * `allowed_tools` as written in a SKILL.md made from Claude Code's names (`Read`, `Bash(git:*)`) or
 * MewCode's (`read_file`) into the names tools are registered under, for fork mode's hard
 * allowlist (the seed compared `load_skill` with `LoadSkill` and silently lost tools). A rule's
 * argument (`Bash(git:*)`) narrows nothing here: the permission engine still checks every call.
 */
const CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = {
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  multiedit: 'edit_file',
  bash: 'bash',
  glob: 'glob',
  grep: 'grep',
};

export function registeredToolNames(allowed: readonly string[]): string[] {
  const names: string[] = [];
  for (const entry of allowed) {
    const bare = entry.replace(/\(.*\)$/s, '').trim();
    const name = CLAUDE_CODE_NAMES[bare.toLowerCase()] ?? bare;
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
