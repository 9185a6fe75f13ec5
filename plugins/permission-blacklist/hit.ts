/** A blacklist pattern a command matched; its own module so the pattern families and the table that lists them import it alike. */
export interface Hit {
  /** Which pattern, in words, e.g. "recursive rm of /". */
  pattern: string;
}
