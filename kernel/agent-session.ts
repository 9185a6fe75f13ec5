/**
 * One agent session: its own history, run lock, reminder queue, usage anchor, stable prompt and
 * tool view, so sessions never wait on each other. A tool may create a child session and run it
 * to completion inside its parent's run; background sessions run concurrently.
 */
import { takeJudgement } from './prompt-judgement.js';
import type { AgentEvent } from '../types/events.js';
import type { KernelHooks, SessionContext } from '../types/hooks.js';
import { emptyUsage } from '../types/messages.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode } from '../types/permissions.js';
import type { Provider } from '../types/provider.js';
import type { Conversation, ConversationView } from '../types/services.js';
import type { AgentSession, CompactionService, ForkOptions, ModelSelection, RunOptions, SessionOptions } from '../types/session.js';
import { SUBAGENT_MAX_TURNS, SUBAGENT_MAX_UNKNOWN_TOOL_ITERATIONS, runAgentLoop, type RunEnd } from './agent-loop.js';
import { compactHistory } from './compaction.js';
import { estimateTokens, type UsageAnchor } from './context-estimate.js';
import { ensureAssistantTail, HistoryConversation, recentHistory, startableHistory } from './conversation.js';
import { EventChannel } from './event-channel.js';
import { conversationView } from './guarded-history.js';
import { Mutex } from './mutex.js';
import type { OutputRoute } from './output-route.js';
import { ModelRequestRefused } from './model-request.js';
import type { PermissionChain } from './permission-chain.js';
import { errorMessage } from './plugin-error.js';
import type { ToolRegistryImpl } from './tool-registry.js';
import { toolFilter, ToolView, type ToolChange } from './tool-view.js';
import { shareCallIds } from './unique-call-ids.js';
import { groupDigits } from '../types/plain-intl.js';
import { terminalSafe } from '../config/terminal-safe.js';

/** What a session needs from the kernel that created it. */
export interface SessionHost {
  readonly hooks: KernelHooks;
  readonly registry: ToolRegistryImpl;
  readonly chain: PermissionChain;
  readonly output: OutputRoute;
  readonly projectRoot: string;
  readonly homeDir: string;
  readonly defaultToolTimeoutMs: number;
  readonly defaultMaxUnknownToolIterations: number;
  readonly maxToolConcurrency: number;
  /** `max_turns` from configuration, when set. */
  readonly configuredMaxTurns: number | undefined;
  provider(options: { name?: string; model?: string }): Provider;
  compactionService(): CompactionService | undefined;
  ready(): Promise<void>;
  /** A request has been handed to the provider: the process now mostly waits for the model. Returns what to call at the answer's first event. */
  awaitingModel(): () => void;
  createSession(options: SessionOptions): AgentSession;
  /** The mode a run may use: managed settings can forbid bypassPermissions however it was chosen. */
  permittedMode(mode: PermissionMode): PermissionMode;
  /** Whether a tool's progress text may be shown (no configured plugin taps postToolUse). */
  toolProgressShown(): boolean;
}

/** Each session's writable history, for the kernel's own code (a session hands out only its view). */
const histories = new WeakMap<AgentSessionImpl, Conversation>();

/** The history the kernel writes (resume closes an interrupted turn; tests set up a history). */
export function historyOf(session: AgentSessionImpl): Conversation {
  return histories.get(session)!;
}

export class AgentSessionImpl implements AgentSession {
  readonly sessionId: string;
  readonly agentId: string;
  readonly parentAgentId?: string;
  readonly projectRoot: string;
  readonly homeDir: string;
  /** Its history as plugins and hosts see it: read-only (guarded-history.ts). */
  readonly conversation: ConversationView;
  /** The history itself, which only the kernel writes (`historyOf`). */
  readonly #history: Conversation;

  readonly #lock = new Mutex();
  readonly #reminders: string[] = [];
  readonly #anchor: { current: UsageAnchor | undefined } = { current: undefined };
  readonly #view: ToolView;
  #stable: { key: string; prompt: string } | undefined;
  /** The provider and model this session asked for; starts as its options' (switchModel changes it). */
  #selection: ModelSelection;

  /** A true private field: a tool holds this session, and must not reach the kernel's raw hooks. */
  readonly #host: SessionHost;

  /** A model turn was taken (tool changes are announced from then on). */
  #turnTaken = false;
  readonly #options: SessionOptions & { sessionId: string; agentId: string };

  /**
   * Plugins and tools hold sessions, so all of a session's state is in true private fields and
   * the object is frozen: nobody rewrites its id (what the session file and the audit record), its
   * tool view (what plan mode offers), its limits or a method other holders call.
   */
  /** A history a plugin gave, told on messageAppended before the first run (or undefined). */
  readonly #announced: Promise<void> | undefined;

  constructor(host: SessionHost, options: SessionOptions & { sessionId: string; agentId: string }, announceHistory = false) {
    this.#host = host;
    this.#options = options;
    this.sessionId = options.sessionId;
    this.agentId = options.agentId;
    if (options.parent) {
      this.parentAgentId = options.parent.agentId;
      shareCallIds(this, options.parent);
    }
    this.projectRoot = host.projectRoot;
    this.homeDir = host.homeDir;
    this.#selection = { ...(options.provider ? { provider: options.provider } : {}), ...(options.model ? { model: options.model } : {}) };
    const context = this.context();
    this.#history = new HistoryConversation(startableHistory(options.history ?? []), (message, index) => host.hooks.messageAppended.promise(message, { ...context, index }));
    this.conversation = conversationView(this.#history);
    histories.set(this, this.#history);
    this.#view = new ToolView(host.registry, toolFilter(options.tools));
    this.#view.refresh();
    this.#announced = announceHistory ? this.#announceHistory(context).catch(() => undefined) : undefined;
    Object.freeze(this);
  }

  /** Each message of the starting history on messageAppended, in order (the hook's taps are guarded). */
  async #announceHistory(context: SessionContext): Promise<void> {
    const messages = this.#history.messages;
    for (let index = 0; index < messages.length; index++) await this.#host.hooks.messageAppended.promise(messages[index]!, { ...context, index });
  }

  /** The identity every hook payload carries. */
  context(): SessionContext {
    return {
      sessionId: this.sessionId,
      agentId: this.agentId,
      ...(this.parentAgentId ? { parentAgentId: this.parentAgentId } : {}),
      ...(this.#options.agentType ? { agentType: this.#options.agentType } : {}),
      projectRoot: this.projectRoot,
      homeDir: this.homeDir,
    };
  }

  get running(): boolean {
    return this.#lock.locked;
  }

  /** Take the registry's tools as this session's baseline without announcing a change (end of boot). */
  syncTools(): void {
    this.#view.refresh();
  }

  /** The tools this session offers now (they change only between turns). */
  tools(): readonly string[] {
    return this.#view.names();
  }

  injectReminder(text: string): void {
    this.#reminders.push(text);
  }

  /** The stable system prompt, computed once per tool list and model so it stays byte-identical (K3). */
  systemPrompt(): string {
    const names = this.#view.names();
    const provider = this.currentProvider();
    const key = `${provider.id}\u0000${provider.model}\u0000${names.join('\n')}`;
    if (this.#stable?.key !== key) {
      const parts = this.#host.hooks.buildSystemPrompt.call([...(this.#options.systemPrompt ?? [])], { ...this.context(), tools: names });
      this.#stable = { key, prompt: parts.filter((part) => part.length > 0).join('\n\n') };
    }
    return this.#stable.prompt;
  }

  fork(options: ForkOptions): AgentSession {
    const { context, ...rest } = options;
    const messages = this.#history.messages;
    const history = context === 'none' ? [] : context === 'full' ? [...messages] : recentHistory(messages, context.recent);
    return this.#host.createSession({ ...rest, parent: this, history, sessionId: this.sessionId });
  }

  run(options: RunOptions): AsyncIterable<AgentEvent> {
    const channel = new EventChannel<AgentEvent>();
    void this.#runExclusive(channel, options);
    return channel;
  }

  /** C4: a resumed history that leaves less than this much of the window is compacted at once. */
  async compactIfNearlyFull(headroomTokens: number): Promise<boolean> {
    const window = this.currentProvider().contextWindow;
    if (estimateTokens(this.#history.messages, this.#anchor.current, this.#host.compactionService()) <= window - headroomTokens) return false;
    // Not the user's request: a preCompact block cannot keep a history too full to go on.
    return this.#compactLocked('default', {}, false);
  }

  /** The user's request (`/compact`): a preCompact tap's block stops it (kernel/compaction.ts). */
  compact(mode: PermissionMode = 'default', options: { focus?: string; signal?: AbortSignal } = {}): Promise<boolean> {
    return this.#compactLocked(mode, options, true);
  }

  async #compactLocked(mode: PermissionMode, options: { focus?: string; signal?: AbortSignal }, userAsked: boolean): Promise<boolean> {
    if (options.signal?.aborted) return false;
    const release = await this.#lock.acquire();
    try {
      // Cancelled while waiting for a run to end: nothing was started.
      if (options.signal?.aborted) return false;
      return await this.#compactWith('manual', mode, (event) => this.#route(event), options.signal, options.focus, userAsked);
    } finally {
      release();
    }
  }

  #compactWith(reason: 'auto' | 'manual' | 'emergency', mode: PermissionMode, emit: (event: AgentEvent) => void, signal?: AbortSignal, focus?: string, userAsked = false): Promise<boolean> {
    return compactHistory(reason, {
      userAsked,
      hooks: this.#host.hooks,
      conversation: this.#history,
      anchor: this.#anchor,
      context: { ...this.context(), mode, provider: this.currentProvider() },
      service: this.#host.compactionService(),
      tools: this.#view.names(),
      emit,
      ...(signal ? { signal } : {}),
      ...(focus?.trim() ? { focus: focus.trim() } : {}),
    });
  }

  currentProvider(): Provider {
    return this.#host.provider({ ...(this.#selection.provider ? { name: this.#selection.provider } : {}), ...(this.#selection.model ? { model: this.#selection.model } : {}) });
  }

  switchModel(selection: ModelSelection): Provider {
    const before = this.currentProvider();
    const wanted = { ...(selection.provider ? { provider: selection.provider } : {}), ...(selection.model ? { model: selection.model } : {}) };
    // Resolved first: an unknown name throws and leaves the session as it was.
    const next = this.#host.provider({ ...(wanted.provider ? { name: wanted.provider } : {}), ...(wanted.model ? { model: wanted.model } : {}) });
    // A model alone belongs to the provider it was chosen for: pinned, so a later change of the
    // process's active provider never sends it to another vendor.
    this.#selection = { provider: next.id, ...(wanted.model ? { model: wanted.model } : {}) };
    if (next === before) return next;
    // Another model counts tokens its own way, and its prompt cache starts empty.
    this.#anchor.current = undefined;
    this.#route({
      type: 'notice',
      // One line whatever the names hold (a definition file's model: is checked at parse time; a
      // provider's answer or a setting may not be): a line break here would forge lines under ours.
      message: `Model switched to ${terminalSafe(next.model)} (provider "${terminalSafe(next.id)}", context window ${groupDigits(next.contextWindow)} tokens); its prompt cache starts over with the next request.`,
    });
    return next;
  }

  /** Notices reach the user through the one output route, tagged with this session. */
  #route(event: AgentEvent): void {
    if (event.type === 'notice') this.#host.output.notify({ kind: 'notice', message: event.message, sessionId: this.sessionId, agentId: this.agentId, ...(this.parentAgentId ? { parentAgentId: this.parentAgentId } : {}) });
  }

  /** The run's own limit, the session's, a sub-agent's default, configuration's, the front end's; else none. */
  #turnLimit(options: RunOptions): number {
    if (options.maxTurns !== undefined) return options.maxTurns;
    if (this.#options.maxIterations !== undefined) return this.#options.maxIterations;
    if (this.parentAgentId) return SUBAGENT_MAX_TURNS;
    return this.#host.configuredMaxTurns ?? options.defaultMaxTurns ?? Number.POSITIVE_INFINITY;
  }

  async #runExclusive(channel: EventChannel<AgentEvent>, options: RunOptions): Promise<void> {
    const release = await this.#lock.acquire();
    const emit = (raw: AgentEvent): void => {
      const event = raw.type === 'tool_progress' && raw.progress.message !== undefined && !this.#host.toolProgressShown() ? withoutProgressText(raw) : raw;
      channel.push(event);
      this.#route(event);
    };
    const signal = options.signal ?? new AbortController().signal;
    const mode = this.#host.permittedMode(options.mode);
    const run = { ...this.context(), mode };
    const parent = this.parentAgentId;
    let stopFired = false;
    let end: RunEnd | undefined;
    try {
      await this.#announced;
      this.#announceToolChange(this.#view.refresh(), emit);
      if (parent) await this.#host.hooks.subagentStart.promise({ ...run, parentAgentId: parent, prompt: options.prompt });
      // Built when the run starts (and again only if a model switch or tool change needs it). A
      // required plugin's failure there refuses the request: the loop meets it again and stops.
      this.#buildSystemPromptEarly();
      const judged = takeJudgement(options.judged, this, options.prompt);
      end = await runAgentLoop(options.prompt, run, signal, {
        ...(options.promptParts ? { promptParts: options.promptParts } : {}),
        ...(judged ? { judged } : {}),
        hooks: this.#host.hooks,
        tools: this.#view,
        chain: this.#host.chain,
        conversation: this.#history,
        session: this,
        provider: () => this.currentProvider(),
        stablePrompt: () => this.systemPrompt(),
        defaultToolTimeoutMs: this.#host.defaultToolTimeoutMs,
        maxIterations: this.#turnLimit(options),
        maxUnknownToolIterations: this.#options.maxUnknownToolIterations ?? (parent ? SUBAGENT_MAX_UNKNOWN_TOOL_ITERATIONS : this.#host.defaultMaxUnknownToolIterations),
        maxToolConcurrency: this.#host.maxToolConcurrency,
        takeReminders: () => this.#reminders.splice(0),
        addReminder: (text) => this.#reminders.push(text),
        anchor: this.#anchor,
        emit,
        approve: (request: ApprovalRequest): Promise<ApprovalOutcome | undefined> => this.#host.output.approve(request),
        compact: (reason, runSignal) => this.#compactWith(reason, mode, emit, runSignal),
        ready: () => this.#host.ready(),
        awaitingModel: () => this.#host.awaitingModel(),
        refreshTools: () => {
          this.#announceToolChange(this.#view.refresh(), emit);
          this.#turnTaken = true;
        },
        stopped: () => {
          stopFired = true;
        },
      });
    } catch (error) {
      // A kernel fault must still leave valid history, fire `stop` and end with one `done` (L5).
      const message = `Internal error: ${errorMessage(error)}`;
      emit({ type: 'error', message, kind: 'internal' });
      await ensureAssistantTail(this.#history, `(The run stopped: ${message})`).catch(() => undefined);
      if (!stopFired) await this.#host.hooks.stop.promise({ ...run, reason: 'error', finalText: message, continuations: 0 }).catch(() => undefined);
      emit({ type: 'done', reason: 'error', finalText: message, usage: emptyUsage(), iterations: 0 });
      end = { reason: 'error', finalText: message };
    } finally {
      if (parent && end) {
        await this.#host.hooks.subagentStop.promise({ ...run, parentAgentId: parent, prompt: options.prompt, reason: end.reason, finalText: end.finalText }).catch(() => undefined);
      }
      release();
      channel.close();
    }
  }

  #buildSystemPromptEarly(): void {
    try {
      this.systemPrompt();
    } catch (error) {
      if (!(error instanceof ModelRequestRefused)) throw error;
    }
  }

  /**
   * Tools that join before the session's first model turn (an MCP server that connected during
   * the start-up wait) are not a change anyone saw: announced only after a turn was taken.
   */
  #announceToolChange(change: ToolChange | undefined, emit: (event: AgentEvent) => void): void {
    if (!change || !this.#turnTaken) return;
    const parts = [change.added.length ? `added ${change.added.join(', ')}` : '', change.removed.length ? `removed ${change.removed.join(', ')}` : ''].filter(Boolean);
    emit({ type: 'notice', message: `The tools changed since the last turn: ${parts.join('; ') || 'some were replaced'}.` });
  }
}

/** A progress event without its text: how far, not what the tool printed. */
function withoutProgressText(event: Extract<AgentEvent, { type: 'tool_progress' }>): AgentEvent {
  const { message: _text, ...progress } = event.progress;
  return { ...event, progress };
}
