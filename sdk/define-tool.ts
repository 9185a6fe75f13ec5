/**
 * `defineTool`: a tool from a zod schema. The schema is the one truth: the JSON Schema the model
 * sees is derived from it, the kernel checks every input against it before hooks, permission
 * layers or `execute` see it (the model gets "Invalid arguments for <tool>: <field>: <problem>"
 * back instead), and TypeScript infers `execute`'s input type from it.
 *
 *   defineTool({
 *     name: 'shout',
 *     description: 'Upper-cases a text.',
 *     input: z.object({ text: z.string().describe('What to shout') }),
 *     readOnly: true,
 *     execute: ({ text }) => ({ content: text.toUpperCase() }),
 *   });
 *
 * Works with schemas from zod 4's classic (`zod`) and mini (`zod/mini`) APIs alike.
 */
import { safeParse, toJSONSchema, type $ZodIssue, type $ZodType, type output } from 'zod/v4/core';
import type { JsonSchema, PermissionTarget, Tool, ToolContext, ToolHints, ToolInput, ToolInputCheck, ToolOutput } from '../types/tools.js';

export interface ToolSpec<S extends $ZodType> {
  name: string;
  description: string;
  /** An object schema: the tool's input. */
  input: S;
  /** Read-only tools run concurrently and never ask for approval. Default false. */
  readOnly?: boolean;
  category?: Tool['category'];
  hints?: ToolHints;
  system?: boolean;
  permissionTarget?(input: output<S>): PermissionTarget | Promise<PermissionTarget>;
  timeoutMs?(input: output<S>): number;
  concurrencySafe?(input: output<S>): boolean | Promise<boolean>;
  execute(input: output<S>, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  warm?(): Promise<void>;
}

export function defineTool<S extends $ZodType>(spec: ToolSpec<S>): Tool {
  const inputSchema = objectJsonSchema(spec.name, spec.input);
  // The kernel hands these methods an input that passed `validateInput`: the schema's output.
  const typed = (input: ToolInput): output<S> => input as output<S>;
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    inputSchema,
    readOnly: spec.readOnly ?? false,
    validateInput: (input) => check(spec.input, input),
    execute: async (input, context) => spec.execute(typed(input), context),
  };
  if (spec.category !== undefined) tool.category = spec.category;
  if (spec.hints !== undefined) tool.hints = spec.hints;
  if (spec.system !== undefined) tool.system = spec.system;
  if (spec.permissionTarget) tool.permissionTarget = (input) => spec.permissionTarget!(typed(input));
  if (spec.timeoutMs) tool.timeoutMs = (input) => spec.timeoutMs!(typed(input));
  if (spec.concurrencySafe) tool.concurrencySafe = (input) => spec.concurrencySafe!(typed(input));
  if (spec.warm) tool.warm = spec.warm;
  return tool;
}

function check(schema: $ZodType, input: ToolInput): ToolInputCheck {
  const result = safeParse(schema, input);
  if (result.success) return { ok: true, input: result.data as ToolInput };
  return { ok: false, error: result.error.issues.map(describeIssue).join('; ') };
}

/** `path.to.field: message`, or the message alone for the input as a whole. */
function describeIssue(issue: $ZodIssue): string {
  const where = issue.path.map(String).join('.');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/** The JSON Schema of what the model may send (zod's "input" side: defaults are optional). */
function objectJsonSchema(name: string, schema: $ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if (json.type !== 'object') {
    throw new TypeError(`defineTool(${JSON.stringify(name)}): input must be an object schema (z.object({ … })), got ${JSON.stringify(json.type ?? 'a non-object schema')}`);
  }
  return json;
}
