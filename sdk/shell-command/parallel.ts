/**
 * GNU parallel (`parallel [options] command ::: args…`): it builds each job's command line from
 * the command and the arguments, and runs it with a shell. The parser turns that into shell
 * source — `parallel rm -rf ::: a ~` → `rm -rf a ~`, `parallel 'rm {}' ::: x` → `rm x`,
 * `parallel ::: 'rm x' ls` → `rm x` and `ls` — so deny rules and the blacklist see the command
 * and its `:::` arguments as targets. Always opaque (replacement strings, `--colsep`, quoting
 * are parallel's own); what it runs is unknown (any deny rule denies) when the arguments come
 * from stdin or files (`::::`, `-a`), the command is computed, a `{= perl =}` expression is used,
 * or an option is not one the table below knows (or an ambiguous abbreviation): where the command
 * starts is then not known.
 */
import type { Word } from './shell-shapes.js';

/**
 * parallel's options as Perl's Getopt::Long reads them (bundling, require_order, auto_abbrev):
 * `name|alias` then `=s`/`=i`/`=f` for a value (the rest of a bundle, `--name=value` or the next
 * word), `:s` for an optional one (the rest of the bundle, `=value`, or the next word unless it
 * starts with `-`), `:f` likewise but only a number, and nothing for a flag. Single letters are
 * bundled (`-kj4`); long names are matched without case, by any prefix of one option's names.
 */
const OPTIONS = `xargs m X v+ joblog=s results|result|res=s resume resume-failed|resumefailed retry-failed silent
  keep-order|keeporder|k no-keep-order|nokeeporder|nok|no-k group g ungroup|u group-by=s
  linebuffer|linebuffered|line-buffer|line-buffered|lb latest-line|ll tmux tmuxpane null|0 quote|q parens=s rpl=s plus
  I=s extensionreplace|er=s U=s basenamereplace|bnr=s dirnamereplace|dnr=s basenameextensionreplace|bner=s seqreplace=s slotreplace=s
  jobs|j=s delay=s sshdelay|ssh-delay=s load=s noswap max-line-length-allowed number-of-cpus number-of-cores number-of-threads
  number-of-sockets use-cpus-instead-of-cores use-cores-instead-of-threads use-sockets-instead-of-threads
  shellquote|shell_quote|shell-quote nice=i timeout=s tag ctag tagstring|tag-string=s ctagstring=s onall nonall
  filter-hosts|filterhosts|filter-host sshlogin|S=s sshloginfile|slf=s controlmaster|M ssh=s return=s trc=s transfer
  transferfile|tf=s cleanup basefile|bf=s B=s ctrlc|ctrl-c noctrlc|no-ctrlc|no-ctrl-c workdir|work-dir|wd=s W=s tmpdir|tempdir=s
  use-compress-program|compress-program=s use-decompress-program|decompress-program=s compress tty T halt-on-error|halt=s H=i
  retries=i dry-run|dryrun progress eta bar arg-sep|argsep=s arg-file-sep|argfilesep=s trim=s env=s recordenv|record-env
  session plain profile|J=s pipe|spreadstdin robin|round-robin|roundrobin recstart=s recend=s regexp|regex
  remove-rec-sep|removerecsep|rrs files|output-as-files|outputasfiles files0 block|block-size|blocksize=s
  blocktimeout|block-timeout|bt=s tollef gnu xapply|link bibtex citation wc|willcite|will-cite|nn|nonotice|no-notice
  memfree=s memsuspend=s max-procs|P=s delimiter|d=s max-chars|s=i arg-file|a=s no-run-if-empty|r replace|i:s E=s eof|e:s
  max-args|n=i max-replace-args|N=i colsep|col-sep|C=s csv help|h L=f max-lines|l:f interactive|p verbose|t version|V
  minversion|min-version=i show-limits|showlimits exit|x semaphore|sem semaphoretimeout|st=i semaphorename|id=s fg bg wait
  shebang|hashbang shebang-wrap internal-pipe-means-argfiles Y skip-first-line header=s cat fifo pipepart|pipe-part
  hgrp|hostgroup|hostgroups tee shuf open-tty|o limit=s termseq=s template|tmpl=s match=s sql=s sqlmaster=s sqlworker=s
  sqlandworker=s color color-failed|cf filter=s unsafe embed fast`;

interface GetoptLongOption {
  names: string[];
  /** '' a flag, '+' a counter, '=' a value, ':' an optional value, ':f' an optional number. */
  takes: '' | '+' | '=' | ':' | ':f';
}

const TABLE: GetoptLongOption[] = OPTIONS.split(/\s+/).filter(Boolean).map((entry) => {
  const spec = /([=:+])([sif]?)$/.exec(entry);
  const names = entry.slice(0, spec ? spec.index : undefined).split('|');
  const takes = !spec ? '' : spec[1] === '+' ? '+' : spec[1] === '=' ? '=' : spec[2] === 's' ? ':' : ':f';
  return { names, takes };
});

function longOption(name: string): GetoptLongOption | 'ambiguous' | undefined {
  const lower = name.toLowerCase();
  const exact = TABLE.find((o) => o.names.includes(lower));
  if (exact) return exact;
  const matches = TABLE.filter((o) => o.names.some((n) => n.length > 1 && n.startsWith(lower)));
  return matches.length > 1 ? 'ambiguous' : matches[0];
}

/** The optional value in the next word: taken unless it looks like an option (or, for a number, is none). */
function optionalNext(option: GetoptLongOption, next: string | undefined): boolean {
  if (next === undefined || (next.startsWith('-') && next !== '-')) return false;
  return option.takes === ':' || /^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(next);
}

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
  const seen = (option: GetoptLongOption, value: string | undefined): ParallelRun | undefined => {
    const name = option.names[0]!;
    if (name === 'arg-file' || name === 'arg-sep' || name === 'arg-file-sep') unknown ??= `parallel --${name} takes its arguments from somewhere the analysis cannot see`;
    if (name === 'I' || name === 'replace') replace = name === 'replace' && !value ? '{}' : value;
    if (name === 'pipe' || name === 'pipepart') pipe = true;
    if (/^(?:version|help|citation|bibtex|number-of-(?:cpus|cores|threads|sockets)|max-line-length-allowed|minversion|show-limits)$/.test(name)) return { scripts: [], runsNothing: true };
    return undefined;
  };
  for (; i < words.length; i++) {
    const arg = words[i]!.value;
    if (SEPARATOR.test(arg) || !arg.startsWith('-') || arg === '-') break;
    if (arg === '--') {
      i++;
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const option = longOption(arg.slice(2, eq === -1 ? undefined : eq));
      if (option === undefined || option === 'ambiguous') {
        unknown ??= `parallel ${arg} is ${option === 'ambiguous' ? 'an ambiguous abbreviation' : 'not an option the analysis knows'}`;
        continue;
      }
      let value = eq === -1 ? undefined : arg.slice(eq + 1);
      if (value === undefined && (option.takes === '=' || (option.takes.startsWith(':') && optionalNext(option, words[i + 1]?.value)))) value = words[++i]?.value;
      const done = seen(option, value);
      if (done) return done;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const option = TABLE.find((o) => o.names.includes(arg[j]!));
      if (!option) {
        unknown ??= `parallel -${arg[j]!} is not an option the analysis knows`;
        continue;
      }
      let value: string | undefined;
      if (option.takes === '=' || option.takes.startsWith(':')) {
        const attached = arg.slice(j + 1);
        if (attached !== '') value = attached;
        else if (option.takes === '=' || optionalNext(option, words[i + 1]?.value)) value = words[++i]?.value;
        j = arg.length;
      }
      const done = seen(option, value);
      if (done) return done;
    }
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
