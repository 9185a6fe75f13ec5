/**
 * Claude Code's exec form of a command hook (`command` + `args`): `command` is a program found on
 * PATH (or a path, relative to the project) and `args` its arguments, spawned with no shell, so
 * each element is one argument exactly as written — a `$(…)`, a quote or a space in it means
 * nothing. As in Claude Code only the path placeholders `${CLAUDE_PROJECT_DIR}`,
 * `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are filled in (as plain strings); other
 * variables are not expanded (there is no shell to expand them). One addition: an element that
 * starts with `~/` (or is `~`) is taken in the home directory. Passed as it is, `~/hooks/guard.sh`
 * would be a path relative to the working directory, the project, where a repository could plant
 * `~/hooks/guard.sh` of its own and have the user's guard run it.
 *
 * An argument that is code (the one after `-c`, `-e`, `--eval`, `-p`, `--print`: `bash -c "test -d
 * ${CLAUDE_PROJECT_DIR}/src"`) gets a path pasted only when the path holds no character a shell or
 * an interpreter would read: a project folder named `p$(touch ~/pwned)` (an archive's choice) would
 * otherwise run on the host. There the placeholder is left as written, and a shell expands it from
 * the environment (CLAUDE_PROJECT_DIR is set), as a value, never as code.
 *
 * The program is resolved here, not by spawn: inside the OS sandbox the launcher is what is
 * spawned, and it needs the program's absolute path.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { expandPluginVariables } from '../../types/claude-plugins.js';

export type ExecArgv = { argv: string[] } | { error: string };

/** The options whose value an interpreter runs as code. */
const CODE_OPTION = /^(?:-c|-e|--eval|-p|--print|--command)$/;
/** A path no shell or interpreter reads anything into. */
const INERT_PATH = /^[\w./+@%:,=~ -]*$/;

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The argv of an exec-form hook, or why it cannot run (a program not found: a non-blocking error, as Claude Code's). */
export function execArgv(command: string, args: readonly string[], variables: Readonly<Record<string, string>>, pathVariable: string, cwd: string, homeDir: string): ExecArgv {
  const expand = (word: string): string => expandPluginVariables(word, variables).replace(/^~(?=\/|$)/, homeDir);
  const inert = Object.fromEntries(Object.entries(variables).filter(([, value]) => INERT_PATH.test(value)));
  const program = expand(command);
  const argv = args.map((arg, i) => (i > 0 && CODE_OPTION.test(args[i - 1]!) ? expandPluginVariables(arg, inert) : expand(arg)));
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return executable(file) ? { argv: [file, ...argv] } : { error: `${program}: not an executable file` };
  }
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // the hook's PATH keeps absolute entries only (run-command.ts)
    const file = path.join(dir, program);
    if (executable(file)) return { argv: [file, ...argv] };
  }
  return { error: `${program}: command not found on PATH` };
}
