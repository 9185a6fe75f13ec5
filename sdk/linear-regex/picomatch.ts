/**
 * picomatch's globs, matched without V8's exponential backtracking. picomatch turns `*` into
 * `[^/]*?` and `**` into a lazy run over segments; a glob with several of them in a row
 * (`**\/*a*a*a*a*a*a*b`, which the model may be steered into writing, or a rule in a project's
 * settings) takes V8 minutes on one long name, synchronously.
 *
 * The regex is always picomatch's own (same meaning, same options). V8 runs it only for the
 * shapes whose backtracking is linear (`picomatchBacktrackSafe`: no braces, brackets, extglobs or
 * escapes, at most one `*` run per segment and at most one `**` segment — the argument of
 * sdk/search-common/gitignore-glob.ts); any other glob is run by LinearRegExp. picomatch's
 * lookaheads are bounded (`(?=.)`, the `.`/`..` segment checks) except two: a negated glob's
 * (`!x`), tried once at the start, and a negated extglob's `!(…)`, whose body stops at the next
 * `/` — at worst quadratic in one name.
 */
import picomatch from 'picomatch';
import { LinearRegExp } from './index.js';

export interface GlobOptions {
  dot?: boolean;
  nocase?: boolean;
}

/** Whether V8 may run picomatch's regex for `glob` (see the file comment). */
export function picomatchBacktrackSafe(glob: string): boolean {
  const body = glob.replace(/^!+/, '');
  if (/[[\]{}()\\]/.test(body)) return false;
  let globstars = 0;
  for (const segment of body.split('/')) {
    if (/^\*{2,}$/.test(segment)) globstars++;
    else if ((segment.match(/\*+/g)?.length ?? 0) > 1) return false;
  }
  return globstars <= 1;
}

/** `picomatch.makeRe(glob, options).test` (throws as makeRe does on an invalid glob). */
export function globRegexTest(glob: string, options: GlobOptions = {}): (input: string) => boolean {
  const regex = picomatch.makeRe(glob, options);
  if (picomatchBacktrackSafe(glob)) return (input) => regex.test(input);
  const linear = new LinearRegExp(regex.source, regex.flags, { unboundedLookahead: true });
  return (input) => linear.test(input);
}

/** `picomatch(glob, options)` as a predicate: the empty string never matches, the glob's own text always does. */
export function globMatcher(glob: string, options: GlobOptions = {}): (input: string) => boolean {
  const test = globRegexTest(glob, options);
  return (input) => input !== '' && (input === glob || test(input));
}
