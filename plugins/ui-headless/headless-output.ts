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

export const HEADLESS_NAME = 'ui-headless';

/**
 * The build's layers whose ask comes after the permission rules, so an allow rule (or
 * --allowedTools) ends the chain before them: only their asks get the rule suggested. Any other
 * layer is a plugin's own policy (an organisation's, a team's), whose ask no flag lifts.
 */
const LIFTED_BY_AN_ALLOW: ReadonlySet<string> = new Set(['permission-mode', 'skills', 'permission-blacklist']);

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
    // An organisation's managed ask rule: no flag or user rule lifts it, so none is suggested.
    if (request.verdict.layer.startsWith('permission-rules:managed')) {
      return { choice: 'deny', answeredBy: HEADLESS_NAME, reason: `${why} Managed settings require a person to approve it: run interactively to answer.` };
    }
    // Any other settings file's ask: an ask beats every allow (rules, --allowedTools), so none is suggested.
    if (request.verdict.layer.startsWith('permission-rules:')) {
      return { choice: 'deny', answeredBy: HEADLESS_NAME, reason: `${why} An ask in the settings holds whatever allow rules or --allowedTools say: run interactively to answer, or change the settings that ask.` };
    }
    // Only the organisation's rules allow anything: a flag or a rule of the user's would be ignored.
    const rulesOnly = approvals.managedRulesOnly?.();
    if (rulesOnly !== undefined) {
      return { choice: 'deny', answeredBy: HEADLESS_NAME, reason: `${why} The organisation's managed settings allow only their own permission rules (${rulesOnly}: allow_managed_rules_only), so no --allowedTools or rule of yours can allow it: run interactively to answer, or ask the administrators to allow it.` };
    }
    // A plugin's own ask (an organisation's or a team's policy): an ask holds whatever allows, and
    // no flag or rule of the user's answers for the plugin, so only a person or its owner can.
    const asker = request.verdict.layer.split(':')[0] ?? request.verdict.layer;
    if (!LIFTED_BY_AN_ALLOW.has(asker)) {
      return {
        choice: 'deny',
        answeredBy: HEADLESS_NAME,
        reason: `${why} The plugin ${asker} asks, and no --allowedTools, allow rule or permission mode lifts a plugin's ask: run interactively to answer, or ask whoever maintains ${asker} (the policy's owner).`,
      };
    }
    const rule = approvals.suggestRule(request);
    const mode = request.verdict.layer === 'permission-mode' ? `, or re-run with --permission-mode ${request.category === 'write' ? 'acceptEdits' : 'bypassPermissions'}` : '';
    return {
      choice: 'deny',
      answeredBy: HEADLESS_NAME,
      reason: `${why} Allow it with --allowedTools ${shellQuote(rule)} or add ${JSON.stringify(rule)} to permissions.allow in ~/.mewcode/settings.yaml${mode}.`,
    };
  }
}
