/**
 * The one way a permission request is built, for a model's call (tool-call-gate.ts) and for a call
 * a plugin asks about (Kernel.decidePermission): the registered tool's own category and target,
 * and copies of the input and target frozen all the way down, in a frozen request. So no layer can
 * change what the layers after it see, and no caller can hand the layers a target or a tool of
 * its own making.
 */
import type { PermissionMode, PermissionRequest } from '../types/permissions.js';
import { toolCategory, type Tool, type ToolInput } from '../types/tools.js';
import { frozenCopy } from './decision-shapes.js';

export interface RequestPlace {
  mode: PermissionMode;
  sessionId: string;
  agentId: string;
  parentAgentId?: string | undefined;
  projectRoot: string;
  /** The plugin making the call itself, when it is not the model's. */
  madeBy?: string | undefined;
}

export async function permissionRequest(toolName: string, tool: Tool, input: ToolInput, place: RequestPlace): Promise<PermissionRequest> {
  return Object.freeze({
    toolName,
    tool,
    input: frozenCopy(input) as ToolInput,
    category: toolCategory(tool),
    target: frozenCopy((await tool.permissionTarget?.(input)) ?? { kind: 'none' }) as PermissionRequest['target'],
    mode: place.mode,
    sessionId: place.sessionId,
    agentId: place.agentId,
    ...(place.parentAgentId ? { parentAgentId: place.parentAgentId } : {}),
    projectRoot: place.projectRoot,
    ...(place.madeBy !== undefined ? { madeBy: place.madeBy } : {}),
  });
}
