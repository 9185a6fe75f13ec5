/**
 * What a tap of a decision-carrying hook may return, checked at run time: plugins are JavaScript
 * (or TypeScript compiled elsewhere, or `as any`), so the types of `types/hooks.ts` promise
 * nothing. Each check says whether a value is well formed; the caller turns anything else into
 * the hook's safe side (a deny, a block, the value the waterfall had) and names the plugin.
 */
import type { BlockDecision, PromptSubmission, RunStop, StopDecision, ToolUseDecision } from '../types/hooks.js';
import type { ApprovalOutcome, PermissionVerdict } from '../types/permissions.js';
import { types } from 'node:util';
import { deepFreeze } from '../types/deep-freeze.js';

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
  return (
    isObject(value) &&
    CHOICES.has(value.choice) &&
    typeof value.answeredBy === 'string' &&
    optionalString(value.reason) &&
    (value.input === undefined || isObject(value.input)) &&
    (value.stopRun === undefined || isRunStop(value.stopRun))
  );
}

export function isToolUseDecision(value: unknown): value is ToolUseDecision {
  return (
    isObject(value) &&
    (value.decision === undefined || DECISIONS.has(value.decision)) &&
    optionalString(value.reason) &&
    optionalString(value.by) &&
    isObject(value.input) &&
    isStringList(value.additionalContext) &&
    (value.stopRun === undefined || isRunStop(value.stopRun))
  );
}

/** A request to end the run (RunStop): a reason for the user and who asked. */
export function isRunStop(value: unknown): value is RunStop {
  return isObject(value) && typeof value.reason === 'string' && typeof value.by === 'string';
}

export function isPromptSubmission(value: unknown): value is PromptSubmission {
  if (!isObject(value) || !isStringList(value.additionalContext)) return false;
  const block = value.block;
  return block === undefined || (isObject(block) && block.block === true && typeof block.reason === 'string' && typeof block.by === 'string');
}

/** A blocking answer `{ block: true, reason, by }` (preCompact's). */
export function isBlockDecision(value: unknown): value is BlockDecision {
  return isObject(value) && value.block === true && typeof value.reason === 'string' && typeof value.by === 'string';
}

export function isStopDecision(value: unknown): value is StopDecision {
  return isObject(value) && value.continue === true && typeof value.reason === 'string' && typeof value.by === 'string';
}

/** Nodes looked at before a value is taken as plain data. */
const MAX_PLAIN_NODES = 10_000;

/**
 * Whether a value is data as JSON would carry it, before JSON.stringify reads it: plain objects and
 * arrays of strings, numbers, booleans and null. A boxed string (`new String('allow')`) or an
 * object with `toJSON` would otherwise come out of the snapshot as the well-formed answer it only
 * resembles.
 */
function plainData(root: object): boolean {
  const stack: unknown[] = [root];
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen > MAX_PLAIN_NODES) return false;
    const value = stack.pop();
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === undefined) continue;
    if (typeof value !== 'object') return false;
    try {
      const proto = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value)) {
        if (proto !== Array.prototype) return false;
      } else if (proto !== Object.prototype && proto !== null) return false;
      if ('toJSON' in value) return false;
      for (const key of Object.keys(value)) {
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        // A getter is read once, by the snapshot itself; what it returns is checked there.
        if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
      }
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A tap's answer as plain data, each property read once: a getter or a Proxy cannot show the check
 * one decision and the kernel another later. Undefined when it cannot be read as data (a Proxy
 * that throws, a cycle). Frozen at the top, so no later tap changes it in place.
 */
export function plainSnapshot(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (!plainData(value)) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : Object.freeze(JSON.parse(text) as unknown);
}

/** plainSnapshot, frozen all the way down. */
function deepSnapshot(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : deepFreeze(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * A preToolUse answer as a snapshot (see plainSnapshot): its fields read once; its input copied
 * only when a tap rewrote it (the same object as `previousInput` is kept, so a large write's
 * content is not copied at every tap). Undefined when it cannot be read.
 */
export function toolUseSnapshot(value: unknown, previousInput: unknown): unknown {
  if (!isObject(value)) return undefined;
  try {
    const { decision, reason, by, input, additionalContext, stopRun } = value;
    const context = Array.isArray(additionalContext) ? Object.freeze([...(additionalContext as unknown[])]) : additionalContext;
    return Object.freeze({
      // A rewrite frozen all the way down: a tap that kept it cannot change a nested field later.
      input: input === previousInput ? input : deepSnapshot(input),
      additionalContext: context,
      ...(decision !== undefined ? { decision } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(by !== undefined ? { by } : {}),
      ...(stopRun !== undefined ? { stopRun: deepSnapshot(stopRun) } : {}),
    });
  } catch {
    return undefined;
  }
}

/** A deep copy of plain data (a tool input, a permission target), frozen all the way down. */
export function frozenCopy(value: unknown): unknown {
  return deepFreeze(structuredClone(value));
}

const STRICTNESS: Readonly<Record<string, number>> = { allow: 1, ask: 2, deny: 3 };

/** How strict a preToolUse or permission answer is: none < allow < ask < deny. */
export function strictness(decision: string | undefined): number {
  return decision === undefined ? 0 : (STRICTNESS[decision] ?? 0);
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
  // What JSON shows of a boxed string or a toJSON is not what was returned: say so.
  if (typeof value === 'object' && value !== null && !plainData(value)) text = `not plain data (a class instance, a boxed value or a toJSON), shown as ${text}`;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * What kind of value a plugin returned, saying nothing of what it holds: for the text that
 * travels on (a withheld result, a refusal, a deny reason), where describeValue's rendering of a
 * DLP's answer could be the output it was to redact.
 */
export function describeKind(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (types.isProxy(value)) return 'a Proxy';
  if (Array.isArray(value)) return 'an array';
  try {
    if (typeof (value as { then?: unknown }).then === 'function') return 'a promise';
  } catch {
    // a getter that throws: an object all the same
  }
  return 'an object not of its shape';
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

/**
 * Whether two tool inputs hold the same data (plain JSON values, compared by value, key order and
 * prototypes aside): a policy that returns an equal copy of the input it was shown changes nothing.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
