/**
 * Milliseconds on a monotonic clock, for measuring durations. The same clock as
 * `performance.now()` without its cost: the first read of the global `performance` loads Node's
 * perf_hooks (≈ 1.3 ms), which the kernel's boot paid for timing its plugins.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
