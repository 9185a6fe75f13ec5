/**
 * The one, closed hook catalogue (webpack `Compiler.hooks` style): every extension point declared
 * once, with its tapable class, argument names, what a throwing tap does, when it fires and a doc
 * line. The `KernelHooks` type, the constructed hooks (kernel/hooks.ts) and docs/plugin-contract.md's hook
 * table (kept true by a test) are all derived from this object.
 */
import type { AsyncParallelHook, AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncWaterfallHook } from 'tapable';
import type {
  BlockDecision,
  CompactionContext,
  ContextState,
  EnvironmentContext,
  MessageAppendedContext,
  ModelRequestContext,
  ModelRequestValue,
  NotificationPayload,
  PermissionDecidedContext,
  PostToolUseContext,
  PostToolUseResult,
  PromptSubmission,
  PromptExpansionContext,
  PromptSubmitContext,
  SessionContext,
  SessionEndContext,
  StopContext,
  StopDecision,
  SubagentContext,
  SubagentStopContext,
  SystemPromptContext,
  ToolUseContext,
  ToolUseDecision,
  TrustDecidedContext,
} from './hooks.js';
import { deepFreeze } from './deep-freeze.js';
import type { Message } from './messages.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionRequest, PermissionVerdict } from './permissions.js';

export type HookClass = 'AsyncSeriesHook' | 'AsyncSeriesBailHook' | 'AsyncSeriesWaterfallHook' | 'SyncWaterfallHook' | 'AsyncParallelHook';

/**
 * What a throwing tap does: `skip` (fail open: the tap is ignored), `keep-value` (a waterfall
 * keeps the value it had), `deny` (fail closed: the permission or approval is denied, the tool
 * call denied, the prompt blocked), `withhold` (fail closed: the tool's output is replaced by an
 * error result naming the plugin), `refuse` (fail closed: the model request is not sent).
 */
export type HookFailure = 'skip' | 'keep-value' | 'deny' | 'withhold' | 'refuse';

export interface HookSpec<H = unknown> {
  readonly class: HookClass;
  readonly args: readonly string[];
  readonly failure: HookFailure;
  /** When the kernel calls it. */
  readonly fires: string;
  readonly doc: string;
  /** Type only: the tapable hook this entry makes. */
  readonly __hook?: H;
}

export type HookOf<S> = S extends HookSpec<infer H> ? H : never;

const hook = <H>(spec: Omit<HookSpec<H>, '__hook'>): HookSpec<H> => spec;

/** Frozen all the way down as this module is evaluated: the kernel reads each hook's failure rule from it. */
export const HOOK_CATALOGUE = deepFreeze({
  sessionStart: hook<AsyncSeriesHook<[SessionContext]>>({
    class: 'AsyncSeriesHook', args: ['session'], failure: 'skip',
    fires: 'when a UI starts the main session (`kernel.startSession()`)',
    doc: 'A new session begins; load state, greet, start watchers.',
  }),
  sessionResume: hook<AsyncSeriesHook<[SessionContext]>>({
    class: 'AsyncSeriesHook', args: ['session'], failure: 'skip',
    fires: '`kernel.resumeSession(records)`, after the history is restored',
    doc: 'A saved session continues.',
  }),
  sessionEnd: hook<AsyncSeriesHook<[SessionEndContext]>>({
    class: 'AsyncSeriesHook', args: ['session'], failure: 'skip',
    fires: '`kernel.shutdown(reason)`, before plugins are disposed',
    doc: 'The session is over; flush and clean up.',
  }),
  subagentStart: hook<AsyncSeriesHook<[SubagentContext]>>({
    class: 'AsyncSeriesHook', args: ['context'], failure: 'skip',
    fires: 'a run of a session that has a parent begins',
    doc: 'A sub-agent (child or background session) starts working on a prompt.',
  }),
  subagentStop: hook<AsyncSeriesHook<[SubagentStopContext]>>({
    class: 'AsyncSeriesHook', args: ['context'], failure: 'skip',
    fires: 'that run ends, on every exit path',
    doc: 'A sub-agent finished, with its end reason and final text.',
  }),
  userPromptSubmit: hook<AsyncSeriesWaterfallHook<[PromptSubmission, PromptSubmitContext]>>({
    class: 'AsyncSeriesWaterfallHook', args: ['submission', 'context'], failure: 'deny',
    fires: 'before the prompt enters history; for a user\'s or project\'s command, on the line as typed before the command runs',
    doc: 'Block the prompt (it never enters history, H6) or add context after it. A typed command\'s prompt does not pass it again.',
  }),
  userPromptExpansion: hook<AsyncSeriesBailHook<[PromptExpansionContext], PromptSubmission | undefined>>({
    class: 'AsyncSeriesBailHook', args: ['context'], failure: 'skip',
    fires: "when a command the user ran expanded to a prompt (a command of `kernel.commands()`), before the prompt is run",
    doc: "`block` drops the expansion (the command fails with the reason); `additionalContext` goes after the prompt. The typed line passed userPromptSubmit before the command ran.",
  }),
  buildSystemPrompt: hook<SyncWaterfallHook<[string[], SystemPromptContext]>>({
    class: 'SyncWaterfallHook', args: ['parts', 'context'], failure: 'keep-value',
    fires: 'once per session, tool list and model; cached so the stable prefix is byte-identical (K3)',
    doc: 'Stable system-prompt parts (base prompt, instructions, skill catalogue).',
  }),
  buildEnvironment: hook<AsyncSeriesWaterfallHook<[string[], EnvironmentContext]>>({
    class: 'AsyncSeriesWaterfallHook', args: ['parts', 'context'], failure: 'keep-value',
    fires: 'before every model request (after the cache breakpoint)',
    doc: 'Volatile per-request text: working directory, date, git status, active skills.',
  }),
  preModelRequest: hook<AsyncSeriesWaterfallHook<[ModelRequestValue, ModelRequestContext]>>({
    class: 'AsyncSeriesWaterfallHook', args: ['request', 'context'], failure: 'refuse',
    fires: 'before every provider request: each turn, and (with `context.reason`) a compaction summary or an MCP sampling request',
    doc: 'Last look at (or rewrite of) the request (PreUserMessage, DLP, model allowlists); `block` refuses it.',
  }),
  preCompact: hook<AsyncSeriesBailHook<[ContextState, CompactionContext], BlockDecision | void>>({
    class: 'AsyncSeriesBailHook', args: ['state', 'context'], failure: 'skip',
    fires: 'when the kernel compacts (auto | manual | emergency), before the compaction service runs',
    doc: 'History is about to be rewritten; `{ block: true, reason, by }` stops a compaction the user asked for (`/compact`), and only warns on an automatic one (the context must shrink).',
  }),
  postCompact: hook<AsyncSeriesHook<[ContextState, CompactionContext]>>({
    class: 'AsyncSeriesHook', args: ['state', 'context'], failure: 'skip',
    fires: 'after the compaction service rewrote the history',
    doc: 'History was rewritten; `tokensAfter` says how far it shrank, `report` what was dropped; push to `reinject` what the model must have again (active skills).',
  }),
  preToolUse: hook<AsyncSeriesWaterfallHook<[ToolUseDecision, ToolUseContext]>>({
    class: 'AsyncSeriesWaterfallHook', args: ['decision', 'context'], failure: 'deny',
    fires: 'per call, before the permission chain; a deny stops later taps, and no tap lowers an earlier answer (allow < ask < deny)',
    doc: 'allow | ask | deny with a reason, rewritten input, context for the model; `stopRun` ends the run after this batch of calls.',
  }),
  checkPermission: hook<AsyncSeriesBailHook<[PermissionRequest], PermissionVerdict | undefined>>({
    class: 'AsyncSeriesBailHook', args: ['request'], failure: 'deny',
    fires: 'per call, by stage (PermissionStage); no verdict → ask',
    doc: 'The permission layers. Before the essential layers a tap may only deny or ask.',
  }),
  requestApproval: hook<AsyncSeriesBailHook<[ApprovalRequest], ApprovalOutcome | undefined>>({
    class: 'AsyncSeriesBailHook', args: ['request'], failure: 'deny',
    fires: 'when the chain asks, before the active UI is asked',
    doc: 'Answer an approval (policy); unanswered, the active UI asks the user.',
  }),
  permissionDecided: hook<AsyncSeriesHook<[PermissionDecidedContext]>>({
    class: 'AsyncSeriesHook', args: ['decision'], failure: 'skip',
    fires: 'once per call with the deciding verdict (also plan-mode and hook refusals)',
    doc: 'Every permission outcome, for the audit log and "allow always".',
  }),
  postToolUse: hook<AsyncSeriesWaterfallHook<[PostToolUseResult, PostToolUseContext]>>({
    class: 'AsyncSeriesWaterfallHook', args: ['result', 'context'], failure: 'withhold',
    fires: 'after each executed call',
    doc: 'Inspect or rewrite a tool result; `stopRun` ends the run after this batch of calls.',
  }),
  messageAppended: hook<AsyncSeriesHook<[Message, MessageAppendedContext]>>({
    class: 'AsyncSeriesHook', args: ['message', 'context'], failure: 'skip',
    fires: 'every history append, awaited',
    doc: 'Persist the history (K4).',
  }),
  stop: hook<AsyncSeriesBailHook<[StopContext], StopDecision | undefined>>({
    class: 'AsyncSeriesBailHook', args: ['context'], failure: 'skip',
    fires: 'every run end, kernel faults included',
    doc: 'The run is ending; a completed run may be asked to continue (bounded).',
  }),
  notification: hook<AsyncParallelHook<[NotificationPayload]>>({
    class: 'AsyncParallelHook', args: ['payload'], failure: 'skip',
    fires: 'every notice, warning and approval request, on its way to the active UI',
    doc: 'Observe what the user is told.',
  }),
  trustDecided: hook<AsyncSeriesHook<[TrustDecidedContext]>>({
    class: 'AsyncSeriesHook', args: ['decision'], failure: 'skip',
    fires: 'once at boot, after plugins applied',
    doc: 'Whether the project was trusted, how, and which settings were skipped.',
  }),
} as const);
