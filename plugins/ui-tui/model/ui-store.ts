/**
 * The terminal UI's state and how agent events change it. Plain TypeScript with an immutable
 * snapshot per change (React reads it with useSyncExternalStore), so the same logic is tested
 * without a terminal and the benchmark can count what a change costs.
 *
 * Finished things are appended to `entries` once and never change: the scrollback. Everything
 * else is the live region.
 */
import type { AgentEvent } from '../../../types/events.js';
import type { NotificationPayload } from '../../../types/hooks.js';
import type { ApprovalChoice, ApprovalRequest } from '../../../types/permissions.js';
import type { PendingTrust } from '../../../types/trust.js';
import { splitStream } from './stream-split.js';
import type { Entry, NewEntry, PendingApproval, PendingTrustDialog, Picker, ProgressLine, RunningTool, StatusInfo } from './entries.js';

export interface UiState {
  readonly entries: readonly Entry[];
  readonly streamingText: string;
  readonly streamingThinking: string;
  readonly running: readonly RunningTool[];
  readonly progress: readonly ProgressLine[];
  /** Approval requests in the order they came; the first is the one on screen. */
  readonly approvals: readonly PendingApproval[];
  readonly trust: PendingTrustDialog | undefined;
  readonly picker: Picker | undefined;
  /** A run (or a command) is in progress. */
  readonly busy: boolean;
  /** When it started (for the "working… 3s" line). */
  readonly busySince: number;
  readonly status: StatusInfo;
  /** A one-line hint under the input (e.g. "Press Ctrl+C again to exit"). */
  readonly hint: string | undefined;
  /** Whether thinking is shown in full (Ctrl+T) or collapsed to its first line. */
  readonly thinkingExpanded: boolean;
}

/** A running call's progress message kept (a few lines are shown; an MCP server may send more). */
export const MAX_TAIL_CHARS = 2000;

/** "… retrying in 2.5 s (attempt 2 of 4)": provider retries become a countdown line. */
const RETRY_NOTICE = /retrying in ([\d.]+) s\b/;

export class UiStore {
  private state: UiState;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  /** Clock used for elapsed times and countdowns (tests pass their own). */
  readonly now: () => number;

  constructor(status: StatusInfo, now: () => number = Date.now) {
    this.now = now;
    this.state = {
      entries: [],
      streamingText: '',
      streamingThinking: '',
      running: [],
      progress: [],
      approvals: [],
      trust: undefined,
      picker: undefined,
      busy: false,
      busySince: 0,
      status,
      hint: undefined,
      thinkingExpanded: false,
    };
  }

  get snapshot(): UiState {
    return this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UiState => this.state;

  private set(patch: Partial<UiState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  private entry(value: NewEntry): Entry {
    return { ...value, id: this.nextId++ } as Entry;
  }

  /** Append finished entries to the scrollback. */
  add(...values: NewEntry[]): void {
    if (values.length === 0) return;
    this.set({ entries: [...this.state.entries, ...values.map((v) => this.entry(v))] });
  }

  notice(level: 'notice' | 'warning' | 'error', text: string): void {
    this.add({ kind: 'notice', level, text });
  }

  setBusy(busy: boolean): void {
    this.set(busy ? { busy, busySince: this.now() } : { busy });
  }

  setHint(hint: string | undefined): void {
    if (hint !== this.state.hint) this.set({ hint });
  }

  setStatus(patch: Partial<StatusInfo>): void {
    this.set({ status: { ...this.state.status, ...patch } });
  }

  /**
   * A long operation outside a run's events (MCP servers connecting, a sub-agent) shows as a
   * progress line; calling again with the same id changes its text and keeps its start time.
   */
  startProgress(id: string, text: string): void {
    const existing = this.state.progress.find((p) => p.id === id);
    if (existing) {
      this.set({ progress: this.state.progress.map((p) => (p.id === id ? { ...p, text } : p)) });
      return;
    }
    this.set({ progress: [...this.state.progress, { id, text, startedAt: this.now() }] });
  }

  endProgress(id: string): void {
    this.set({ progress: this.state.progress.filter((p) => p.id !== id) });
  }

  toggleThinking(): void {
    this.set({ thinkingExpanded: !this.state.thinkingExpanded });
  }

  /** What the kernel's output route delivers (notices and warnings outside a run's events). */
  notify(payload: NotificationPayload): void {
    if (payload.kind === 'notice') this.notice('notice', payload.message);
    else if (payload.kind === 'warning') this.notice('warning', payload.message);
    // approval_needed is shown by the dialog itself; idle and debug are not for the screen
  }

  /** Ask the user about a call; resolves when the dialog is answered. Requests queue. */
  requestApproval(request: ApprovalRequest): Promise<ApprovalChoice> {
    return new Promise((resolve) => {
      const pending: PendingApproval = {
        id: this.nextId++,
        request,
        resolve: (choice) => {
          this.set({ approvals: this.state.approvals.filter((a) => a !== pending) });
          resolve(choice);
        },
      };
      this.set({ approvals: [...this.state.approvals, pending] });
    });
  }

  requestTrust(pending: PendingTrust): Promise<boolean> {
    return new Promise((resolve) => {
      this.set({
        trust: {
          pending,
          resolve: (trusted) => {
            this.set({ trust: undefined });
            resolve(trusted);
          },
        },
      });
    });
  }

  pick(picker: Omit<Picker, 'resolve'>): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.set({
        picker: {
          ...picker,
          resolve: (value) => {
            this.set({ picker: undefined });
            resolve(value);
          },
        },
      });
    });
  }

  /** Deny every open approval (the run was cancelled). */
  denyAll(): void {
    for (const pending of this.state.approvals) pending.resolve('deny');
  }

  /** Move streamed text and thinking into the scrollback (a tool starts, the run ends). */
  private flushStreams(patch: Partial<UiState> = {}): void {
    const done: Entry[] = [];
    if (this.state.streamingThinking.trim()) done.push(this.entry({ kind: 'thinking', text: this.state.streamingThinking }));
    if (this.state.streamingText.trim()) done.push(this.entry({ kind: 'assistant', text: this.state.streamingText }));
    this.set({ entries: done.length ? [...this.state.entries, ...done] : this.state.entries, streamingText: '', streamingThinking: '', ...patch });
  }

  private withoutRetry(): readonly ProgressLine[] {
    return this.state.progress.some((p) => p.id === 'retry') ? this.state.progress.filter((p) => p.id !== 'retry') : this.state.progress;
  }

  /** One event of a run (L6). */
  apply(event: AgentEvent): void {
    switch (event.type) {
      case 'iteration':
        return;
      case 'text': {
        if (this.state.streamingThinking && !this.state.streamingText) this.flushStreams();
        // Finished paragraphs go to the scrollback now: the live region stays a few lines tall.
        const split = splitStream(this.state.streamingText + event.text);
        const done = split.done ? [this.entry({ kind: 'assistant', text: split.done.replace(/\n+$/, '') })] : [];
        this.set({ streamingText: split.live, entries: done.length ? [...this.state.entries, ...done] : this.state.entries, progress: this.withoutRetry() });
        return;
      }
      case 'thinking':
        this.set({ streamingThinking: this.state.streamingThinking + event.thinking, progress: this.withoutRetry() });
        return;
      case 'tool_start':
        this.flushStreams({ running: [...this.state.running, { call: event.call, startedAt: this.now() }], progress: this.withoutRetry() });
        return;
      case 'tool_progress':
        this.set({
          running: this.state.running.map((r) =>
            r.call.id === event.call.id
              ? { ...r, ...(event.progress.message !== undefined ? { tail: event.progress.message.slice(-MAX_TAIL_CHARS) } : {}), progress: { progress: event.progress.progress, ...(event.progress.total !== undefined ? { total: event.progress.total } : {}) } }
              : r,
          ),
        });
        return;
      case 'tool_end':
        this.set({
          running: this.state.running.filter((r) => r.call.id !== event.call.id),
          entries: [...this.state.entries, this.entry({ kind: 'tool', call: event.call, result: event.result, durationMs: event.durationMs })],
        });
        return;
      case 'usage': {
        const u = event.usage;
        const prompt = u.input + u.cacheRead + u.cacheWrite;
        this.setStatus({ contextTokens: prompt + u.output, sessionTokens: this.state.status.sessionTokens + prompt + u.output });
        return;
      }
      case 'notice': {
        const retry = RETRY_NOTICE.exec(event.message);
        if (retry) {
          const line: ProgressLine = { id: 'retry', text: event.message.replace(RETRY_NOTICE, 'retrying in {countdown}'), until: this.now() + Number(retry[1]) * 1000, startedAt: this.now() };
          this.set({ progress: [...this.withoutRetry(), line] });
        } else {
          this.flushStreams();
          this.notice('notice', event.message);
        }
        return;
      }
      case 'approval_request':
        // The dialog opens when the kernel asks the UI (TuiOutput.approve); what streamed before
        // it goes to the scrollback now, so the dialog has the screen.
        this.flushStreams();
        return;
      case 'compaction_start':
        this.set({ progress: [...this.state.progress, { id: 'compaction', text: `Compacting the conversation (${event.reason})…`, startedAt: this.now() }] });
        return;
      case 'compaction_end':
        this.set({ progress: this.state.progress.filter((p) => p.id !== 'compaction') });
        this.notice('notice', event.changed ? `Compacted the conversation (${event.reason}).` : `Nothing was compacted (${event.reason}).`);
        return;
      case 'error':
        this.flushStreams();
        this.notice('error', event.message);
        return;
      case 'done':
        this.flushStreams({ running: [], progress: this.withoutRetry() });
        if (event.reason === 'cancelled') this.notice('warning', 'Cancelled.');
        return;
    }
  }
}
