/**
 * The files a project's hook command names in the project — `sh .mewcode/hooks/check.sh`,
 * `"$CLAUDE_PROJECT_DIR"/tools/lint.py`, `./scripts/x` — are held to the rules of every file a
 * project supplies (config/project-file.ts): each must really lie inside the project (a script
 * linked to one outside, or reached through a directory link out, would run code trust never
 * saw in the project) and be a regular file (a FIFO would block the hook until its timeout).
 *
 * The command is split into words the simple way (quotes removed, the project-directory
 * variables expanded, operators as separators): every word that names an existing entry inside
 * the project is checked. That can only err towards checking a word that is not a path.
 */
import path from 'node:path';
import { projectScriptProblem } from '../../config/project-file.js';
import { isPathStrictlyWithin } from '../../types/path-within.js';

const PROJECT_VARIABLES = /\$\{?(?:CLAUDE_PROJECT_DIR|MEWCODE_PROJECT_DIR)\}?/g;

/** The words of a command line, quotes dropped and the project directory filled in. */
function commandWords(command: string, projectRoot: string): string[] {
  const expanded = command.replace(PROJECT_VARIABLES, projectRoot);
  return expanded
    .split(/[\s;|&()<>`]+/)
    .map((word) => word.replace(/["']/g, '').replace(/^[A-Za-z_][A-Za-z0-9_]*=/, ''))
    .filter((word) => word !== '' && !word.startsWith('-') && !word.includes('$'));
}

/** Why the command may not run (naming the file), or undefined when every file it names is fine. */
export function projectCommandProblem(command: string, projectRoot: string): string | undefined {
  return wordsProblem(commandWords(command, path.resolve(projectRoot)), projectRoot);
}

/** The same for an exec-form hook: its program and every argument, each one word as it is passed. */
export function projectExecProblem(argv: readonly string[], projectRoot: string): string | undefined {
  return wordsProblem(argv.filter((word) => word !== '' && !word.startsWith('-')), projectRoot);
}

function wordsProblem(words: readonly string[], projectRoot: string): string | undefined {
  const root = path.resolve(projectRoot);
  for (const word of words) {
    const file = path.resolve(root, word.startsWith('~') ? '/nonexistent' : word);
    if (!isPathStrictlyWithin(root, file)) continue;
    const problem = projectScriptProblem(file, root);
    if (problem !== undefined) return `refusing to run the project's hook: ${path.relative(root, file)}: ${problem}`;
  }
  return undefined;
}
