/**
 * Runs one permitted tool call under its timeout (L7) and the run's cancellation (L4).
 * Tools never throw to the loop (K1): a throw becomes an error result, and under --debug it is
 * also reported with its stack, naming the tool and its plugin (reportToolThrow).
 */
import type { KernelHooks } from '../types/hooks.js';
import type { AgentSession } from '../types/session.js';
import type { ToolProgress } from '../types/events.js';
import type { PermissionTarget, Tool, ToolInput, ToolOutput } from '../types/tools.js';
import type { ImageBlock, ToolCall, ToolResult } from '../types/messages.js';
import { errorResult } from './tool-call-gate.js';
import { executeTool } from './sealed-tool.js';
import { errorMessage, ToolThrew } from './plugin-error.js';
import { reportPluginFailure } from './hooks.js';
import { toolOwnerName } from './tool-registry.js';

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** How long a tool may take to wind down after its signal fired before the kernel stops waiting. */
export const ABORT_GRACE_MS = 3_000;

export const CANCELLED_BEFORE_START = 'Cancelled: the run was cancelled before this tool call started.';
export const CANCELLED_WHILE_RUNNING = 'Cancelled: the run was cancelled while this tool call was running.';

export interface ToolRunOptions {
  signal: AbortSignal;
  projectRoot: string;
  homeDir: string;
  sessionId: string;
  agentId: string;
  session: AgentSession;
  defaultTimeoutMs: number;
  /** Where a call's progress reports go (the run's event stream). */
  onProgress?(update: ToolProgress): void;
  /** The call's postToolUse for what it hands over after it returned (ToolContext.lateOutput). */
  lateOutput(output: ToolOutput): Promise<ToolOutput>;
  /** What the tool threw, unless the run's cancellation or the timeout made it throw. */
  onThrow?(error: unknown): void;
  /** The target the permission layers judged (ToolContext.permissionTarget). */
  permissionTarget?: PermissionTarget;
}

/**
 * A tool's throw, said to the user as a failing tap of `hooks` is (the kernel's failure log):
 * under --debug only, with the stack of what it threw (the model has the short message already).
 */
export function reportToolThrow(hooks: KernelHooks, tool: Tool | undefined, toolName: string, error: unknown): void {
  reportPluginFailure(hooks, new ToolThrew(tool ? toolOwnerName(tool) : 'the host', toolName, error));
}

export async function runTool(call: ToolCall, tool: Tool, input: ToolInput, options: ToolRunOptions): Promise<ToolResult> {
  if (options.signal.aborted) return errorResult(call, CANCELLED_BEFORE_START);
  const timeoutMs = declaredTimeout(tool, input, options.defaultTimeoutMs);
  const timeout = new AbortController();
  const signal = AbortSignal.any([options.signal, timeout.signal]);
  const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs);

  const execution = Promise.resolve()
    .then(() => executeTool(tool, input, { signal, projectRoot: options.projectRoot, homeDir: options.homeDir, sessionId: options.sessionId, agentId: options.agentId, toolCallId: call.id, session: options.session, lateOutput: options.lateOutput, ...(options.onProgress ? { progress: options.onProgress } : {}), ...(options.permissionTarget ? { permissionTarget: options.permissionTarget } : {}) }))
    .then((output): Settled => {
      if (!output || typeof output.content !== 'string') throw new Error('it returned no text result');
      const result: ToolResult = { toolCallId: call.id, content: output.content, isError: output.isError ?? false };
      const images = validImages(output.images);
      if (images.length > 0) result.images = images;
      if (Number.isInteger(output.exitCode)) result.exitCode = output.exitCode;
      const streams = output.streams;
      if (streams && typeof streams.stdout === 'string' && typeof streams.stderr === 'string') result.streams = { stdout: streams.stdout, stderr: streams.stderr };
      return { result, threw: false };
    })
    .catch((error: unknown): Settled => {
      // A throw that the run's cancellation or the timeout caused is the tool stopping, not a fault.
      if (!signal.aborted) options.onThrow?.(error);
      return { result: errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`), threw: true };
    });

  try {
    // Wait for the tool; once its signal fires, give it a short grace to report on its own.
    const settled = await Promise.race([execution, abortedThenGrace(signal)]);
    if (options.signal.aborted) {
      // A call that still finished (e.g. its write happened) reports what it did, not "cancelled".
      return settled === GRACE_EXPIRED || settled.threw ? errorResult(call, CANCELLED_WHILE_RUNNING) : settled.result;
    }
    if (timeout.signal.aborted) {
      const timedOut = `Tool ${call.name} timed out after ${timeoutMs} ms.`;
      if (settled === GRACE_EXPIRED) return errorResult(call, `${timedOut} It did not stop within ${ABORT_GRACE_MS} ms of being told to.`);
      if (settled.threw || !settled.result.content) return errorResult(call, timedOut);
      // A tool that reports its own timeout (e.g. with partial output) knows best; it is still an error.
      return { ...settled.result, isError: true };
    }
    return settled === GRACE_EXPIRED ? errorResult(call, CANCELLED_WHILE_RUNNING) : settled.result;
  } finally {
    clearTimeout(timer);
  }
}

/** The tool's own timeout for this input (L7), or the default when it declares none or a bad one. */
function declaredTimeout(tool: Tool, input: ToolInput, fallback: number): number {
  let declared: number | undefined;
  try {
    declared = tool.timeoutMs?.(input);
  } catch {
    declared = undefined; // a broken timeoutMs must not take the call down (K1)
  }
  return declared !== undefined && Number.isFinite(declared) ? Math.max(1, declared) : fallback;
}

const GRACE_EXPIRED = Symbol('grace-expired');

interface Settled {
  result: ToolResult;
  threw: boolean;
}

function abortedThenGrace(signal: AbortSignal): Promise<typeof GRACE_EXPIRED> {
  return new Promise((resolve) => {
    const start = (): void => {
      setTimeout(() => resolve(GRACE_EXPIRED), ABORT_GRACE_MS).unref();
    };
    if (signal.aborted) start();
    else signal.addEventListener('abort', start, { once: true });
  });
}

/** Only well-formed images pass (a plugin's tool may hand back anything); the rest are dropped. */
function validImages(images: unknown): ImageBlock[] {
  if (!Array.isArray(images)) return [];
  return images.filter(
    (image): image is ImageBlock =>
      typeof image === 'object' && image !== null && (image as ImageBlock).type === 'image' && typeof (image as ImageBlock).mediaType === 'string' && typeof (image as ImageBlock).data === 'string',
  );
}
