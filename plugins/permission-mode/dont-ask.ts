/**
 * `--permission-mode dontAsk` (Claude Code's mode): every question is answered no, before any
 * approver (the terminal's dialog, an editor's, a plugin's) is asked. What runs is what the rules
 * and the mode allow outright; the layers themselves are unchanged, so a deny stays a deny and an
 * ask becomes this refusal. It holds for the whole run, whatever mode the session switches to.
 */
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { unliftedAskNote } from '../../types/unlifted-ask.js';

/** Before every other approver: nobody is asked. */
export const DONT_ASK_STAGE = -1000;

/** A shell word as the user would type it back (single quotes unless plain). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The refusal of a question under dontAsk, with the allow rule that would let it run. */
export function dontAskRefusal(kernel: KernelApi, request: ApprovalRequest, source = '--permission-mode dontAsk'): ApprovalOutcome {
  const why = `${request.toolName} needs approval (${request.verdict.reason ?? request.verdict.layer}), and ${source} refuses whatever would ask.`;
  const approvals = kernel.container.isBound(TOKENS.Approvals) ? kernel.container.get(TOKENS.Approvals) : undefined;
  if (!approvals) return { choice: 'deny', answeredBy: 'permission-mode', reason: why };
  // A question no allow rule lifts (the kernel's reading of the chain: a settings file's or the
  // organisation's ask, a required policy plugin's, a hook's; or only managed rules allow): the
  // same note as headless -p, and no rule suggested.
  const unlifted = unliftedAskNote(request, approvals.managedRulesOnly?.());
  if (unlifted !== undefined) return { choice: 'deny', answeredBy: 'permission-mode', reason: `${why} ${unlifted}` };
  const rule = approvals.suggestRule(request);
  return {
    choice: 'deny',
    answeredBy: 'permission-mode',
    reason: rule ? `${why} Allow it with --allowedTools ${shellWord(rule)}, or add ${JSON.stringify(rule)} to permissions.allow.` : why,
  };
}
