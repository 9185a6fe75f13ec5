/**
 * A hook run inside the OS sandbox whose script the sandbox hides (a credential directory, a tool's
 * directory entry by entry: plugins/sandbox-os/credential-paths.ts) fails as a missing file would
 * ("No such file or directory", exit 127). Claude Code treats a hook that cannot start as a
 * non-blocking error, and so does MewCode where the file is really missing; but where MewCode's own
 * sandbox kept the script from the hook, the guard did not fail: MewCode prevented it, and a
 * PreToolUse guard prevented from running must not let the call through (containment.ts).
 *
 * Told apart by what is certain: the run failed (neither 0 nor 2), its stderr says a file the
 * hook's command names is missing or unreadable (bash's, sh's, python's or node's words for it),
 * and that file exists on the host.
 */
import { statSync } from 'node:fs';
import path from 'node:path';

const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;
const PROJECT_VARIABLES = /\$\{?(?:CLAUDE_PROJECT_DIR|MEWCODE_PROJECT_DIR)\}?/g;

/** The absolute paths a hook's command line (or exec-form argv) names. */
function namedPaths(words: readonly string[], homeDir: string, projectRoot: string): string[] {
  return words
    .map((word) => word.replace(/["']/g, '').replace(PROJECT_VARIABLES, projectRoot).replace(HOME_PREFIX, homeDir))
    .filter((word) => path.isAbsolute(word));
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A shell's, python's or node's words for a file it cannot find or open (not an error inside a script that ran). */
function saysMissing(stderr: string, file: string): boolean {
  return [`${file}: No such file or directory`, `${file}: Permission denied`, `${file}: not found`, `'${file}': [Errno`, `Cannot find module '${file}'`].some((words) => stderr.includes(words));
}

/** The file the sandbox hid from the hook, or undefined. `argv`: an exec-form hook's; else the command line is split. */
export function hiddenScript(run: { command: string; argv?: readonly string[]; homeDir: string; projectRoot: string }, outcome: { code: number | null; stderr: string }): string | undefined {
  if (outcome.code === null || outcome.code === 0 || outcome.code === 2 || outcome.stderr === '') return undefined;
  const words = run.argv ?? run.command.split(/[\s;|&()<>`]+/);
  return namedPaths(words, run.homeDir, run.projectRoot).find((file) => saysMissing(outcome.stderr, file) && isFile(file));
}
