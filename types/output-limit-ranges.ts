/**
 * The ranges every OutputLimits cap is held to, whoever binds the service. A plugin may replace
 * OutputLimits (`replaces: ['OutputLimits']`), but the audit log and bash read their caps from it:
 * an audit cap of 1 byte rotates the log away after every record and cuts each target to one
 * character (the chain still verifies), and a bash cap of 100 MB floods the model's context. So
 * the container hands every resolver a view whose numbers are clamped into these ranges (the
 * kernel's service-seals.ts), and the audit log clamps its copy again. `fallback` (the built-in
 * value, kept equal to plugins/output-limits/limits.ts by a test) stands for a cap that is no number.
 */
export interface LimitRange {
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const DAY = 24 * 60 * 60 * 1000;

const range = (min: number, max: number, fallback: number): LimitRange => Object.freeze({ min, max, fallback });

export const OUTPUT_LIMIT_RANGES = Object.freeze({
  readMaxLines: range(100, 100_000, 2000),
  readMaxBytes: range(16 * KiB, 16 * MiB, 256 * KiB),
  readLineMaxChars: range(100, 100_000, 2000),
  grepLineMaxChars: range(100, 100_000, 500),
  bashMaxLines: range(20, 10_000, 200),
  bashMaxBytes: range(1000, 1 * MiB, 8000),
  bashSpillMaxBytes: range(1 * MiB, 1024 * MiB, 64 * MiB),
  editMaxFileBytes: range(1 * MiB, 1024 * MiB, 64 * MiB),
  editDiffContextLines: range(0, 50, 3),
  editDiffMaxLines: range(10, 10_000, 80),
  editDiffLineMaxChars: range(80, 100_000, 500),
  editHintMaxLines: range(0, 1000, 20),
  editHintLineMaxChars: range(80, 100_000, 300),
  searchMaxResults: range(10, 10_000, 100),
  // The audit log is a safety record: at least 1 MiB per file and two files kept, a path or command
  // kept to 200 characters and a reason to 500 at the least.
  auditMaxBytes: range(1 * MiB, 1024 * MiB, 5 * MiB),
  auditKeepFiles: range(2, 100, 3),
  auditTargetMaxChars: range(200, 100_000, 20_000),
  auditReasonMaxChars: range(500, 100_000, 2000),
  spillMaxAgeMs: range(1 * DAY, 365 * DAY, 7 * DAY),
} satisfies Record<string, LimitRange>);

export type BoundedLimitKey = keyof typeof OUTPUT_LIMIT_RANGES;

/**
 * `value` held to the range of `key`: a whole number inside it as it is, a number outside it
 * clamped to the nearer end, anything else the fallback. `said` gets one sentence when it changed.
 */
export function boundedLimit(key: BoundedLimitKey, value: unknown, said: (message: string) => void = () => undefined): number {
  const { min, max, fallback } = OUTPUT_LIMIT_RANGES[key];
  if (typeof value !== 'number' || Number.isNaN(value)) {
    said(`OutputLimits.${key} is ${describe(value)}, not a number; ${fallback} is used`);
    return fallback;
  }
  const whole = Math.floor(value);
  const bounded = Math.min(max, Math.max(min, whole));
  if (bounded !== value) said(`OutputLimits.${key} is ${describe(value)}, outside the range ${min}..${max} any OutputLimits service is held to; ${bounded} is used`);
  return bounded;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
