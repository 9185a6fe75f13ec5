/** Every output cap (T2, T5, T6, T7, T8; the audit log, A11), in one place. */
export const LIMITS = {
  readMaxLines: 2000,
  readMaxBytes: 256 * 1024,
  readLineMaxChars: 2000,
  grepLineMaxChars: 500,
  bashMaxLines: 200,
  bashMaxBytes: 8000,
  bashSpillMaxBytes: 64 * 1024 * 1024,
  editMaxFileBytes: 64 * 1024 * 1024,
  editDiffContextLines: 3,
  editDiffMaxLines: 80,
  editDiffLineMaxChars: 500,
  editHintMaxLines: 20,
  editHintLineMaxChars: 300,
  searchMaxResults: 100,
  auditMaxBytes: 5 * 1024 * 1024,
  auditKeepFiles: 3,
  auditTargetMaxChars: 20_000,
  auditReasonMaxChars: 2000,
  spillMaxAgeMs: 7 * 24 * 60 * 60 * 1000,
} as const;

export { LINE_CUT_MARKER } from '../../sdk/text-cuts.js';
