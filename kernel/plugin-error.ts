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

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
