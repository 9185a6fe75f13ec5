/**
 * Claude Code strips leading assignments of a fixed list of variables before matching allow rules
 * (`NODE_ENV=test npm run test` is allowed by `Bash(npm run test:*)`): variables that name a
 * build target, a locale, colours or a log level, and cannot make the program run other code or
 * load a library. PATH, LD_*, DYLD_*, NODE_OPTIONS, PYTHONPATH, HOME, BASH_ENV… are not on it,
 * so a command behind one of those still needs its own allow rule. Only a plain value is
 * stripped (no quotes, `$`, backquote or space: nothing a shell would expand or split), as in
 * Claude Code. Deny and ask rules are not given the stripped text: they see the whole command.
 */

/** Claude Code's list (its `SAFE_ENV_VARS`). */
const SAFE_ENV_VARS: ReadonlySet<string> = new Set([
  'GOEXPERIMENT', 'GOOS', 'GOARCH', 'CGO_ENABLED', 'GO111MODULE',
  'RUST_BACKTRACE', 'RUST_LOG',
  'NODE_ENV',
  'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE',
  'PYTEST_DISABLE_PLUGIN_AUTOLOAD', 'PYTEST_DEBUG',
  'ANTHROPIC_API_KEY',
  'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_TIME', 'CHARSET',
  'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'TZ',
  'LS_COLORS', 'LSCOLORS', 'GREP_COLOR', 'GREP_COLORS', 'GCC_COLORS',
  'TIME_STYLE', 'BLOCK_SIZE', 'BLOCKSIZE',
]);

const LEADING_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z0-9_./:@%+,=-]*)[ \t]+/;

/** The command with its leading safe assignments removed (the text as it was when the first is not one). */
export function withoutSafeAssignments(text: string): string {
  let rest = text;
  for (let match = LEADING_ASSIGNMENT.exec(rest); match && SAFE_ENV_VARS.has(match[1]!); match = LEADING_ASSIGNMENT.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}
