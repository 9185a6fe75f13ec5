/**
 * A tool whose implementation module is imported on its first use. What the model sees (name,
 * description, schema) is known at boot, so tool definitions stay byte-identical, while the
 * implementation (and libraries such as a regex engine) stays out of start-up.
 */
import type { PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../types/tools.js';

/** What is known without the implementation; `timeoutMs`, when needed, must be given here too. */
export type ToolDefinitionPart = Pick<Tool, 'name' | 'description' | 'inputSchema' | 'readOnly' | 'category' | 'system' | 'timeoutMs' | 'concurrencySafe' | 'validateInput'>;

export function lazyTool(definition: ToolDefinitionPart, load: () => Promise<Tool>): Tool {
  let loading: Promise<Tool> | undefined;
  const implementation = (): Promise<Tool> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // a failed import is retried on the next call
      throw error;
    });
    return loading;
  };
  return {
    ...definition,
    async permissionTarget(input: ToolInput): Promise<PermissionTarget> {
      return (await (await implementation()).permissionTarget?.(input)) ?? { kind: 'none' };
    },
    async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
      return (await implementation()).execute(input, context);
    },
    async warm(): Promise<void> {
      await implementation();
    },
  };
}
