/**
 * GNU parallel (`parallel [options] command ::: args…`): it builds each job's command line from
 * the command and the arguments, and runs it with a shell. The parser turns that into shell
 * source — `parallel rm -rf ::: a ~` → `rm -rf a ~`, `parallel 'rm {}' ::: x` → `rm x`,
 * `parallel ::: 'rm x' ls` → `rm x` and `ls` — so deny rules and the blacklist see the command
 * and its `:::` arguments as targets. Always opaque (replacement strings, `--colsep`, quoting
 * are parallel's own); what it runs is unknown (any deny rule denies) when the arguments come
 * from stdin or files (`::::`, `-a`), the command is computed, or a `{= perl =}` expression is used.
 */
import type { Word } from './shell-shapes.js';

/** Options that take a value (the next word, unless written `--opt=value` or `-jN`). */
const VALUED_SHORT = 'aCdEIjJLnNPsS';
const VALUED_LONG = new Set([
  '--arg-file', '--arg-file-sep', '--arg-sep', '--basefile', '--bf', '--block', '--block-size', '--colsep', '--compress-program',
  '--decompress-program', '--delay', '--delimiter', '--env', '--halt', '--halt-on-error', '--header', '--joblog', '--jobs', '--max-procs',
  '--max-lines', '--limit', '--load', '--memfree', '--memsuspend', '--max-replace-args', '--max-args', '--nice', '--profile', '--results',
  '--res', '--retries', '--return', '--max-chars', '--sshlogin', '--sshloginfile', '--slf', '--sshdelay', '--tagstring', '--tag-string',
  '--termseq', '--timeout', '--tmpdir', '--transferfile', '--tf', '--workdir', '--wd', '--rpl', '--semaphorename', '--id', '--sql',
  '--sqlmaster', '--sqlworker', '--sqlandworker', '--ssh', '--recend', '--recstart', '--template', '--tmpl', '--ctagstring', '--match',
]);
const SEPARATOR = /^::::?\+?$/;
/** `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{3}`, `{+/}` …, and `-I`'s own string. */
const PLACEHOLDER = /\{[^{}\s=,]{0,8}\}/g;

export interface ParallelRun {
  scripts: string[];
  /** `--version`, `--help`, …: runs nothing. */
  runsNothing?: boolean;
  /** Why what it runs cannot be known, if so. */
  unknown?: string;
}

export function parallelInvocation(words: readonly Word[]): ParallelRun {
  let i = 1;
  let unknown: string | undefined;
  let replace: string | undefined;
  let pipe = false;
  for (; i < words.length; i++) {
    const arg = words[i]!.value;
    if (SEPARATOR.test(arg) || !arg.startsWith('-') || arg === '-') break;
    if (arg === '--') {
      i++;
      break;
    }
    const key = arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2);
    const attached = arg.startsWith('--') ? arg.includes('=') : arg.length > 2;
    const valued = arg.startsWith('--') ? VALUED_LONG.has(key) : VALUED_SHORT.includes(arg[1]!);
    const value = valued ? (attached ? arg.slice(arg.startsWith('--') ? key.length + 1 : 2) : words[++i]?.value) : undefined;
    if (key === '-a' || key === '--arg-file' || key === '--arg-sep' || key === '--arg-file-sep') unknown = `parallel ${key} takes its arguments from somewhere the analysis cannot see`;
    if (key === '-I') replace = value;
    if (key === '--pipe' || key === '--pipepart') pipe = true;
    if (/^(?:--version|--help|-h|--citation|--number-of-(?:cpus|cores|threads|sockets)|--max-line-length-allowed|--minversion)$/.test(key)) return { scripts: [], runsNothing: true };
  }
  const commandEnd = words.findIndex((w, j) => j >= i && SEPARATOR.test(w.value));
  const commandWords = words.slice(i, commandEnd === -1 ? undefined : commandEnd);
  const command = commandWords.map((w) => w.value).join(' ');
  if (commandWords.some((w) => !w.literal)) unknown ??= 'parallel with a computed command';
  if (command.includes('{=')) unknown ??= 'parallel with a {= perl =} replacement';
  const args: string[] = [];
  if (commandEnd === -1) {
    if (!pipe) unknown ??= 'parallel reading its arguments from stdin';
  } else {
    for (let j = commandEnd; j < words.length; j++) {
      const arg = words[j]!.value;
      if (SEPARATOR.test(arg)) {
        if (arg.startsWith('::::')) unknown ??= 'parallel reading its arguments from files (::::)';
        continue;
      }
      if (args.length < 64) args.push(arg);
    }
  }
  if (command.trim() === '') return { scripts: args, ...(unknown ? { unknown } : {}) };
  // Unknown arguments stand as an expansion, so that layers judging operands treat them as computed.
  const inputs = unknown && args.length === 0 ? ['"$PARALLEL_INPUT"'] : args.map(shellQuote);
  const placeholders = (text: string): boolean => new RegExp(PLACEHOLDER.source).test(text) || (replace !== undefined && replace !== '' && text.includes(replace));
  let scripts: string[];
  if (pipe || inputs.length === 0) scripts = [command];
  else if (placeholders(command)) {
    scripts = inputs.slice(0, 16).map((input) => {
      const replaced = command.replace(PLACEHOLDER, input);
      return replace ? replaced.split(replace).join(input) : replaced;
    });
  } else scripts = [`${command} ${inputs.join(' ')}`];
  return { scripts, ...(unknown ? { unknown } : {}) };
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=,:~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
