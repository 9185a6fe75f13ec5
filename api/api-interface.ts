/**
 * The programmatic API's front end, as the kernel sees it: what the user is told goes to the
 * caller's `stderr` (standard error by default, like `mewcode -p`), and an approval the permission
 * layers ask for is the caller's `canUseTool` question. Without `canUseTool` an ask is a deny, as
 * in headless mode: nobody is there to answer.
 */
import { terminalWriter } from '../config/terminal-safe.js';
import type { NotificationPayload } from '../types/hooks.js';
import { noticeLine } from '../types/notice-line.js';
import type { ApprovalOutcome, ApprovalRequest } from '../types/permissions.js';
import type { CliOptions, KernelApi, UserInterface, UserOutput } from '../types/plugin.js';
import type { CanUseTool, PermissionResult } from './options.js';

export const API_UI_NAME = 'api';

const fallbackWrite = terminalWriter(process.stderr);

class ApiOutput implements UserOutput {
  constructor(
    private readonly write: (text: string) => void,
    private readonly canUseTool: CanUseTool | undefined,
    private readonly signal: () => AbortSignal,
  ) {}

  notify(payload: NotificationPayload): void {
    if (payload.kind === 'approval_needed' || payload.kind === 'debug' || payload.kind === 'idle') return;
    const line = noticeLine(payload);
    try {
      this.write(line);
    } catch (error) {
      // The caller's logger failing must not fail the run that is telling it something.
      fallbackWrite(`${line}mewcode: warning: the stderr option's callback failed (${error instanceof Error ? error.message : String(error)})\n`);
    }
  }

  async approve(request: ApprovalRequest): Promise<ApprovalOutcome> {
    const why = request.verdict.reason ?? request.verdict.layer;
    if (!this.canUseTool) {
      return { choice: 'deny', answeredBy: API_UI_NAME, reason: `${request.toolName} needs approval (${why}) and this query has no canUseTool callback to ask; pass one, a permissionMode or allowedTools that allow it` };
    }
    const signal = this.signal();
    if (signal.aborted) return STOPPED;
    let answer: PermissionResult | typeof STOPPED;
    try {
      // A callback that ignores its signal must not hold a stopped prompt: the stop answers for it.
      answer = await untilAborted(
        Promise.resolve(
          this.canUseTool(request.toolName, structuredClone(request.input), {
            signal,
            toolUseId: request.toolCallId,
            agentId: request.agentId ?? 'main',
            ...(request.verdict.reason !== undefined ? { reason: request.verdict.reason } : {}),
          }),
        ),
        signal,
      );
    } catch (error) {
      if (signal.aborted) return STOPPED;
      return { choice: 'deny', answeredBy: 'canUseTool', reason: `canUseTool failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    return answer === STOPPED ? STOPPED : outcomeOf(answer);
  }
}

const STOPPED: ApprovalOutcome = { choice: 'deny', answeredBy: API_UI_NAME, reason: 'the query was interrupted or aborted while canUseTool was asked' };

/** The answer, or STOPPED as soon as the signal fires (the answer is then ignored). */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T | typeof STOPPED> {
  return new Promise((resolve, reject) => {
    const stop = (): void => resolve(STOPPED);
    signal.addEventListener('abort', stop, { once: true });
    answer.then(
      (value) => (signal.removeEventListener('abort', stop), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', stop), reject(error)),
    );
  });
}

/** Only a well-formed allow runs the call; anything else denies it, saying why. */
function outcomeOf(answer: unknown): ApprovalOutcome {
  if (typeof answer === 'object' && answer !== null) {
    const { behavior, message, updatedInput } = answer as { behavior?: unknown; message?: unknown; updatedInput?: unknown };
    if (behavior === 'allow') {
      if (updatedInput === undefined) return { choice: 'allow_once', answeredBy: 'canUseTool' };
      if (typeof updatedInput === 'object' && updatedInput !== null && !Array.isArray(updatedInput)) {
        return { choice: 'allow_once', answeredBy: 'canUseTool', input: updatedInput as Record<string, unknown> };
      }
      return { choice: 'deny', answeredBy: 'canUseTool', reason: 'canUseTool allowed the call with an updatedInput that is not an object' };
    }
    if (behavior === 'deny') return { choice: 'deny', answeredBy: 'canUseTool', reason: typeof message === 'string' && message !== '' ? message : 'denied by canUseTool' };
  }
  return { choice: 'deny', answeredBy: 'canUseTool', reason: 'canUseTool answered neither { behavior: "allow" } nor { behavior: "deny", message }' };
}

export class ApiInterface implements UserInterface {
  readonly name = API_UI_NAME;
  readonly output: UserOutput;

  constructor(stderr: ((text: string) => void) | undefined, canUseTool: CanUseTool | undefined, signal: () => AbortSignal) {
    this.output = new ApiOutput(stderr ?? terminalWriter(process.stderr), canUseTool, signal);
  }

  /** Never picked by the CLI: query() attaches it itself. */
  handles(): boolean {
    return false;
  }

  /** query() drives the session itself (sdk/stream-json/run-messages.ts). */
  run(_kernel: KernelApi, _options: CliOptions): Promise<number> {
    return Promise.reject(new Error('the API front end runs through query()'));
  }
}
