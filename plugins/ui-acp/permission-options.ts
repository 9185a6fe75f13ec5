/**
 * The approval question as an ACP `session/request_permission`: MewCode's answers (once, for this
 * session, always for this project, deny) as the editor's options, and the editor's answer back
 * as an ApprovalOutcome the permission layers act on (an "always" answer is saved by the rules
 * layer exactly as the terminal UI's is, so the next identical call does not ask).
 */
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
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

/** The editor's answer; anything but one of the offered options denies. */
export function approvalOutcome(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[]): ApprovalOutcome {
  if (outcome.outcome === 'cancelled') return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: 'the prompt turn was cancelled in the editor' };
  const option = offered.find((o) => o.optionId === outcome.optionId);
  if (!option || !CHOICES.has(option.optionId)) return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: `the editor answered with an option that was not offered (${JSON.stringify(outcome.optionId)})` };
  const choice = option.optionId as ApprovalChoice;
  return choice === 'deny' ? { choice, answeredBy: ACP_UI_NAME, reason: 'the user rejected it in the editor' } : { choice, answeredBy: ACP_UI_NAME };
}
