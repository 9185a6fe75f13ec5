/**
 * Asking the permission chain about a call the command makes before the prompt is sent (a `!`
 * line's bash command, an `@path` read), built exactly as the kernel builds a model's call: the
 * registered tool, its own permission target, the session and the current mode. The kernel
 * announces each decision on `permissionDecided`, so the audit log records these calls too.
 */
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionVerdict } from '../../types/permissions.js';
import type { AgentSession } from '../../types/session.js';
import type { ToolRegistry } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { toolCategory, type Tool, type ToolInput } from '../../types/tools.js';
import type { PermissionMode } from '../../types/permissions.js';

export function registeredTool(kernel: KernelApi, name: string): Tool | undefined {
  return kernel.container.isBound(TOKENS.ToolRegistry) ? kernel.container.get<ToolRegistry>(TOKENS.ToolRegistry).get(name) : undefined;
}

export async function askChain(kernel: KernelApi, session: AgentSession, mode: PermissionMode, tool: Tool, input: ToolInput, callId: string): Promise<PermissionVerdict> {
  if (!kernel.decidePermission) return { decision: 'deny', layer: 'kernel', reason: 'this build cannot check a command\'s own calls' };
  return kernel.decidePermission({
    toolName: tool.name,
    tool,
    input,
    category: toolCategory(tool),
    target: (await tool.permissionTarget?.(input)) ?? { kind: 'none' },
    mode,
    sessionId: session.sessionId,
    agentId: session.agentId,
    projectRoot: kernel.projectRoot,
  }, callId);
}
