/**
 * The headless UI's output: notices and warnings to stderr (stdout may carry JSON), and approval
 * requests answered with a deny whose reason names the exact rule or flag that would allow the
 * call — with nobody to ask, an "ask" is a deny.
 */
import { terminalWriter } from '../../config/terminal-safe.js';
import type { NotificationPayload } from '../../types/hooks.js';
import { noticeLine } from '../../types/notice-line.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import type { UserOutput } from '../../types/plugin.js';
import type { Approvals } from '../../types/services.js';
import { unliftedAskNote } from '../../types/unlifted-ask.js';

export const HEADLESS_NAME = 'ui-headless';

function shellQuote(text: string): string {
  return /["$`\\!]/.test(text) ? `'${text.replace(/'/g, `'\\''`)}'` : `"${text}"`;
}

export class HeadlessOutput implements UserOutput {
  /** Messages quote files, servers and hooks: written through the terminal-safe filter. */
  private readonly write: (text: string) => void;

  /**
   * The rule suggester, looked up when an approval is answered (the UI may be active before it
   * runs); undefined in builds without permission-rules.
   */
  constructor(
    err: NodeJS.WritableStream = process.stderr,
    private readonly approvals: () => Approvals | undefined = () => undefined,
  ) {
    this.write = terminalWriter(err);
  }

  notify(payload: NotificationPayload): void {
    if (payload.kind === 'approval_needed' || payload.kind === 'debug' || payload.kind === 'idle') return;
    this.write(noticeLine(payload));
  }

  async approve(request: ApprovalRequest): Promise<ApprovalOutcome> {
    const why = `${request.toolName} needs approval, which headless mode cannot ask for (${request.verdict.reason ?? request.verdict.layer}).`;
    const approvals = this.approvals();
    if (!approvals) {
      return { choice: 'deny', answeredBy: HEADLESS_NAME, reason: `${why} Re-run with a --permission-mode that allows it, or add an allow rule to the settings.` };
    }
    // A question no allow rule lifts (the kernel's reading of the chain: a settings file's ask, a
    // required or early policy plugin's, a hook's, or only managed rules allow): none is suggested.
    const unlifted = unliftedAskNote(request, approvals.managedRulesOnly?.());
    if (unlifted !== undefined) return { choice: 'deny', answeredBy: HEADLESS_NAME, reason: `${why} ${unlifted}` };
    const rule = approvals.suggestRule(request);
    const mode = request.verdict.layer === 'permission-mode' ? `, or re-run with --permission-mode ${request.category === 'write' ? 'acceptEdits' : 'bypassPermissions'}` : '';
    return {
      choice: 'deny',
      answeredBy: HEADLESS_NAME,
      reason: `${why} Allow it with --allowedTools ${shellQuote(rule)} or add ${JSON.stringify(rule)} to permissions.allow in ~/.mewcode/settings.yaml${mode}.`,
    };
  }
}
