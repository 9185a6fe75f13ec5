/**
 * The calls a command makes before the prompt is sent (a `!` line's bash command, an `@path`
 * read) go through the kernel's gate exactly as a model's call does: the registered tool, its own
 * permission target, preToolUse, the chain in the current mode, postToolUse. The kernel announces
 * each decision on `permissionDecided`, so the audit log records these calls too.
 */
import type { KernelApi, PluginToolCall, PluginToolCallResult } from '../types/plugin.js';
import type { ToolRegistry } from '../types/services.js';
import { TOKENS } from '../types/tokens.js';
import type { Tool } from '../types/tools.js';

export function registeredTool(kernel: KernelApi, name: string): Tool | undefined {
  return kernel.container.isBound(TOKENS.ToolRegistry) ? kernel.container.get<ToolRegistry>(TOKENS.ToolRegistry).get(name) : undefined;
}

/** A call the command makes itself, judged and run as a model's call is, nobody asked (kernel.callTool). */
export async function callAsPlugin(kernel: KernelApi, call: PluginToolCall): Promise<PluginToolCallResult> {
  if (!kernel.callTool) return { allowed: false, content: "this build cannot check a command's own calls", isError: true };
  return kernel.callTool(call);
}
