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
