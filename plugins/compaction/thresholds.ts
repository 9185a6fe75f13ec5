/**
 * Layer 2's numbers (C6, C7), from the seed. The summary starts when the estimate reaches
 * `window − SUMMARY_RESERVE − AUTO_SAFETY_MARGIN`: room for the summary request's own input and
 * output, plus a margin for the estimate's error (it under-counts non-Latin text).
 */
export const SUMMARY_RESERVE = 20_000;
export const AUTO_SAFETY_MARGIN = 13_000;
/** The recent tail kept as it was: both lower bounds must be met. */
export const TAIL_MIN_TOKENS = 10_000;
export const TAIL_MIN_MESSAGES = 5;
/** Recovery: this many recently read files, each cut to this many tokens. */
export const RECOVERY_FILES = 5;
export const RECOVERY_TOKENS_PER_FILE = 5_000;
/**
 * An automatic summary must be worth its model call: the older part it replaces is at least this
 * share of the history. Right after a switch to a smaller window the kept tail alone can be over
 * the threshold, and a summary of the few tokens before it (plus its recovery attachment) made the
 * context grow.
 */
export const MIN_SUMMARISED_SHARE = 0.1;
/** Consecutive failed automatic compactions that turn automatic compaction off for the session. */
export const BREAKER_FAILURES = 3;

/** The estimate at which the automatic check summarises, for the window of the provider the next request goes to. */
export function summaryThreshold(contextWindow: number): number {
  return contextWindow - SUMMARY_RESERVE - AUTO_SAFETY_MARGIN;
}

export function reachesThreshold(estimatedTokens: number, contextWindow: number): boolean {
  return estimatedTokens >= summaryThreshold(contextWindow);
}
