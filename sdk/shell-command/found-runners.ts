/**
 * Search tools that run a command for what they find: `find … -exec CMD ;` (also `-execdir`,
 * `-ok`, `-okdir`, and `CMD {} +`) and fd's `-x`/`--exec CMD` and `-X`/`--exec-batch CMD` (until a
 * `;` or the end). The command is a segment of its own, so deny rules and the blacklist see it.
 * A found path standing for the program (`find /bin -name rm -exec {} -rf x ;`) is a name computed
 * at run time. fd's found paths are computed arguments too (`$(fd result)`, appended when the
 * command has no placeholder, as fd does): the blacklist has no fd reading of its own to know
 * where they are, while for find it judges find's own starting points.
 */
import type { Unwrapped, Word } from './shell-shapes.js';

/** Stands for a path fd finds: an expansion, so layers judging operands treat it as computed. */
const FD_RESULT = '$(fd result)';
const FIND_RESULT = '$(find result)';

/** fd's placeholders: `{}`, `{/}`, `{//}`, `{.}`, `{/.}`. */
const FD_PLACEHOLDER = /\{(?:\/\/|\/\.|\/|\.)?\}/g;
/** fd's short options that take a value (clap: the rest of the word or the next word). */
const FD_VALUED = 'CEScdejot';

/** `-exec CMD… ;` and `-exec CMD… {} +` (GNU and BSD find end at `+` only right after `{}`). */
export function findExec(words: readonly Word[]): Unwrapped {
  const commands: Unwrapped['commands'] = [];
  for (let i = 1; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i]!.value)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end]!.value !== ';' && !(words[end]!.value === '+' && words[end - 1]!.value === '{}' && end > start)) end++;
    const command = words.slice(start, end);
    if (command.length > 0) {
      const [name, ...args] = command;
      commands.push({ words: name!.value.includes('{}') ? [{ ...name!, value: name!.value.replaceAll('{}', FIND_RESULT), literal: false }, ...args] : command, assignments: [] });
    }
    i = end;
  }
  return { commands, scripts: [], readsStdin: false };
}

/** fd/fdfind `-x CMD… [;]`, `-X CMD… [;]`, `--exec=CMD …`, `-Hx CMD…` (any number of them). */
export function fdExec(words: readonly Word[]): Unwrapped {
  const commands: Unwrapped['commands'] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') break;
    let first: Word | undefined;
    let isExec = arg === '--exec' || arg === '--exec-batch';
    const eq = /^--exec(?:-batch)?=/.exec(arg);
    if (eq) {
      isExec = true;
      first = { ...word, value: arg.slice(eq[0].length) };
    } else if (/^-[^-]/.test(arg)) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (FD_VALUED.includes(letter)) break; // the rest of the word, or the next word, is its value
        if (letter !== 'x' && letter !== 'X') continue;
        isExec = true;
        if (j + 1 < arg.length) first = { ...word, value: arg.slice(j + 1) };
        break;
      }
    }
    if (!isExec) continue;
    let end = i + 1;
    while (end < words.length && words[end]!.value !== ';') end++;
    const command = [...(first ? [first] : []), ...words.slice(i + 1, end)];
    if (command.length > 0) commands.push({ words: withResults(command), assignments: [] });
    i = end;
  }
  return { commands, scripts: [], readsStdin: false };
}

function withResults(command: readonly Word[]): Word[] {
  const hasPlaceholder = command.some((w) => new RegExp(FD_PLACEHOLDER.source).test(w.value));
  const replaced = command.map((w) => (new RegExp(FD_PLACEHOLDER.source).test(w.value) ? { ...w, value: w.value.replace(FD_PLACEHOLDER, FD_RESULT), literal: false } : w));
  if (hasPlaceholder) return replaced;
  const last = command[command.length - 1]!;
  return [...replaced, { value: FD_RESULT, literal: false, start: last.end, end: last.end }];
}
