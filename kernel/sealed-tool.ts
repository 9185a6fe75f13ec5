/**
 * What the registry keeps of a tool: a frozen facade over the object its plugin registered. Every
 * property is read once, at registration, and the methods are bound to the plugin's object then.
 * Everyone who reads the registry (plugins, the permission request's `tool`, the hook contexts)
 * gets the facade, so no plugin can change another's tool after the fact — flip `readOnly`,
 * blank its `permissionTarget`, swap its `execute` — and keep the registration's origin (the
 * build's bash keeps the sandbox's allow; a patched one must not).
 */
import type { JsonSchema, Tool, ToolContext, ToolInput } from '../types/tools.js';
import { frozenCopy } from './decision-shapes.js';

const METHODS = ['permissionTarget', 'timeoutMs', 'concurrencySafe', 'validateInput', 'warm'] as const;

/**
 * `system` is kept only for the build's own tools (`mayBeSystem`): a system tool is offered in
 * plan mode and to every sub-agent whatever its allowlist, which no configured plugin may claim.
 */
export function sealedTool(tool: Tool, mayBeSystem = true): Tool {
  if (SEALED.has(tool) && (mayBeSystem || tool.system !== true)) return tool;
  const { name, description, inputSchema, readOnly, category, hints, system } = tool;
  const execute = tool.execute;
  if (typeof name !== 'string' || name === '') throw new Error('a tool needs a name');
  if (typeof execute !== 'function') throw new Error(`tool ${name} has no execute function`);
  const sealed: Record<string, unknown> = {
    name,
    description,
    inputSchema: frozenCopy(inputSchema) as JsonSchema,
    readOnly: readOnly === true,
    execute: (input: ToolInput, context: ToolContext) => execute.call(tool, input, context),
  };
  if (category !== undefined) sealed.category = category;
  if (hints !== undefined) sealed.hints = frozenCopy(hints);
  if (system !== undefined) sealed.system = system === true && mayBeSystem;
  for (const method of METHODS) {
    const fn = tool[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn === 'function') sealed[method] = (...args: unknown[]) => fn.apply(tool, args);
  }
  const frozen = Object.freeze(sealed) as unknown as Tool;
  SEALED.add(frozen);
  return frozen;
}

/** Facades already made (a tool registered again as it is, e.g. by a replacing plugin, is not wrapped twice). */
const SEALED = new WeakSet<object>();
