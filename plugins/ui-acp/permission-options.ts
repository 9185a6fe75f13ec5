/**
 * The approval question as an ACP `session/request_permission`: MewCode's answers (once, for this
 * session, always for this project, deny) as the editor's options, and the editor's answer back
 * as an ApprovalOutcome the permission layers act on (an "always" answer is saved by the rules
 * layer exactly as the terminal UI's is, so the next identical call does not ask).
 */
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { answerCanBeRemembered, type ApprovalChoice, type ApprovalOutcome, type ApprovalRequest } from '../../types/permissions.js';

export const ACP_UI_NAME = 'ui-acp';

const ALLOW_ONCE: PermissionOption = { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' };
const ALLOW_SESSION: PermissionOption = { optionId: 'allow_session', name: 'Allow for this session', kind: 'allow_always' };
const ALLOW_ALWAYS: PermissionOption = { optionId: 'allow_always', name: 'Always allow (saved in ~/.mewcode for this project)', kind: 'allow_always' };
const REJECT: PermissionOption = { optionId: 'deny', name: 'Reject', kind: 'reject_once' };

/**
 * The options offered for a request. A question no allow rule lifts (a settings file's ask rule,
 * managed settings' too, a required policy plugin's, a hook's) is answered once at a time: a
 * remembered answer could not lift it, so none is offered.
 */
export function permissionOptions(request: Pick<ApprovalRequest, 'allowRuleLifts'>): PermissionOption[] {
  if (!answerCanBeRemembered(request)) return [ALLOW_ONCE, REJECT];
  return [ALLOW_ALWAYS, ALLOW_SESSION, ALLOW_ONCE, REJECT];
}

const CHOICES: ReadonlySet<string> = new Set<ApprovalChoice>(['allow_once', 'allow_session', 'allow_always', 'deny']);

/**
 * The editor's answer (its response's `outcome`, as received: an editor may send `result: {}` or
 * `null`); anything but one of the offered options denies, the reason saying what was sent.
 */
export function approvalOutcome(outcome: unknown, offered: readonly PermissionOption[]): ApprovalOutcome {
  const deny = (reason: string): ApprovalOutcome => ({ choice: 'deny', answeredBy: ACP_UI_NAME, reason });
  if (typeof outcome !== 'object' || outcome === null || typeof (outcome as { outcome?: unknown }).outcome !== 'string') {
    return deny(`the editor answered the permission request without an outcome${outcome === undefined ? '' : ` (it sent ${sent(outcome)})`}`);
  }
  const answer = outcome as { outcome: string; optionId?: unknown };
  if (answer.outcome === 'cancelled') return deny('the prompt turn was cancelled in the editor');
  if (answer.outcome !== 'selected' || typeof answer.optionId !== 'string') {
    return deny(`the editor answered the permission request with an outcome that is not one of its options (${sent(outcome)})`);
  }
  const option = offered.find((o) => o.optionId === answer.optionId);
  if (!option || !CHOICES.has(option.optionId)) return deny(`the editor answered with an option that was not offered (${JSON.stringify(answer.optionId)})`);
  const choice = option.optionId as ApprovalChoice;
  return choice === 'deny' ? deny('the user rejected it in the editor') : { choice, answeredBy: ACP_UI_NAME };
}

/** What the editor sent, short, for a reason. */
function sent(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
