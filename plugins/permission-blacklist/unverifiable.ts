/**
 * The blacklist judges what a command visibly runs. Part of a command it cannot read — program
 * text given to an interpreter, a command name computed at run time, arithmetic or a prompt
 * string over run-time values, a tool running commands from its options or its own language
 * (ShellSegment.unknownCommands), a command that does not parse — may delete anything. When
 * nothing else confines the command (no active OS sandbox), such a command is not let through
 * silently: the plugin's second check (index.ts) asks, after the user's rules (a deny rule still
 * denies first) and before the mode layer would allow it in bypassPermissions mode. So does a
 * program the analysis does not know whose later words spell a command the blacklist would block
 * (`frob rm -rf ~`: ShellSegment.mayRunOperands, sdk/shell-command/plain-programs.ts): it may run it.
 */
import { analyzeShellCommand, type ShellSegment } from '../../sdk/shell-command/index.js';
import { insideRoots } from './outside-targets.js';
import { checkSegment } from './patterns.js';

/** Where the command runs, for judging the commands an unknown program may run. */
export interface UnverifiableWhere {
  projectRoot: string;
  homeDir: string | undefined;
  startDir?: string;
  additionalDirectories?: readonly string[];
}

/** A command name bash computes at run time (an expansion, a glob, a brace list). */
function computedName(word: string | undefined): boolean {
  if (word === undefined || word === '[' || word === '[[') return false;
  return /[$`*?[]/.test(word) || /\{[^}]*,[^}]*\}/.test(word);
}

/** Why the blacklist cannot vouch for this command; undefined when every part of it was seen. */
export async function unverifiableCommand(command: string, where?: UnverifiableWhere): Promise<string | undefined> {
  if (command.trim() === '') return undefined;
  let parsed;
  try {
    parsed = (await analyzeShellCommand(command)).parsed;
  } catch (error) {
    return `the shell parser failed (${(error as Error).message})`;
  }
  if (parsed.parseError !== undefined) return `it does not parse (${parsed.parseError})`;
  const hidden = parsed.segments.find((s) => s.unknownCommands !== undefined);
  if (hidden) return `${JSON.stringify(clip(hidden.text))} runs commands that cannot be seen (${hidden.unknownCommands})`;
  const computed = parsed.segments.find((s) => computedName(s.argv[0]));
  if (computed) return `the command name ${JSON.stringify(computed.argv[0])} is computed at run time`;
  if (parsed.opaque !== undefined) return `what it runs cannot be fully seen (${clip(parsed.opaque)})`;
  return where ? operandCommand(parsed.segments, where) : undefined;
}

/** A command an unknown program's operands spell that the blacklist would block. */
function operandCommand(segments: readonly ShellSegment[], where: UnverifiableWhere): string | undefined {
  const home = where.homeDir === undefined ? undefined : where.homeDir.replace(/(.)\/$/, '$1');
  const inside = insideRoots(where.projectRoot, where.additionalDirectories ?? []);
  for (const segment of segments) {
    // After a `cd` the directory is not the start: judged as unknown.
    const cwd = segment.dirs === undefined ? (where.startDir ?? where.projectRoot).replace(/(.)\/$/, '$1') : undefined;
    for (const at of segment.mayRunOperands ?? []) {
      const argv = segment.argv.slice(at);
      const hit = checkSegment({ argv, text: argv.join(' '), redirects: [], assignments: [] }, { cwd, home, inside });
      if (hit) return `${JSON.stringify(clip(segment.text))} may run ${JSON.stringify(clip(argv.join(' ')))} (its program is not one the analysis knows not to run its operands), which the blacklist blocks: ${hit.pattern}`;
    }
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
