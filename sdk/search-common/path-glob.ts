/**
 * The one glob → matcher translation of the search tools: glob's pattern and grep's `glob`
 * filter (picomatch: `*`, `?`, `**`, braces, classes, extglobs; dot files included).
 *
 * picomatch's regex is called directly (its matcher wrapper costs as much again on a large tree),
 * behind a plain suffix test when the glob ends in literal text (`**\/*.js` → `.js`). The glob is
 * the model's, which a repository can steer: a shape V8 could backtrack through exponentially
 * (`**\/*a*a*a*a*b` on a long name) is run in linear time instead (sdk/linear-regex/picomatch.ts).
 *
 * `.gitignore` lines are NOT translated here: git's wildmatch is another language (braces are
 * literal, `**` is special only as a whole segment, `[!…]` negates, trailing-space escapes), so
 * gitignore.ts keeps its own translator; using one for the other would change which files a
 * search sees.
 */
import { globRegexTest } from '../linear-regex/picomatch.js';

export interface PathGlobOptions {
  /** A glob without `/` is matched against the last name of the path (grep's `glob: "*.ts"`). */
  matchBaseName?: boolean;
}

/** Throws picomatch's error for an invalid glob. Candidates are `/`-separated relative paths. */
export function compilePathGlob(glob: string, options: PathGlobOptions = {}): (candidate: string) => boolean {
  const regexTest = globRegexTest(glob, { dot: true });
  // literal text right after a `*` or `/` at the end: every match ends with it
  const suffix = glob.startsWith('!') ? undefined : /(?:^|[*/])([A-Za-z0-9._-]+)$/.exec(glob)?.[1];
  const test = (candidate: string): boolean => (suffix === undefined || candidate.endsWith(suffix)) && regexTest(candidate);
  if (!options.matchBaseName || glob.includes('/')) return test;
  return (candidate) => test(candidate.slice(candidate.lastIndexOf('/') + 1));
}
