/** Slash commands: contributed under TOKENS.Command, run by the TUI and by `-p "/name args"`. */
import type { PermissionMode } from './permissions.js';
import type { AgentSession, PromptJudgement } from './session.js';

/**
 * A line typed as a command call, `/name args`: its name and its arguments (trimmed), as every
 * front end reads it: a name of letters, digits, `_`, `-`, `:` (a plugin's namespace) and `.`
 * (Spec Kit's `/speckit.specify`, which Claude Code runs). A path (`/tmp/x.log …`) is not one: its
 * first word holds another `/`. One expression, so a name a front end runs is never sent to the
 * model as text by another.
 */
export function slashCall(line: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  return match ? { name: match[1]!, args: (match[2] ?? '').trim() } : undefined;
}

export interface CommandResult {
  /** Text for the user. */
  output?: string;
  /** A prompt to run in the session instead (e.g. a command that expands to instructions). */
  prompt?: string;
  isError?: boolean;
  /**
   * Set by the kernel's command list on a user's or project's command (a command file, a skill):
   * userPromptSubmit judged the line as typed before the command ran. `blocked`: a tap refused
   * it, nothing of the command ran, `output` says why. `judged`: it was allowed; given to the
   * run of `prompt` (RunOptions.judged), which then does not pass userPromptSubmit again.
   */
  blocked?: boolean;
  judged?: PromptJudgement;
}

/**
 * Whose a command is: MewCode's or a plugin's (`builtin`), the user's own files, skills and Claude
 * Code plugins (`user`), or the repository's (`project`). While the project is not trusted, a
 * `project` command never takes a name a `user` or `builtin` one holds, whatever their kinds
 * (a skill against a command file): the kernel's command list keeps the user's.
 */
export type CommandScope = 'builtin' | 'user' | 'project';

export interface Command {
  /** Without the slash; letters, digits, `-`, `_`, `.` (Spec Kit's `speckit.specify`) and `:`. */
  readonly name: string;
  /** Whose it is. Bound under TOKENS.Command: always `builtin`; a provider's without one: `user`. */
  readonly scope?: CommandScope;
  /** The file it comes from (a command file, a SKILL.md), which a warning about it names. */
  readonly source?: string;
  readonly description: string;
  /** Shown after the name in help, e.g. `<file>`. */
  readonly argumentHint?: string;
  run(session: AgentSession, args: string, context: CommandContext): Promise<CommandResult>;
}

/** What a front end gives a command's run. */
export interface CommandContext {
  /** The permission mode the line was typed in. */
  mode: PermissionMode;
  /**
   * Aborted when the user cancels (Esc or Ctrl+C in the terminal UI, `session/cancel` from an
   * editor): a command that waits (a model request, a process) stops, undoes nothing half-done,
   * and returns. Every front end passes its run's signal; a command that never waits may ignore
   * it. Whatever a cancelled command returns, the front end reports the line as cancelled (its
   * output and its prompt are dropped).
   */
  signal?: AbortSignal;
}

/**
 * Contributed under TOKENS.CommandProvider (multi-bound) by a plugin whose commands change at run
 * time (the skills plugin: one command per skill, and a reload or an install changes them). Asked
 * each time the kernel lists commands; they come after the TOKENS.Command contributions, so a
 * built-in command keeps its name. Of two commands of one name the first listed is kept, except
 * that while the project is not trusted a `project` one gives way to a `user` or `builtin` one.
 */
export interface CommandProvider {
  commands(): readonly Command[];
}
