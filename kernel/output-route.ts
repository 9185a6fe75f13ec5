/**
 * The one route for what the user is told (notices, warnings, approval requests): every message
 * fires the `notification` hook and goes to the active UI's output. Until a UI is active messages
 * are buffered (bounded), so nothing writes over a screen the UI has not drawn yet; a run that ends
 * before any UI flushes the buffer to the fallback (stderr).
 */
import { terminalSafe } from '../config/terminal-safe.js';
import type { KernelHooks, NotificationPayload } from '../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../types/permissions.js';
import type { UserOutput } from '../types/plugin.js';
import type { Reporter } from '../types/services.js';

/** Messages kept while no UI is active; older ones are dropped past this, with a count. */
export const OUTPUT_BUFFER_LIMIT = 1000;

export class OutputRoute implements Reporter {
  private sink: UserOutput | undefined;
  private buffer: NotificationPayload[] = [];
  private dropped = 0;
  /** The kernel's raw hooks (for `notification`); private, since plugins may resolve TOKENS.Reporter. */
  readonly #hooks: KernelHooks;

  constructor(hooks: KernelHooks, private readonly fallback: () => UserOutput) {
    this.#hooks = hooks;
  }

  /** The UI that now receives everything; buffered messages are delivered first, in order. */
  attach(sink: UserOutput): void {
    this.sink = sink;
    const pending = this.buffer;
    this.buffer = [];
    if (this.dropped > 0) sink.notify({ kind: 'warning', message: `${this.dropped} earlier messages were dropped before the interface started` });
    this.dropped = 0;
    for (const payload of pending) sink.notify(payload);
  }

  get attached(): boolean {
    return this.sink !== undefined;
  }

  /** Deliver what is buffered to the fallback (the process is ending without a UI). */
  flushToFallback(): void {
    if (!this.sink) this.attach(this.fallback());
  }

  /**
   * `local`, when given, is the full text for the user's own screen (the UI, stderr), and
   * `original.message` what notification hooks are sent: a plugin's failure is told in full to
   * the user, but a hook that forwards notifications (to a chat, a webhook) gets only who failed
   * where, never the message of what it threw, which may quote what it was handling.
   */
  notify(original: NotificationPayload, local?: string): void {
    // Messages quote files, servers, hooks and providers: made terminal-safe here, once, so no UI
    // (a third party's included) and no notification hook receives an escape sequence.
    const shared = { ...original, message: terminalSafe(original.message, true) };
    void this.#hooks.notification.promise(shared);
    const payload = local === undefined ? shared : { ...original, message: terminalSafe(local, true) };
    if (this.sink) this.sink.notify(payload);
    else if (this.buffer.length < OUTPUT_BUFFER_LIMIT) this.buffer.push(payload);
    else this.dropped++;
  }

  /** Ask the active UI; undefined when none is active or it cannot ask. */
  async approve(request: ApprovalRequest): Promise<ApprovalOutcome | undefined> {
    this.notify({
      kind: 'approval_needed',
      message: `${request.toolName} needs approval: ${request.verdict.reason ?? request.verdict.layer}`,
      sessionId: request.sessionId,
      ...(request.agentId ? { agentId: request.agentId } : {}),
    });
    return this.sink?.approve?.(request);
  }

  warn(message: string): void {
    this.notify({ kind: 'warning', message });
  }

  notice(message: string): void {
    this.notify({ kind: 'notice', message });
  }

  debug(message: string): void {
    this.notify({ kind: 'debug', message });
  }
}

/** A Reporter as a UI output: how tests and the stderr fallback receive messages. */
export function reporterOutput(reporter: Reporter): UserOutput {
  return {
    notify(payload) {
      if (payload.kind === 'warning') reporter.warn(payload.message);
      else if (payload.kind === 'debug') reporter.debug(payload.message);
      else if (payload.kind !== 'approval_needed') reporter.notice(payload.message);
    },
  };
}
