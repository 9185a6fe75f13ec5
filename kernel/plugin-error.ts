/** A failure inside a plugin, named so the user knows whom to blame (TOOLCHAIN pitfall 4). */
export class PluginError extends Error {
  readonly pluginName: string;
  readonly hookName: string;
  constructor(pluginName: string, hookName: string, cause: unknown) {
    super(`plugin ${pluginName} failed in hook ${hookName}: ${errorMessage(cause)}`, { cause });
    this.name = 'PluginError';
    this.pluginName = pluginName;
    this.hookName = hookName;
  }
}

/**
 * A tool that threw (its execute, or a check the gate runs). The call's result already tells the
 * model, and throwing is an allowed way for a tool to fail, so the user is told only under
 * --debug, where what matters is the stack of what the tool threw (PluginFailureLog).
 */
export class ToolThrew extends PluginError {
  readonly toolName: string;
  /** `owner`: who registered the tool, as the registry names it ("plugin acme", "the host"). */
  constructor(owner: string, toolName: string, cause: unknown) {
    super(owner, `tool ${toolName}`, cause);
    this.name = 'ToolThrew';
    this.toolName = toolName;
    this.message = `${owner}'s tool ${toolName} threw: ${errorMessage(cause)}`;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
