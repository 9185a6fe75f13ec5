/** The tool contract (T1, A4, A7, K1). */
import type { ToolProgress } from './events.js';
import type { CommandStreams, ImageBlock } from './messages.js';
import type { AgentSession } from './session.js';

export type JsonSchema = { [key: string]: unknown };

export interface ToolDefinition {
  name: string;
  description: string;
  /** The full JSON Schema; providers send it whole (P3). */
  inputSchema: JsonSchema;
}

/** What the permission engine checks for a call, read by the tool from its own input (A4). */
export type PermissionTarget =
  /**
   * `real`: where the path led (links followed) when the tool was asked for its target. The
   * permission layers judge it beside the path; the tool then writes there or nowhere
   * (ToolContext.permissionTarget), so a link swapped on the way between the check and the write
   * cannot carry the write somewhere the layers never judged.
   */
  | { kind: 'path'; path: string; real?: string }
  | { kind: 'command'; command: string }
  /**
   * The one named thing the call acts on: the sub-agent type it starts, the skill it loads. A
   * rule's pattern (`Agent(Explore)`, `Skill(commit)`) is matched against `name` or one of its
   * `aliases` (Claude Code's name for the same thing), without regard to case (agent and skill
   * names are normalised to lower case), and against `name detail` when the call carries more
   * (a skill's arguments: `Skill(review-pr *)`).
   */
  | { kind: 'named'; name: string; aliases?: readonly string[]; detail?: string }
  | { kind: 'none' };

/** A7: read-only tools are Read, file-writing tools Write, everything else Exec. */
export type ToolCategory = 'read' | 'write' | 'exec';

export interface ToolContext {
  /** Aborted on cancellation or when the call's timeout expires. */
  signal: AbortSignal;
  projectRoot: string;
  /** For `~` in paths the model writes. */
  homeDir: string;
  sessionId: string;
  /** The agent making the call (`main`, or a sub-agent's id). */
  agentId: string;
  toolCallId: string;
  /** The calling session: a tool may fork it or create a child session and run it to completion. */
  session: AgentSession;
  /** Report how far a long call got; the UI shows it as a `tool_progress` event. */
  progress?(update: ToolProgress): void;
  /**
   * What this call hands the model after it returned (a background task's report): it passes
   * postToolUse as this call's output, as the call's own result did, so a policy that redacts or
   * withholds tool output sees it too. Deliver what this resolves to, never `output` itself.
   */
  lateOutput(output: ToolOutput): Promise<ToolOutput>;
  /** The target the permission layers judged for this call (frozen; see PermissionTarget's `real`). */
  permissionTarget?: PermissionTarget;
}

export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** Images to show the model with the text (base64, no data: prefix). */
  images?: ImageBlock[];
  /**
   * A command tool's exit status (128 + the signal's number when a signal ended it). A non-zero
   * status is a normal result for the model, which reads the compiler's errors; what runs after
   * the call (the hooks' PostToolUseFailure, as Claude Code fires it) still knows it failed.
   */
  exitCode?: number;
  /**
   * A command tool's stdout and stderr apart (each cut to a cap), for the hooks only: Claude
   * Code's Bash gives PostToolUse hooks both, while the model reads them interleaved in `content`.
   * Never in history or a request.
   */
  streams?: CommandStreams;
}

export type ToolInput = Record<string, unknown>;

/** A tool's verdict on an input: the input to use (it may normalise it, e.g. fill defaults), or why not. */
export type ToolInputCheck = { ok: true; input: ToolInput } | { ok: false; error: string };

export interface ToolHints {
  title?: string;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  /** The MCP server and its own name for the tool, for `mcp__<server>__<tool>` tools. */
  mcp?: { server: string; tool: string };
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Read-only tools run concurrently in a batch and never ask for approval (L3). */
  readOnly: boolean;
  /** Defaults to 'read' for read-only tools and 'exec' otherwise. */
  category?: ToolCategory;
  /**
   * What the tool says about itself (MCP tool annotations). Advisory: shown to hooks in their
   * payloads, never used for a permission decision (only `readOnly` is, and an MCP tool is
   * read-only only when it declares `readOnlyHint: true`).
   */
  hints?: ToolHints;
  /** System tools are always offered, exempt from allowlists (T1). */
  system?: boolean;
  /**
   * A4: the tool says what its permission target is; the engine never guesses parameter names.
   * May be async (a lazily loaded tool computes it with its implementation).
   */
  permissionTarget?(input: ToolInput): PermissionTarget | Promise<PermissionTarget>;
  /**
   * L7: the timeout this call runs under, in ms. A tool with its own timeout parameter returns it
   * (clamped to its documented maximum); the kernel enforces it as the outer limit.
   */
  timeoutMs?(input: ToolInput): number;
  /**
   * For a tool that is not read-only: whether this call may still run alongside the other
   * concurrency-safe calls of its turn because it writes nothing they could read or write (bash
   * running `sleep 1` or `git status`). Absent, false or throwing: the call runs alone, in the
   * model's order. Ordering only: the permission layers judge the call the same either way.
   */
  concurrencySafe?(input: ToolInput): boolean | Promise<boolean>;
  /**
   * Checks the model's input before anything else sees it (hooks, the permission layers,
   * execute), and again after a PreToolUse hook rewrote it. A failure goes back to the model as
   * "Invalid arguments for <tool>: <error>"; name the field and what it must be. `defineTool`
   * (mewcode/sdk) derives this from a zod schema.
   */
  validateInput?(input: ToolInput): ToolInputCheck | Promise<ToolInputCheck>;
  /**
   * Errors should be returned as `{isError: true}` with text that says what to do next (K1);
   * a throw is caught by the kernel and turned into such a result all the same.
   */
  execute(input: ToolInput, context: ToolContext): Promise<ToolOutput>;
  /** Load the implementation now (see MewcodePlugin.warm: called while the first request waits). */
  warm?(): Promise<void>;
}

export function toolCategory(tool: Pick<Tool, 'readOnly' | 'category'> | undefined): ToolCategory {
  if (!tool) return 'exec';
  return tool.category ?? (tool.readOnly ? 'read' : 'exec');
}

export function toolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
