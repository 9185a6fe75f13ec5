/**
 * Variables the session's later bash commands get on top of their allow-listed environment:
 * Claude Code's CLAUDE_ENV_FILE, where a SessionStart hook of the user's writes `export NAME=value`
 * lines (the hooks plugin reads them; tool-bash binds the store and applies them).
 */
export interface CommandEnvironment {
  /** Adds (or replaces) these variables for every later command. */
  set(variables: Readonly<Record<string, string>>): void;
  /** What later commands get. */
  variables(): Readonly<Record<string, string>>;
}
