/**
 * Agent sessions: the kernel (process-wide) creates sessions; each owns its history, run lock,
 * reminder queue, usage anchor, stable prompt and tool view, so a tool can run a child session
 * inside its parent's run and background sessions run side by side.
 */
import type { AgentEvent } from './events.js';
import type { SessionContext } from './hooks.js';
import type { Message } from './messages.js';
import type { PermissionMode } from './permissions.js';
import type { Provider } from './provider.js';
import type { Conversation } from './services.js';
import type { Tool } from './tools.js';

export interface RunOptions {
  prompt: string;
  mode: PermissionMode;
  signal?: AbortSignal;
}

export interface SessionOptions {
  /** The session that creates this one (a sub-agent's parent). */
  parent?: Pick<SessionContext, 'agentId' | 'sessionId'>;
  /** Which tools this session offers: names, or a predicate. Default: all. */
  tools?: readonly string[] | ((tool: Tool) => boolean);
  /** System-prompt parts that start the `buildSystemPrompt` waterfall (e.g. a sub-agent's role). */
  systemPrompt?: readonly string[];
  /** A configured provider name, and/or a model, instead of the active provider's. */
  provider?: string;
  model?: string;
  /** Iterations per run (default 25, SPEC L1). */
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
  readonly conversation: Conversation;
  /** True while a run holds the session's lock. */
  readonly running: boolean;
  /** Run one user prompt through the agent loop. Runs of one session queue (L8). */
  run(options: RunOptions): AsyncIterable<AgentEvent>;
  /** Compact now (manual); waits for a running run of this session to end (L8). */
  compact(mode?: PermissionMode): Promise<boolean>;
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

/**
 * Bound under TOKENS.ConversationFactory to wrap or replace how a session keeps its history
 * (e.g. the session plugin persisting it). The last binding wins; the kernel has a default.
 */
export type ConversationFactory = (session: SessionContext, initial: readonly Message[], announce: (message: Message, index: number) => Promise<void>) => Conversation;

/** Bound under TOKENS.CompactionService; the kernel owns when and how it is called. */
export interface CompactionService {
  /** Whether the per-iteration (auto) check should compact now. */
  shouldCompact(state: { estimatedTokens: number; contextWindow: number }): boolean;
  /** The rewritten history, or undefined when nothing could be compacted. It must be valid for the next request. */
  compact(messages: readonly Message[], context: { reason: 'auto' | 'manual' | 'emergency'; session: SessionContext; signal?: AbortSignal }): Promise<Message[] | undefined>;
}
