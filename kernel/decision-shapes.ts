/**
 * What a tap of a decision-carrying hook may return, checked at run time: plugins are JavaScript
 * (or TypeScript compiled elsewhere, or `as any`), so the types of `types/hooks.ts` promise
 * nothing. Each check says whether a value is well formed; the caller turns anything else into
 * the hook's safe side (a deny, a block, the value the waterfall had) and names the plugin.
 */
import type { PromptSubmission, StopDecision, ToolUseDecision } from '../types/hooks.js';
import type { ApprovalOutcome, PermissionVerdict } from '../types/permissions.js';

const DECISIONS: ReadonlySet<unknown> = new Set(['allow', 'deny', 'ask']);
const CHOICES: ReadonlySet<unknown> = new Set(['allow_once', 'allow_session', 'allow_always', 'deny']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

export function isPermissionVerdict(value: unknown): value is PermissionVerdict {
  return isObject(value) && DECISIONS.has(value.decision) && typeof value.layer === 'string' && value.layer !== '' && optionalString(value.reason);
}

export function isApprovalOutcome(value: unknown): value is ApprovalOutcome {
  return isObject(value) && CHOICES.has(value.choice) && typeof value.answeredBy === 'string' && optionalString(value.reason) && (value.input === undefined || isObject(value.input));
}

export function isToolUseDecision(value: unknown): value is ToolUseDecision {
  return (
    isObject(value) &&
    (value.decision === undefined || DECISIONS.has(value.decision)) &&
    optionalString(value.reason) &&
    optionalString(value.by) &&
    isObject(value.input) &&
    isStringList(value.additionalContext)
  );
}

export function isPromptSubmission(value: unknown): value is PromptSubmission {
  if (!isObject(value) || !isStringList(value.additionalContext)) return false;
  const block = value.block;
  return block === undefined || (isObject(block) && block.block === true && typeof block.reason === 'string' && typeof block.by === 'string');
}

export function isStopDecision(value: unknown): value is StopDecision {
  return isObject(value) && value.continue === true && typeof value.reason === 'string' && typeof value.by === 'string';
}

/** A short, printable rendering of what a plugin returned, for the message that names it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * A promise where a plain value was due (a sync tap returning one): it is malformed, and its
 * rejection, which nobody awaits, must not become an unhandled rejection that ends the process.
 */
export function defuseThenable(value: unknown): void {
  if (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function') {
    (value as PromiseLike<unknown>).then(undefined, () => undefined);
  }
}
