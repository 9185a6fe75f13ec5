/**
 * What the registry keeps of a tool: a frozen facade over the object its plugin registered. Every
 * property is read once, at registration, and the methods are bound to the plugin's object then.
 * Everyone who reads the registry (plugins, the permission request's `tool`, the hook contexts)
 * gets the facade, so no plugin can change another's tool after the fact — flip `readOnly`,
 * blank its `permissionTarget`, swap its `execute` — and keep the registration's origin (the
 * build's bash keeps the sandbox's allow; a patched one must not).
 *
 * The facade's own `execute` throws: everyone who reads the registry holds the facade, and a
 * plugin calling `tools.get('bash').execute(...)` would run bash past preToolUse, the permission
 * chain and postToolUse. The real one is kept here, for the kernel's runner (`executeTool`); a
 * plugin's own calls go through `kernel.callTool`, which is that gate.
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
  // A facade registered again (e.g. by a replacing plugin) keeps the real execute, not the refusal.
  const execute = RAW_EXECUTE.get(tool) ?? tool.execute;
  if (typeof name !== 'string' || name === '') throw new Error('a tool needs a name');
  if (typeof execute !== 'function') throw new Error(`tool ${name} has no execute function`);
  const sealed: Record<string, unknown> = {
    name,
    description,
    inputSchema: frozenCopy(inputSchema) as JsonSchema,
    readOnly: readOnly === true,
    execute: () => {
      throw new Error(`tool ${name} cannot be executed directly: a plugin's own tool calls go through kernel.callTool (preToolUse, the permission chain, postToolUse)`);
    },
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
  RAW_EXECUTE.set(frozen, (input, context) => execute.call(tool, input, context));
  return frozen;
}

/**
 * Runs a tool for the kernel's runner, after the gate let the call through: a facade's real
 * execute (a tool that is no facade, e.g. a test's own object, is called as it is).
 */
export function executeTool(tool: Tool, input: ToolInput, context: ToolContext): ReturnType<Tool['execute']> {
  const execute = RAW_EXECUTE.get(tool);
  return execute ? execute(input, context) : tool.execute(input, context);
}

/** Each facade's real execute; never reachable from the facade itself. */
const RAW_EXECUTE = new WeakMap<Tool, Tool['execute']>();

/** Facades already made (a tool registered again as it is, e.g. by a replacing plugin, is not wrapped twice). */
const SEALED = new WeakSet<object>();
