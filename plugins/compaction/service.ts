/**
 * The compaction service the kernel's procedure calls (TOKENS.CompactionService): the one token
 * estimate (C8, counting what layer 1 sends), the automatic threshold from the window of the
 * provider the next request goes to (so it follows a model switch), and layer 2 (C6, C7): when
 * a summary is due and worth it, and the breaker over failed automatic summaries. The summary
 * itself (summary-run.ts: the older messages become a nine-section summary, the recent tail stays
 * as it was, a recovery attachment follows, a report says what was dropped) loads at the first
 * compaction.
 */
import type { SessionContext } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import type { CompactionOutcome, CompactionRequest, CompactionService } from '../../types/session.js';
import { estimateTokensWith, tokensOfChars, type UsageAnchor } from '../../types/token-estimate.js';
import { Breaker } from './breaker.js';
import type { LayerOne } from './layer-one.js';
import type { SummaryCompactionDeps } from './summary-run.js';
import { isSummaryHead, tailStart } from './tail.js';
import { BREAKER_FAILURES, MIN_SUMMARISED_SHARE, reachesThreshold } from './thresholds.js';
import { groupDigits } from '../../sdk/plain-intl.js';
import { loadOnce } from '../../sdk/load-once.js';

export type { SummaryCompactionDeps } from './summary-run.js';
export { SUMMARY_INTRO } from './tail.js';

/**
 * Layer 2's run (summary-run.ts: the summary request, the recovery attachment, the report) is
 * imported at the first compaction: a run that never compacts does not load it at start-up.
 */
const loadSummaryRun = loadOnce(() => import('./summary-run.js'));

export class SummaryCompaction implements CompactionService {
  readonly breaker = new Breaker();
  readonly layer: LayerOne;

  readonly #deps: SummaryCompactionDeps;

  constructor(deps: SummaryCompactionDeps) {
    this.#deps = deps;
    this.layer = deps.layer;
  }

  estimateTokens(messages: readonly Message[], anchor: UsageAnchor | undefined): number {
    return estimateTokensWith(messages, anchor, (message) => this.#deps.layer.sentChars(message));
  }

  shouldCompact(state: { estimatedTokens: number; contextWindow: number }, session?: SessionContext, messages?: readonly Message[]): boolean {
    if (session && this.breaker.tripped(sessionKey(session))) return false;
    if (!reachesThreshold(state.estimatedTokens, state.contextWindow)) {
      if (session) this.#skipped.delete(sessionKey(session));
      return false;
    }
    if (messages === undefined) return true;
    const start = this.#summaryStart(messages);
    if (start === undefined) return false;
    const why = this.#notWorthIt(messages, start);
    if (why === undefined) return true;
    // Said once while it lasts: the check runs before every request.
    const key = session ? sessionKey(session) : '';
    if (!this.#skipped.has(key)) {
      this.#skipped.add(key);
      this.#deps.warn(`compaction: not run automatically: ${why}`);
    }
    return false;
  }

  /** Sessions told that a summary would not be worth it (until their history is under the threshold again). */
  readonly #skipped = new Set<string>();

  /**
   * Why a summary from `start` on would not free a meaningful share of the history, or undefined
   * when it would: the part it replaces must be at least MIN_SUMMARISED_SHARE of the tokens.
   */
  #notWorthIt(messages: readonly Message[], start: number): string | undefined {
    const charsOf = (message: Message): number => this.#deps.layer.sentChars(message);
    const total = messages.reduce((sum, message) => sum + tokensOfChars(charsOf(message)), 0);
    const older = messages.slice(0, start).reduce((sum, message) => sum + tokensOfChars(charsOf(message)), 0);
    if (total === 0 || older >= total * MIN_SUMMARISED_SHARE) return undefined;
    return `a summary could replace only the ${plural(start, 'oldest message')} (~${n(older)} of ~${n(total)} tokens); the most recent messages, kept as they are, take the rest, so it would free almost nothing and cost a model call. Send a shorter message, or switch to a model with a larger context window.`;
  }

  /** Where the kept tail starts, or undefined when a summary would free nothing (see #summarise). */
  #summaryStart(messages: readonly Message[]): number | undefined {
    const start = tailStart(messages, (message) => this.#deps.layer.sentChars(message));
    // Only an earlier summary before the tail: summarising it again frees nothing (and an automatic
    // check would do it on every turn while the tail alone is over the threshold).
    return start === undefined || (start === 1 && isSummaryHead(messages[0] as Message)) ? undefined : start;
  }

  async compact(messages: readonly Message[], request: CompactionRequest): Promise<CompactionOutcome | undefined> {
    const key = sessionKey(request.session);
    let outcome: CompactionOutcome | undefined;
    try {
      const { summariseHistory } = await loadSummaryRun();
      outcome = await summariseHistory(messages, request, this.#deps, this.#summaryStart(messages));
    } catch (error) {
      // Manual and emergency compactions neither look at the breaker nor count (C7): their caller shows the error.
      if (request.reason !== 'auto') throw error;
      // Cancelled by the user: not a failure of the summariser; the run ends as cancelled.
      if (request.signal?.aborted) return undefined;
      const count = this.breaker.failed(key);
      const off = count >= BREAKER_FAILURES ? ` Automatic compaction is now off for this session after ${BREAKER_FAILURES} failures in a row; /compact still works, and once it succeeds automatic compaction is on again.` : '';
      this.#deps.warn(`compaction: the automatic summary failed (${count} in a row), so the history is kept as it is: ${error instanceof Error ? error.message : String(error)}.${off}`);
      return undefined;
    }
    if (outcome && this.breaker.succeeded(key)) this.#deps.warn('compaction: the summary worked again; automatic compaction is back on for this session.');
    return outcome;
  }
}

export function sessionKey(session: Pick<SessionContext, 'sessionId' | 'agentId'>): string {
  return `${session.sessionId}/${session.agentId}`;
}

function n(value: number): string {
  return groupDigits(value);
}

function plural(count: number, word: string): string {
  return `${n(count)} ${word}${count === 1 ? '' : 's'}`;
}
