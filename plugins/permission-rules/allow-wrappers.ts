/**
 * Wrappers an allow rule looks through (Claude Code's list): `timeout`, `time`, `nice`, `nohup`,
 * `stdbuf`, `command`, `builtin` and a bare `xargs` only change how the command they run is run
 * (a time limit, a priority, buffering, timing), so `Bash(npm test:*)` also allows
 * `timeout 300 npm test` and `nice -n 5 npm test`. The parser already gives the wrapped command a
 * segment of its own, judged by the rules like any other; the wrapper's own segment then needs no
 * allow rule of its own. Deny and ask rules still see the wrapper's whole text.
 *
 * The wrapper's words are read as the program reads them, with the parser's own tables
 * (sdk/shell-command/wrapper-table.ts, getopt.ts): `timeout -s KILL 5 cmd`, `nice -n 5 cmd`,
 * `stdbuf -oL cmd`. Not looked through:
 * - a call that runs no command: `command -v x`, `command -V x`, `timeout --help`;
 * - `time -o FILE` / `--output` (GNU time writes its report to that file: a write no rule checks);
 * - `xargs` with any option (`-I {}`, `-a FILE`, `-P` …: only a bare `xargs cmd` is Claude Code's);
 * - a wrapper whose words cannot be read (an unknown option, an unquoted expansion among its own
 *   words: the parser marks the segment `unknownCommands`);
 * - `noglob`: a zsh builtin; MewCode's commands run in bash, where it is whatever program of that
 *   name PATH finds, which no rule names.
 * What a bare `xargs` runs gets the words of its input, unknown here: its segment is matched by
 * allow rules with the input marker appended (`rm $(xargs input)`), so a prefix rule
 * (`Bash(grep:*)`) allows `… | xargs grep x` but an exact one (`Bash(rm tmp)`) never allows
 * `… | xargs rm tmp`.
 */
import { has, readOptions } from '../../sdk/shell-command/getopt.js';
import { XARGS_INPUT } from '../../sdk/shell-command/shell-shapes.js';
import { WRAPPERS } from '../../sdk/shell-command/wrapper-table.js';
import { withoutSafeAssignments } from './safe-env.js';

/** What these functions read of a parsed segment (engine.ts's ShellSegmentLike). */
interface SegmentWords {
  argv: readonly string[];
  text: string;
  textWithoutRedirects?: string;
  unknownCommands?: string;
}

const LOOKED_THROUGH = new Set(['timeout', 'time', 'nice', 'nohup', 'stdbuf', 'command', 'builtin', 'xargs']);

/** Options after which the wrapper does something besides running its command. */
const REFUSED_OPTIONS: Readonly<Record<string, readonly string[]>> = { time: ['o', 'output'] };

/** The words of the command a looked-through wrapper runs; undefined when the segment is no such call. */
export function wrappedCommand(segment: SegmentWords): string[] | undefined {
  const name = segment.argv[0];
  if (name === undefined || segment.unknownCommands !== undefined) return undefined;
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (!LOOKED_THROUGH.has(base)) return undefined;
  const spec = WRAPPERS[base]!;
  if (base === 'xargs') return segment.argv.length > 1 && !segment.argv[1]!.startsWith('-') ? segment.argv.slice(1) : undefined;
  const words = segment.argv.map((value) => ({ value }));
  const read = readOptions(words, 1, spec.options);
  if (read.problems.length > 0 || has(read.options, spec.noCommand) || has(read.options, REFUSED_OPTIONS[base])) return undefined;
  const start = read.end + (spec.operands ?? 0);
  return start < segment.argv.length ? segment.argv.slice(start) : undefined;
}

/**
 * Whether the segment is a looked-through wrapper whose command the parser found (a later segment
 * runs it): then the wrapper's own segment needs no allow rule.
 */
export function looksThrough(segment: SegmentWords, segments: readonly SegmentWords[]): boolean {
  const wrapped = wrappedCommand(segment);
  if (wrapped === undefined) return false;
  return segments.some((other) => other !== segment && other.argv.length >= wrapped.length && wrapped.every((word, i) => other.argv[i] === word));
}

/** The text allow rules see for a segment: the input a bare `xargs` appends stays visible. */
export function allowTextOf(segment: SegmentWords): string {
  // Leading assignments of Claude Code's safe variables (`NODE_ENV=test npm test`) are not part of the command an allow rule names.
  const text = withoutSafeAssignments((segment.textWithoutRedirects ?? segment.text).trim());
  return segment.argv.includes(XARGS_INPUT) && !text.includes(XARGS_INPUT) ? `${text} ${XARGS_INPUT}` : text;
}
