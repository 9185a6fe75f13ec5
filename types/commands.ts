/** Slash commands: contributed under TOKENS.Command, run by the TUI and by `-p "/name args"`. */
import type { PermissionMode } from './permissions.js';
import type { AgentSession } from './session.js';

export interface CommandResult {
  /** Text for the user. */
  output?: string;
  /** A prompt to run in the session instead (e.g. a command that expands to instructions). */
  prompt?: string;
  isError?: boolean;
}

export interface Command {
  /** Without the slash; lower-case letters, digits, `-`, `_` and `:`. */
  readonly name: string;
  readonly description: string;
  /** Shown after the name in help, e.g. `<file>`. */
  readonly argumentHint?: string;
  run(session: AgentSession, args: string, context: { mode: PermissionMode }): Promise<CommandResult>;
}

/**
 * Contributed under TOKENS.CommandProvider (multi-bound) by a plugin whose commands change at run
 * time (the skills plugin: one command per skill, and a reload or an install changes them). Asked
 * each time the kernel lists commands; they come after the TOKENS.Command contributions, so a
 * built-in command keeps its name.
 */
export interface CommandProvider {
  commands(): readonly Command[];
}
