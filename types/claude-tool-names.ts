/**
 * Claude Code's names for MewCode's built-in tools, and the names it has that MewCode has no tool
 * for: permission rules, hook matchers and sub-agent tool lists speak them beside ours
 * (sdk/claude-tool-names.ts reads them), and the kernel refuses a plugin tool that takes one
 * (kernel/tool-names.ts).
 */

/** Claude Code's name → the registered name. */
export const CLAUDE_TO_OURS: Readonly<Record<string, string>> = Object.freeze({
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  Glob: 'glob',
  Grep: 'grep',
  TodoWrite: 'todo_write',
  // The sub-agent tool: `Task` in most hook scripts and settings, `Agent` in Claude Code's newer docs.
  Task: 'agent',
  Agent: 'agent',
  // Claude Code's skill tool: `Skill` in rules, `Skill(commit)` for one skill.
  Skill: 'load_skill',
});

/**
 * Claude Code's tool names that MewCode has no tool for, as its rules and agent files name them:
 * naming one takes nothing away and allows nothing here, and is no mistake worth a warning.
 */
export const CLAUDE_ONLY_TOOLS: readonly string[] = Object.freeze([
  // Several edits in one call: edit_file makes one, so a MultiEdit rule is not an edit_file rule
  // (a deny of MultiEdit alone must not take editing away; `Edit(…)` rules cover edit_file).
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'LS',
  'WebFetch',
  'WebSearch',
  'BashOutput',
  'KillShell',
  'KillBash',
  'ExitPlanMode',
  'EnterPlanMode',
  'SlashCommand',
  'AskUserQuestion',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
]);

