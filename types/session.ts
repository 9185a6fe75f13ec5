/**
 * Agent sessions: the kernel (process-wide) creates sessions; each owns its history, run lock,
 * reminder queue, usage anchor, stable prompt and tool view, so a tool can run a child session
 * inside its parent's run and background sessions run side by side.
 */
import type { AgentEvent } from './events.js';
import type { CompactionContext, SessionContext } from './hooks.js';
import type { Message, PromptPart } from './messages.js';
import type { PermissionMode } from './permissions.js';
import type { Provider } from './provider.js';
import type { ConversationView } from './services.js';
import type { Tool } from './tools.js';
import type { UsageAnchor } from './token-estimate.js';

/**
 * `-p`'s turn limit when neither `--max-turns` nor `max_turns` sets one. A headless run has nobody
 * watching its cost; 200 turns covers a refactor across dozens of files or a long test-fix loop
 * (one model turn per edit-and-check), while a model going round in circles still stops. An
 * interactive session has no default limit: its user sees every turn and can press Esc.
 */
export const PRINT_MAX_TURNS = 200;

export interface RunOptions {
  prompt: string;
  /**
   * The prompt's parts as the front end received them, when `prompt` is their joined text (an
   * editor's embedded file, or a slash command as typed before it expanded): saved with the
   * prompt's message so a replay shows what was sent (UserMessage.prompt).
   */
  promptParts?: readonly PromptPart[];
  mode: PermissionMode;
  signal?: AbortSignal;
  /**
   * Model turns this run may take (`--max-turns`); reaching it ends the run with `max_iterations`
   * (Claude Code's `error_max_turns`). Absent: the session's own limit, else `max_turns` from
   * configuration, else `defaultMaxTurns`, else no limit.
   */
  maxTurns?: number;
  /** The front end's limit when neither the run, the session nor configuration sets one. */
  defaultMaxTurns?: number;
  /**
   * The prompt is a typed command's expansion whose line userPromptSubmit already judged before
   * the command ran (CommandResult.judged): the run does not pass it again, and the context that
   * judgement added goes with it. One the kernel did not issue for this session and this prompt,
   * or one already used, is ignored (the prompt passes userPromptSubmit as any other).
   */
  judged?: PromptJudgement;
}

/** The kernel's opaque record that userPromptSubmit allowed a typed line (kernel/prompt-judgement.ts). */
export interface PromptJudgement {
  readonly kind: 'prompt-judgement';
}

export interface SessionOptions {
  /** The session that creates this one (a sub-agent's parent). */
  parent?: Pick<SessionContext, 'agentId' | 'sessionId'>;
  /** A sub-agent's role, carried in every hook payload about this session. */
  agentType?: string;
  /** Which tools this session offers: names, or a predicate. Default: all. */
  tools?: readonly string[] | ((tool: Tool) => boolean);
  /** System-prompt parts that start the `buildSystemPrompt` waterfall (e.g. a sub-agent's role). */
  systemPrompt?: readonly string[];
  /** A configured provider name, and/or a model, instead of the active provider's. */
  provider?: string;
  model?: string;
  /** Model turns per run: a sub-agent's default is 25; a main session has none of its own (see RunOptions.maxTurns). */
  maxIterations?: number;
  /** Consecutive all-unknown-tool iterations before stopping (default 3; 2 for sub-agents). */
  maxUnknownToolIterations?: number;
  /** Starting history (fork, resume). It is repaired so the next request is valid (K4). */
  history?: readonly Message[];
  /** Keep an existing session id (resume); default: the parent's, or a new one. */
  sessionId?: string;
  agentId?: string;
}

/** The result given to a call whose result was never recorded (a crash): it may have run, in full or in part. */
export const INTERRUPTED_RESULT = 'No result was recorded for this call: the session was interrupted while it was pending or running, so it may have run, in full or in part. Check its effects before repeating it.';

/** How much of the parent's history a fork starts with. */
export type ForkContext = 'none' | 'full' | { recent: number };

export interface ForkOptions extends Omit<SessionOptions, 'parent' | 'history'> {
  context: ForkContext;
}

/** What a resumed session is rebuilt from (the session plugin stores these). */
export interface SessionRecords {
  sessionId: string;
  messages: readonly Message[];
  agentId?: string;
}

export interface AgentSession extends SessionContext {
  /** Its history, read-only (see ConversationView). */
  readonly conversation: ConversationView;
  /** True while a run holds the session's lock. */
  readonly running: boolean;
  /** Run one user prompt through the agent loop. Runs of one session queue (L8). */
  run(options: RunOptions): AsyncIterable<AgentEvent>;
  /**
   * Compact now (manual); waits for a running run of this session to end (L8). `focus` steers the
   * summary (`/compact <focus>`). `signal` cancels it: the summary request is aborted and the
   * history stays exactly as it was (false is returned; `signal.aborted` tells it from "nothing to compact").
   */
  compact(mode?: PermissionMode, options?: { focus?: string; signal?: AbortSignal }): Promise<boolean>;
  /** A new session whose parent is this one, starting with none, some or all of this history. */
  fork(options: ForkOptions): AgentSession;
  /** Queue text for this session's next model request (taken once, L2). */
  injectReminder(text: string): void;
  /** The provider this session's next request goes to. */
  currentProvider(): Provider;
  /**
   * Send this session's next request (even mid-run, from the next iteration) to another configured
   * provider and/or model. Its context window and max_tokens follow; the prompt cache and the
   * usage anchor start over, with one notice. Throws a ConfigurationError naming the configured
   * providers when the name is unknown.
   */
  switchModel(selection: ModelSelection): Provider;
}

export interface ModelSelection {
  provider?: string;
  model?: string;
}

/** Bound under TOKENS.CompactionService; the kernel owns when and how it is called. */
export interface CompactionService {
  /**
   * C8, the one estimate every threshold decision uses (the auto check, the resume check, the
   * state the compaction hooks see): the anchor plus the messages after it as they are sent.
   * Without it the kernel counts each message whole (types/token-estimate.ts).
   */
  estimateTokens?(messages: readonly Message[], anchor: UsageAnchor | undefined): number;
  /**
   * Whether the per-iteration (auto) check should compact now (`session`: whose history, for a
   * per-session breaker; `messages`: the history, so a service can say no when it has nothing to
   * rewrite, instead of a compaction announced and hooked on every turn that changes nothing).
   */
  shouldCompact(state: { estimatedTokens: number; contextWindow: number }, session?: SessionContext, messages?: readonly Message[]): boolean;
  /**
   * The rewritten history (alone, or with a report of what it dropped), or undefined when nothing
   * could be compacted. It must be valid for the next request.
   */
  compact(messages: readonly Message[], context: CompactionRequest): Promise<Message[] | CompactionOutcome | undefined>;
}

export interface CompactionRequest {
  reason: 'auto' | 'manual' | 'emergency';
  /** The session, its permission mode and the provider its next request goes to (the summary's too). */
  session: CompactionContext;
  /** The tools the session offers now (the recovery attachment lists them). */
  tools: readonly string[];
  /** Manual compaction: what the user asked the summary to keep (`/compact <focus>`). */
  focus?: string;
  signal?: AbortSignal;
}

export interface CompactionOutcome {
  messages: Message[];
  /** What the compaction dropped; the kernel passes it to `postCompact` (`state.report`). */
  report?: CompactionReport;
}

/** What a compaction took out of the history, shown to the user and kept in the session file. */
export interface CompactionReport {
  reason: 'auto' | 'manual' | 'emergency';
  /** Messages replaced by the summary (positions in the history before the compaction). */
  summarised: DroppedRange;
  /** Oldest messages that did not fit the summary request (C7 retry): not in the summary at all. */
  unsummarised: DroppedRange;
  /** The recent messages kept as they were. */
  kept: { count: number; tokens: number };
  summaryTokens: number;
  /** Estimates (C8) of the history before and after. */
  tokensBefore: number;
  tokensAfter: number;
  /** One line for the user. */
  notice: string;
}

export interface DroppedRange {
  count: number;
  tokens: number;
  /** Each dropped message: its position, role, estimated tokens and the tool calls it made or answered. */
  messages: { index: number; role: Message['role']; tokens: number; toolCallIds?: string[] }[];
  /** How many of the oldest dropped messages are not listed (the list is bounded; `count` and `tokens` cover all). */
  omitted?: number;
}
