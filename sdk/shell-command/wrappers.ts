/**
 * Commands that run another command: wrappers whose operands are a command (`sudo`, `env`,
 * `nice`, `timeout`, `xargs`, `chronic`, `firejail`, …: wrapper-table.ts, read by
 * option-wrappers.ts), search tools running a command for what they find (`find -exec`, `fd -x`:
 * found-runners.ts), and commands whose operand is shell source (`sh -c`, `eval`, `su -c`,
 * `watch`, `flock -c`, `script -c`, `sg`, `capsh --`: string-wrappers.ts; `parallel`), and
 * runners read loosely (`npm exec`, `uv run`, `docker run`, `perf stat`, `rg --pre`:
 * loose-runners.ts). A program none of these knows may run its operands: plain-programs.ts. The parser keeps the
 * wrapper's own segment and adds the wrapped command as a segment of its own, so every layer sees
 * the real command; each wrapper's words are read as the program reads them (getopt.ts).
 *
 * Fail closed for shells: a shell (or `source`/`.`) runs code the parser sees only when it comes
 * from a literal `-c` string, a literal script file in the project (`bash ./build.sh`, judged as
 * that command), or a literal heredoc/here-string/`echo …|`. A shell reading stdin is always
 * opaque (readsStdin); one whose code is computed (`sh -c "$x"`, `bash "$f"`, `source <(…)`,
 * `bash /dev/fd/3`) runs something unknown (`unknown`: any deny rule denies it). `sh -n` runs
 * nothing.
 */
import { isDescriptorPath, isStdinPath } from './descriptor-paths.js';
import { fdExec, findExec } from './found-runners.js';
import { optionWrapper } from './option-wrappers.js';
import { parallelInvocation } from './parallel.js';
import type { Unwrapped, Word } from './shell-shapes.js';
import { looseRunner } from './loose-runners.js';
import { capshInvocation, flockInvocation, multiCallInvocation, scriptInvocation, sgInvocation, suInvocation, watchInvocation } from './string-wrappers.js';
import { toolRunner } from './tool-runners.js';
import { WRAPPERS } from './wrapper-table.js';

export type { Unwrapped, Word } from './shell-shapes.js';

export const SHELLS = new Set([
  'sh', 'bash', 'rbash', 'zsh', 'dash', 'ksh', 'ksh93', 'mksh', 'oksh', 'loksh', 'pdksh', 'ash', 'hush', 'yash', 'posh', 'osh', 'ysh', 'fish', 'csh', 'tcsh',
]);

/** `bash`, `bash5`, `bash-5.2`, `zsh-5.9` … (installed versions keep the shell's behaviour). */
export function isShell(name: string): boolean {
  return SHELLS.has(name) || SHELLS.has(name.replace(/-?[0-9][0-9.]*$/, ''));
}

export function commandName(word: Word | undefined): string | undefined {
  if (!word || !word.literal || word.value === '') return undefined;
  const slash = word.value.lastIndexOf('/');
  return slash === -1 ? word.value : word.value.slice(slash + 1);
}

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

/** What a command runs; `assignments` are its environment (`NAME=value`), which some tools read options from. */
export function unwrapCommand(words: Word[], assignments: readonly string[] = []): Unwrapped {
  const name = commandName(words[0]);
  if (name === undefined) return NONE;
  if (isShell(name)) return shellInvocation(words);
  if (name === 'source' || name === '.') return scriptFile(words[1] ?? words[0]!, words.length < 2, `${name} of a computed or descriptor path`);
  if (name === 'parallel') {
    const run = parallelInvocation(words);
    if (run.runsNothing) return NONE;
    return { ...NONE, scripts: run.scripts, opaque: 'parallel builds its commands at run time', ...(run.unknown ? { unknown: run.unknown } : {}) };
  }
  if (name === 'eval') {
    // bash's eval skips one leading `--` (`eval -- rm x` runs `rm x`).
    const script = words.slice(words[1]?.value === '--' ? 2 : 1).map((w) => w.value).join(' ');
    return { ...NONE, scripts: script.trim() === '' ? [] : [script] };
  }
  if (name === 'find') {
    // -exec commands, and `-delete` as an `rm -r` of the starting points.
    const exec = findExec(words);
    const deletes = toolRunner(name, words);
    return deletes?.equivalent !== undefined ? { ...exec, equivalent: deletes.equivalent } : exec;
  }
  if (name === 'fd' || name === 'fdfind') return fdExec(words);
  if (name === 'su' || name === 'runuser') return suInvocation(name, words);
  if (name === 'script') return scriptInvocation(words);
  if (name === 'flock') return flockInvocation(words);
  if (name === 'watch') return watchInvocation(words);
  if (name === 'busybox' || name === 'toybox') return multiCallInvocation(name, words);
  if (name === 'sg') return sgInvocation(words);
  if (name === 'capsh') return capshInvocation(words);
  if (name === 'alias') {
    // alias x='rm -rf /' runs its value wherever x is used.
    const scripts = words.slice(1).map((w) => w.value).filter((v) => /^[^=\s]+=/.test(v)).map((v) => v.slice(v.indexOf('=') + 1));
    return { ...NONE, scripts: scripts.filter((v) => v.trim() !== '') };
  }
  if (name === 'trap') {
    // trap 'cmd' SIGNAL… runs cmd later; `trap - INT`, `trap -l`, `trap -p` run nothing.
    const operands = words.slice(1).map((w) => w.value);
    if (operands[0] === '--') operands.shift();
    const action = operands[0];
    if (operands.length < 2 || action === undefined || action === '-' || action.trim() === '' || /^-[lp]+$/.test(action)) return NONE;
    return { ...NONE, scripts: [action] };
  }
  const tool = toolRunner(name, words, assignments) ?? looseRunner(name, words);
  if (tool) return tool;
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined; // never Object.prototype's names
  if (!spec) return NONE;
  return optionWrapper(name, words, spec);
}

/**
 * `sh [options] -c 'source' [name args…]`, `sh [options] script [args…]`, or `sh [-s]` reading
 * stdin. `-n` (noexec) runs nothing, unless interactive (`-i`), which ignores it.
 */
function shellInvocation(words: Word[]): Unwrapped {
  let hasC = false;
  let readsStdinFlag = false;
  let noexec = false;
  let interactive = false;
  let i = 1;
  for (; i < words.length; i++) {
    const arg = words[i]!.value;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (arg.startsWith('--')) {
      if (arg === '--rcfile' || arg === '--init-file') i++;
      if (arg === '--command') hasC = true; // fish
      if (arg === '--no-execute') noexec = true; // fish
      continue;
    }
    if ((arg.startsWith('-') || arg.startsWith('+')) && arg.length > 1) {
      const flags = arg.slice(1);
      if (arg.startsWith('-') && flags.includes('c')) hasC = true;
      if (arg.startsWith('-') && flags.includes('s')) readsStdinFlag = true;
      if (arg.startsWith('-') && flags.includes('n')) noexec = true;
      if (arg.startsWith('-') && flags.includes('i')) interactive = true;
      if (/[oO]/.test(flags)) i++; // -o option / -O shopt take a name
      continue;
    }
    break;
  }
  if (hasC) {
    const source = words[i];
    if (!source) return NONE;
    // `sh -c "rm $x"`: the outer shell expands $x, the inner one parses the result as code.
    return { ...NONE, scripts: [source.value], ...(source.literal ? {} : { unknown: 'a shell running a computed -c string' }) };
  }
  if (noexec && !interactive) return NONE;
  if (readsStdinFlag || i >= words.length) return { ...NONE, readsStdin: true };
  return scriptFile(words[i]!, false, 'a shell running a script from a computed or descriptor path');
}

/**
 * The script file a shell or `source` runs: a literal path is the project's own file (judged as
 * the command that names it); stdin itself (`/dev/stdin`, `-`) reads stdin; another descriptor
 * (`/dev/fd/3`, `<(…)`) or a computed path (`"$f"`) runs something unknown.
 */
function scriptFile(file: Word, missing: boolean, reason: string): Unwrapped {
  if (missing) return NONE;
  if (file.literal && isStdinPath(file.value)) return { ...NONE, readsStdin: true };
  if (!file.literal || isDescriptorPath(file.value)) return { ...NONE, unknown: reason };
  return NONE;
}
