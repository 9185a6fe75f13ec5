/**
 * Run-time checks of what each tap of a decision-carrying or value-carrying hook returns. A tap
 * whose answer is not of the hook's shape does not get its way: the hook takes its safe side and
 * the user is told which plugin returned what.
 *
 * - preToolUse: the call is denied (`[hook <plugin>] …`); later taps are not called.
 * - requestApproval: the approval is a deny answered by the plugin. A well-formed allow is taken
 *   for this call only, and only for the mode layer's question (pluginApproval).
 * - userPromptSubmit: the prompt is blocked (it never enters history).
 * - stop: no continuation (the run ends as it would have).
 * - preCompact: no block (the compaction goes ahead); userPromptExpansion: no answer (the
 *   expansion goes ahead; its typed line passed userPromptSubmit before the command ran).
 * - preModelRequest: the request is not sent (ModelRequestRefused, naming the plugin); so is one
 *   a tap refuses on purpose (`block`).
 * - postToolUse: the tool's output is withheld, replaced by an error result naming the plugin.
 * - the other waterfalls (prompt parts, environment parts): the value the waterfall had is kept.
 * checkPermission has its own rules (permission-chain.ts).
 *
 * On postToolUse and preModelRequest, whose value leaves MewCode, `undefined` is malformed too (a
 * DLP that built its redacted copy and forgot to return it would otherwise pass the raw value on),
 * and a tap's answer is read once into a plain copy the kernel owns (value-snapshots.ts): every
 * postToolUse answer, and a preModelRequest answer that is not the request the tap was handed (a
 * request is the whole history: copied only when a tap made a new one). A required plugin's tap
 * is handed a value no other tap holds, so nothing tapped before it can change what it checked
 * after it checked it. What the user is told names the value a tap returned; what travels on (a
 * withheld result, a refusal, a deny reason) only its kind.
 *
 * Well-formed decisions are taken as plain snapshots (read once: no getter or Proxy answers the
 * check one thing and the kernel another), and a preToolUse tap cannot lower what an earlier one
 * answered (allow < ask < deny). On the second pass (`recheck`, the input that will run) a rewrite
 * is not taken; a required plugin that would still change the input denies the call instead, so
 * no later tap, user hook or approver's arguments undo a policy's rewrite.
 */
import { noteAllow } from './decision-provenance.js';
import type { HookName, PostToolUseResult, PromptSubmission, ToolUseContext, ToolUseDecision } from '../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../types/permissions.js';
import { defuseThenable, describeKind, describeValue, isApprovalOutcome, isBlockDecision, isPromptSubmission, isStopDecision, isToolUseDecision, plainSnapshot, strictness, toolUseSnapshot, sameData } from './decision-shapes.js';
import type { ToolResult } from '../types/messages.js';
import { pluginOfTap, withheldResult, type InterceptableTap, type TapTransform } from './hooks.js';
import { ModelRequestRefused } from './model-request.js';
import { handOver, madeByKernel } from './fresh-copies.js';
import { plainDataCopy, toolResultSnapshot } from './value-snapshots.js';

type Check = (value: unknown) => boolean;
/** What the hook takes instead of a malformed answer, given the tap's arguments and the message. */
type SafeSide = (args: unknown[], plugin: string, problem: string) => unknown;

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList: Check = (value) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A list's items read once into a new array (not frozen: the next tap may push to it); anything else as it is. */
function listSnapshot(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  try {
    return Array.from(value as unknown[]);
  } catch {
    return undefined; // a Proxy whose trap throws
  }
}

interface Guard {
  check: Check;
  safe: SafeSide;
  /** How the message names the answer. */
  noun: string;
  /** A decision: checked and used as one snapshot, each property read once (decision-shapes.ts). */
  snapshot?: (args: unknown[], value: unknown) => unknown;
  /** What the hook keeps of a well-formed answer, given the value it had (preToolUse: never a lower decision). */
  keep?: (args: unknown[], answer: unknown, plugin: string) => unknown;
  /** Why the answer refuses outright (preModelRequest's `block`), checked before its shape; the hook then throws. */
  refusal?: (value: unknown, plugin: string) => string | undefined;
  /** `undefined` is malformed too, not tapable's "unchanged" (the value leaves MewCode). */
  answerRequired?: boolean;
  /**
   * The value this plugin's tap is handed: one no other tap holds (undefined when it cannot be
   * copied as plain data), or the one it was given when that does not matter for this plugin.
   */
  handOver?: (value: unknown, plugin: string) => unknown;
}

/** A preModelRequest tap's deliberate refusal; a malformed `block` refuses too (it meant to). */
function modelRequestRefusal(value: unknown, plugin: string): string | undefined {
  if (!isObject(value)) return undefined;
  const block: unknown = (value as { block?: unknown }).block;
  if (block === undefined) return undefined;
  const { reason, by } = isObject(block) ? (block as { reason?: unknown; by?: unknown }) : {};
  const who = typeof by === 'string' && by !== '' && by !== plugin ? ` (${by})` : '';
  return `plugin ${plugin}${who} refused it: ${typeof reason === 'string' ? reason : `(a malformed block: ${describeValue(block)})`}`;
}

/** Who is required (on the plugin, by configuration or by managed settings). */
export interface GuardOptions {
  isRequired?(plugin: string): boolean;
}

/**
 * A later preToolUse tap may add context or rewrite the input, but not lower an earlier answer:
 * an ask (or an allow) a policy gave stays, with its reason and who gave it. The second pass
 * judges the input that will run: a rewrite on it is not taken, and a required plugin that would
 * still rewrite it (a later tap, a user's hook or an approver changed what the policy made of it)
 * denies the call, naming itself, rather than see its rewrite dropped.
 */
const notLower = (isRequired: (plugin: string) => boolean) => (args: unknown[], answer: unknown, plugin: string): unknown => {
  const previous = args[0] as ToolUseDecision;
  let next = answer as ToolUseDecision;
  // A request to end the run stands, as a deny does: a later tap cannot take it back.
  if (previous.stopRun !== undefined && next.stopRun === undefined) next = Object.freeze({ ...next, stopRun: previous.stopRun });
  if ((args[1] as ToolUseContext | undefined)?.recheck === true && next.input !== previous.input) {
    if (isRequired(plugin) && !sameData(next.input, previous.input)) {
      const reason = `plugin ${plugin}, which is required, would change this call's arguments (the ones that would run are not what it made of them): it does not run`;
      return Object.freeze({ input: previous.input, additionalContext: next.additionalContext, decision: 'deny', reason, by: plugin });
    }
    next = Object.freeze({ ...next, input: previous.input });
  }
  if (strictness(next.decision) >= strictness(previous.decision)) {
    noteAllow(previous, next, plugin);
    return next;
  }
  const { decision: _lower, reason: _reason, by: _by, ...rest } = next;
  const kept: ToolUseDecision = Object.freeze({ ...rest, decision: previous.decision, ...(previous.reason !== undefined ? { reason: previous.reason } : {}), ...(previous.by !== undefined ? { by: previous.by } : {}) });
  noteAllow(previous, kept, plugin);
  return kept;
};

const keepUnlessRequired =
  (isRequired: (plugin: string) => boolean) =>
  (args: unknown[], plugin: string, problem: string): unknown => {
    if (isRequired(plugin)) throw new ModelRequestRefused(plugin, problem);
    return args[0];
  };

/**
 * A plugin answers an approval for this call only ("for the session" and "always" are the user's
 * to give, and would be saved as the user's rules), and its allow counts only where the request
 * says plugins may allow (the mode layer's question) and only for the arguments asked about:
 * otherwise it is no answer, so the next tap and then the user are asked. A deny always counts.
 */
function pluginApproval(args: unknown[], answer: unknown): unknown {
  const request = args[0] as ApprovalRequest;
  const outcome = answer as ApprovalOutcome;
  if (outcome.choice === 'deny') return outcome;
  // Not theirs to allow, or an allow with arguments of the plugin's own (which no preToolUse tap
  // would judge): no answer, so the user is asked.
  if (request.pluginsMayAllow !== true || outcome.input !== undefined) return undefined;
  return outcome.choice === 'allow_once' ? outcome : Object.freeze({ ...outcome, choice: 'allow_once' });
}

const guards = (options: GuardOptions): Partial<Record<HookName, Guard>> => {
  const isRequired = (plugin: string): boolean => options.isRequired?.(plugin) === true;
  return {
  preToolUse: {
    check: isToolUseDecision,
    noun: 'preToolUse decision',
    snapshot: (args, value) => toolUseSnapshot(value, (args[0] as ToolUseDecision).input),
    keep: notLower((plugin) => options.isRequired?.(plugin) === true),
    safe: (args, plugin, problem): ToolUseDecision => {
      const previous = args[0] as ToolUseDecision;
      return { input: previous.input, additionalContext: previous.additionalContext, decision: 'deny', reason: problem, by: plugin, ...(previous.stopRun ? { stopRun: previous.stopRun } : {}) };
    },
  },
  requestApproval: {
    check: isApprovalOutcome,
    noun: 'approval',
    snapshot: (_args, value) => plainSnapshot(value),
    keep: pluginApproval,
    safe: (_args, plugin, problem): ApprovalOutcome => ({ choice: 'deny', answeredBy: plugin, reason: problem }),
  },
  userPromptSubmit: {
    check: isPromptSubmission,
    noun: 'userPromptSubmit value',
    snapshot: (_args, value) => plainSnapshot(value),
    safe: (args, plugin, problem): PromptSubmission => ({ additionalContext: (args[0] as PromptSubmission).additionalContext, block: { block: true, reason: problem, by: plugin } }),
  },
  stop: { check: isStopDecision, noun: 'stop decision', safe: () => undefined, snapshot: (_args, value) => plainSnapshot(value) },
  // A malformed answer blocks nothing: the next tap is asked, and the compaction goes ahead.
  // A malformed answer decides nothing: the next tap is asked, and the expansion goes ahead.
  userPromptExpansion: { check: isPromptSubmission, noun: 'userPromptExpansion value', safe: () => undefined, snapshot: (_args, value) => plainSnapshot(value) },
  preCompact: { check: isBlockDecision, noun: 'preCompact block', safe: () => undefined, snapshot: (_args, value) => plainSnapshot(value) },
  // A required plugin's malformed parts refuse the request, as its throw does (required-failures.ts).
  // Every answer is read into a list the kernel owns: a tap that returned (or pushed onto) a list
  // another kept a reference to cannot have that one take a required part out before the kernel
  // joins the prompt (buildEnvironment's taps are asynchronous).
  buildSystemPrompt: { check: isStringList, noun: 'buildSystemPrompt value', safe: keepUnlessRequired(isRequired), snapshot: (_args, value) => listSnapshot(value) },
  buildEnvironment: { check: isStringList, noun: 'buildEnvironment value', safe: keepUnlessRequired(isRequired), snapshot: (_args, value) => listSnapshot(value) },
  preModelRequest: {
    check: (value) => isObject(value) && Array.isArray((value as { messages?: unknown }).messages),
    noun: 'preModelRequest value',
    refusal: modelRequestRefusal,
    answerRequired: true,
    // The request is the whole history: copied for a required plugin's tap only (a policy), and
    // not when it is a copy no tap has seen yet.
    handOver: (value, plugin) => handOver(value, isRequired(plugin) ? plainDataCopy : undefined),
    snapshot: (args, value) => (value === args[0] ? value : madeByKernel(plainDataCopy(value))),
    safe: (_args, plugin, problem) => {
      throw new ModelRequestRefused(plugin, problem);
    },
  },
  postToolUse: {
    check: isObject,
    noun: 'postToolUse result',
    answerRequired: true,
    // A result is small (its strings are shared, not copied): every answer is copied, and so
    // every tap is handed a copy only the kernel held.
    handOver: (value) => handOver(value, toolResultSnapshot),
    snapshot: (_args, value) => madeByKernel(toolResultSnapshot(value)),
    // A request to end the run stands: a later tap's new result does not drop it (the answer is the kernel's own copy).
    keep: (args, answer) => {
      const { stopRun } = args[0] as PostToolUseResult;
      if (stopRun !== undefined && (answer as PostToolUseResult).stopRun === undefined) (answer as PostToolUseResult).stopRun = stopRun;
      return answer;
    },
    safe: (args, _plugin, problem) => withheldResult(args[0] as PostToolUseResult, problem),
  },
  };
};

/**
 * The transforms for guardHooks: each tap's answer checked against its hook's shape. `warn` gets
 * the user's message (naming the value returned) and the shared one (naming only its kind).
 */
export function shapeTransforms(warn: (message: string, shared: string) => void, options: GuardOptions = {}): Partial<Record<HookName, TapTransform>> {
  const transforms: Partial<Record<HookName, TapTransform>> = {};
  for (const [name, guard] of Object.entries(guards(options)) as [HookName, Guard][]) {
    transforms[name] = (tap) => checked(tap, guard, warn);
  }
  return transforms;
}

function checked(tap: InterceptableTap, guard: Guard, warn: (message: string, shared: string) => void): InterceptableTap['fn'] {
  const plugin = pluginOfTap(tap.name);
  const malformed = (args: unknown[], value: unknown): unknown => {
    defuseThenable(value);
    const problem = `plugin ${plugin} returned a malformed ${guard.noun}`;
    const shared = `${problem} (${describeKind(value)}${value === undefined ? `: a ${tap.type === 'sync' ? 'tap' : 'tap\'s promise'} must give the value back, changed or not` : ''})`;
    warn(`${problem} (${describeValue(value)})`, shared);
    return guard.safe(args, plugin, shared);
  };
  const settle = (args: unknown[], value: unknown): unknown => {
    // undefined is tapable's "no answer": a waterfall keeps its value, a bail hook asks the next tap.
    if (value === undefined && guard.answerRequired !== true) return value;
    const answer = value === undefined ? undefined : guard.snapshot ? guard.snapshot(args, value) : value;
    const refused = answer === undefined ? undefined : guard.refusal?.(answer, plugin);
    if (refused !== undefined) throw new ModelRequestRefused(plugin, refused);
    if (answer !== undefined && guard.check(answer)) return guard.keep ? guard.keep(args, answer, plugin) : answer;
    return malformed(args, value);
  };
  /** The arguments this tap is called with (its own copy of the value), or undefined. */
  const handed = (args: unknown[]): unknown[] | undefined => {
    if (!guard.handOver) return args;
    const value = guard.handOver(args[0], plugin);
    return value === undefined ? undefined : [value, ...args.slice(1)];
  };
  /** The value could not be copied for this tap (it is not plain data): the hook's safe side. */
  const uncopiable = (args: unknown[]): unknown => {
    const problem = `the ${guard.noun.split(' ')[0]} value handed to plugin ${plugin} is not plain data (it cannot be copied for it to check)`;
    warn(problem, problem);
    return guard.safe(args, plugin, problem);
  };
  const { fn } = tap;
  switch (tap.type) {
    case 'sync':
      return (...args) => {
        const own = handed(args);
        return own ? settle(own, fn(...own)) : uncopiable(args);
      };
    case 'promise':
      return async (...args) => {
        const own = handed(args);
        return own ? settle(own, await fn(...own)) : uncopiable(args);
      };
    case 'async':
      return (...all) => {
        const callback = all.pop() as (error: unknown, result?: unknown) => void;
        const allArgs = handed(all);
        if (!allArgs) {
          let value: unknown;
          try {
            value = uncopiable(all);
          } catch (refusal) {
            return callback(refusal);
          }
          return callback(null, value);
        }
        fn(...allArgs, (error: unknown, result?: unknown) => {
          if (error) return callback(error);
          let value: unknown;
          try {
            value = settle(allArgs, result);
          } catch (refusal) {
            return callback(refusal); // to the hook's caller, not back into the plugin
          }
          callback(null, value);
        });
      };
  }
}
