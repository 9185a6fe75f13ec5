/**
 * The programs a bash command may run and still only read, with what each accepts. Reviewed for
 * what writes: an output file (`sort -o`, `tree -o`, `time -o`, `uniq in out`, `xxd in out`), a
 * program run (`rg --pre`, `sort --compress-program`, `fd -x`, `find -exec`), a compiled file
 * (`file -C`), the system's clock or name (`date -s`, `hostname name`). A program with no such
 * option accepts anything; one with some is read through its option table (option-scan.ts: the
 * sdk's option reader), and an option the table does not know makes the command "may write". `ag` is left out: its
 * `--pager` runs a program and its options change between versions.
 */
import { optionTable, scanOptions, type OptionTable } from './option-scan.js';

export type ReaderSpec =
  /** No option writes or runs anything: any arguments. */
  | { kind: 'any' }
  /** Read through a table; `operands` judges what is left (`uniq in out` writes out). */
  | { kind: 'options'; table: OptionTable; operands?: (operands: readonly string[]) => boolean }
  /** Its own grammar (`find`'s expression, `xxd`'s options). */
  | { kind: 'custom'; readOnly: (args: readonly string[]) => boolean }
  /**
   * Runs the command in its operands (after `positional` of its own): that command is judged
   * too. `xargs` appends words it reads from stdin to it.
   */
  | { kind: 'wrapper'; table: OptionTable; positional?: number };

const ANY: ReaderSpec = { kind: 'any' };

const SORT = optionTable({
  flags: 'bcCdfghimMnrRsuVz',
  valued: 'koStTy',
  long:
    'ignore-leading-blanks batch-size= buffer-size= check compress-program= debug dictionary-order field-separator= files0-from= ' +
    'general-numeric-sort help human-numeric-sort ignore-case ignore-nonprinting key= merge month-sort numeric-sort output= ' +
    'parallel= random-sort random-source= reverse sort= stable temporary-directory= unique version version-sort zero-terminated',
  writes: 'o output compress-program',
  abbreviations: true,
});

const UNIQ = optionTable({
  flags: 'cdDiuz0123456789',
  valued: 'fsw',
  long: 'all-repeated check-chars= count group help ignore-case repeated skip-chars= skip-fields= unique version zero-terminated',
  abbreviations: true,
});

const DATE = optionTable({
  flags: 'Ru',
  valued: 'dfrs',
  attached: 'I',
  long: 'date= debug file= iso-8601 resolution rfc-email rfc-822 rfc-2822 rfc-3339= reference= set= utc universal help version',
  writes: 's set',
  abbreviations: true,
});

const HOSTNAME = optionTable({
  flags: 'aAbdfiIsynvVh',
  valued: 'F',
  long: 'alias all-fqdns boot domain fqdn long file= ip-address all-ip-addresses short yp nis verbose version help',
  writes: 'b boot F file',
  abbreviations: true,
});

const FILE = optionTable({
  flags: 'bcCdEhiklLnNprsSvzZ0',
  valued: 'efFmP',
  long:
    'apple brief checking-printout compile debug exclude= exclude-quiet= extension files-from= separator= mime mime-type ' +
    'mime-encoding keep-going list dereference no-dereference magic-file= no-buffer no-pad print0 preserve-date parameter= raw ' +
    'special-files no-sandbox uncompress uncompress-noreport version help',
  // -C compiles the magic files into <name>.mgc; -p resets the access times of the files it read.
  writes: 'C compile p preserve-date',
  abbreviations: true,
});

const TREE = optionTable({
  flags: 'adlfxRiASnCqNQpugshDFvtcUrXJ0123456789',
  valued: 'LPIoHT',
  long:
    'help version inodes device noreport nolinks dirsfirst filesfirst si du prune ignore-case matchdirs fromtabfile fromfile ' +
    'metafirst gitignore info fflinks hyperlink opt-toggle condense acl selinux filelimit= charset= timefmt= sort= gitfile= ' +
    'infofile= hintro= houtro= scheme= authority= compress=',
  // -R writes a 00Tree.html into each directory (with -H); -o is the output file.
  writes: 'o R',
  clusterValuesFromNextWords: true,
});

/** ripgrep 13–15 (its flag definitions). No abbreviations. */
const RG = optionTable({
  flags: 'scClFLh.ivnNxU0oPpqzSauVHIwbX',
  valued: 'ABEfgMmderjtT',
  long:
    'after-context= auto-hybrid-regex no-auto-hybrid-regex before-context= binary no-binary block-buffered no-block-buffered ' +
    'byte-offset no-byte-offset case-sensitive color= colors= column no-column context= context-separator= no-context-separator ' +
    'count count-matches crlf no-crlf debug dfa-size-limit= encoding= no-encoding engine= field-context-separator= ' +
    'field-match-separator= file= files files-with-matches files-without-match fixed-strings no-fixed-strings follow no-follow ' +
    'generate= glob= glob-case-insensitive no-glob-case-insensitive heading no-heading help hidden no-hidden hostname-bin= ' +
    'hyperlink-format= iglob= ignore-case ignore-file= ignore-file-case-insensitive no-ignore-file-case-insensitive include-zero ' +
    'no-include-zero index x-crud x-force x-path= invert-match no-invert-match json no-json line-buffered no-line-buffered ' +
    'line-number no-line-number line-regexp max-columns= max-columns-preview no-max-columns-preview max-count= max-depth= maxdepth= ' +
    'max-filesize= mmap no-mmap multiline no-multiline multiline-dotall no-multiline-dotall no-config no-ignore ignore no-ignore-dot ' +
    'ignore-dot no-ignore-exclude ignore-exclude no-ignore-files ignore-files no-ignore-global ignore-global no-ignore-messages ' +
    'ignore-messages no-ignore-parent ignore-parent no-ignore-vcs ignore-vcs no-messages messages no-pcre2-unicode pcre2-unicode ' +
    'no-require-git require-git no-unicode unicode null null-data one-file-system no-one-file-system only-matching path-separator= ' +
    'passthru passthrough pcre2 no-pcre2 pcre2-version pre= no-pre pre-glob= pretty quiet regex-size-limit= regexp= replace= ' +
    'search-zip no-search-zip smart-case sort-files no-sort-files sort= sortr= stats no-stats stop-on-nonmatch text no-text ' +
    'threads= trace trim no-trim type= type-add= type-clear= type-not= type-list unrestricted version vimgrep with-filename ' +
    'no-filename word-regexp',
  // --pre and --hostname-bin run a program; --x-crud creates or updates a search index; -z runs decompressors.
  writes: 'pre hostname-bin x-crud z search-zip',
});

/** fd 8–10. No abbreviations. */
const FD = optionTable({
  flags: 'HIusigFalLp0q1hV',
  valued: 'dteSocjCExX',
  long:
    'hidden no-hidden no-ignore ignore no-ignore-vcs ignore-vcs no-require-git require-git no-ignore-parent ignore-parent ' +
    'no-global-ignore-file unrestricted case-sensitive ignore-case glob regex fixed-strings literal exact absolute-path ' +
    'relative-path list-details follow dereference no-follow full-path print0 prune quiet has-results show-errors ' +
    'one-file-system mount xdev help version and= max-depth= maxdepth= min-depth= mindepth= exact-depth= exclude= type= ' +
    'extension= size= changed-within= change-newer-than= newer= changed-after= changed-before= change-older-than= older= owner= ' +
    'format= batch-size= ignore-file= color= ignore-contain= threads= max-buffer-time= max-results= base-directory= ' +
    'path-separator= search-path= hyperlink hyper strip-cwd-prefix gen-completions exec= exec-batch=',
  // -l/--list-details runs ls on what it finds.
  writes: 'x X exec exec-batch l list-details',
});

/** GNU time (`/usr/bin/time`): -o writes its report into a file. */
const TIME = optionTable({
  flags: 'apqvV',
  valued: 'fo',
  long: 'append format= output= portability quiet verbose version help',
  writes: 'a o append output',
  abbreviations: true,
  optionsEndAtOperand: true,
});

const TIMEOUT = optionTable({
  flags: 'v',
  valued: 'ks',
  long: 'foreground kill-after= preserve-status signal= verbose help version',
  abbreviations: true,
  optionsEndAtOperand: true,
});

const NICE = optionTable({ flags: '0123456789', valued: 'n', long: 'adjustment= help version', abbreviations: true, optionsEndAtOperand: true });

const ENV = optionTable({
  flags: 'i0v',
  valued: 'uCS',
  long: 'ignore-environment null unset= chdir= split-string= block-signal default-signal ignore-signal list-signal-handling debug help version',
  // -S splits a string into a command line of its own.
  writes: 'S split-string',
  abbreviations: true,
  optionsEndAtOperand: true,
});

const XARGS = optionTable({
  flags: '0prtxo',
  valued: 'aEILnsPd',
  attached: 'eil',
  long:
    'null arg-file= delimiter= eof max-lines max-args= max-procs= max-chars= replace interactive no-run-if-empty open-tty ' +
    'process-slot-var= show-limits verbose exit help version',
  abbreviations: true,
  optionsEndAtOperand: true,
});

/** `find`'s expression: its tests and actions, by how many words each takes. */
const FIND_NO_VALUE = new Set(
  (
    '-daystart -follow -nowarn -warn -depth -d -mount -xdev -noleaf -ignore_readdir_race -noignore_readdir_race -empty -false -true ' +
    '-nouser -nogroup -readable -writable -executable -print -print0 -ls -prune -quit -help --help -version --version ' +
    '( ) ! , -a -and -o -or -not'
  ).split(' '),
);
const FIND_ONE_VALUE = new Set(
  (
    '-regextype -maxdepth -mindepth -files0-from -amin -anewer -atime -cmin -cnewer -context -ctime -fstype -gid -group -ilname ' +
    '-iname -inum -ipath -iregex -iwholename -links -lname -mmin -mtime -name -newer -path -perm -regex -samefile -size -type -uid ' +
    '-used -user -wholename -xtype -printf'
  ).split(' '),
);

/**
 * `find [-H|-L|-P|-D opts|-Olevel]… [path…] [expression]`. Its writing actions (-delete, -exec,
 * -execdir, -ok, -okdir, -fprint, -fprint0, -fprintf, -fls) and anything it does not know are
 * "may write"; find checks its whole expression before it runs, so a stray word only fails.
 */
function findReadsOnly(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && /^-(?:[HLP]|O\d*|D)$/.test(args[i]!)) i += args[i] === '-D' ? 2 : 1;
  while (i < args.length && !args[i]!.startsWith('-') && !['(', ')', '!', ','].includes(args[i]!)) i++;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (FIND_NO_VALUE.has(word)) continue;
    if (FIND_ONE_VALUE.has(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) i++;
    else return false;
  }
  return true;
}

/**
 * `xxd [options] [infile [outfile]]`: options end at the first operand, and an outfile is
 * written. xxd decides an option by its first letter (`-c8`, `-cols 8`, `-ps`, `-postscript`).
 */
function xxdReadsOnly(args: readonly string[]): boolean {
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    const letter = word[1]!;
    if ('abeupiCdrEvhV'.includes(letter)) continue;
    if (!'cgoslnR'.includes(letter)) return false;
    // The value is the rest of the word, unless the word is the letter or its long spelling.
    if (word.length === 2 || /^-(?:cols|groupsize|offset|seek|skip|len|name|Rcolor)$/.test(word)) i++;
  }
  return args.length - i <= 1;
}

export const READERS: ReadonlyMap<string, ReaderSpec> = new Map<string, ReaderSpec>([
  ...[
    'cat', 'head', 'tail', 'wc', 'ls', 'pwd', 'echo', 'printf', 'true', 'false', 'sleep', 'cut', 'tr', 'grep', 'egrep', 'fgrep',
    'du', 'df', 'stat', 'which', 'type', 'whereis', 'basename', 'dirname', 'realpath', 'readlink', 'whoami', 'id', 'uname',
    'printenv', 'diff', 'cmp', 'comm', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'jq', 'column', 'nl', 'od',
    'hexdump', 'strings', 'test', '[', 'seq', 'expr', 'cd', 'pushd', 'popd', 'nproc', 'free', 'uptime', 'ps', 'paste', 'fold',
    'rev', 'tac', 'look',
  ].map((name): [string, ReaderSpec] => [name, ANY]),
  ['sort', { kind: 'options', table: SORT }],
  ['uniq', { kind: 'options', table: UNIQ, operands: (operands) => operands.length <= 1 }],
  // An operand other than +FORMAT sets the clock.
  ['date', { kind: 'options', table: DATE, operands: (operands) => operands.every((o) => o.startsWith('+')) }],
  ['hostname', { kind: 'options', table: HOSTNAME, operands: (operands) => operands.length === 0 }],
  ['file', { kind: 'options', table: FILE }],
  ['tree', { kind: 'options', table: TREE }],
  ['rg', { kind: 'options', table: RG }],
  ['fd', { kind: 'options', table: FD }],
  ['fdfind', { kind: 'options', table: FD }],
  ['find', { kind: 'custom', readOnly: findReadsOnly }],
  ['xxd', { kind: 'custom', readOnly: xxdReadsOnly }],
  ['time', { kind: 'wrapper', table: TIME }],
  ['timeout', { kind: 'wrapper', table: TIMEOUT, positional: 1 }],
  ['nice', { kind: 'wrapper', table: NICE }],
  ['env', { kind: 'wrapper', table: ENV }],
  ['xargs', { kind: 'wrapper', table: XARGS }],
]);

/** Whether a reader's arguments, read by its table, leave it reading only. */
export function optionsReadOnly(spec: Extract<ReaderSpec, { kind: 'options' }>, args: readonly string[]): boolean {
  const scanned = scanOptions(args, spec.table);
  return scanned !== undefined && (spec.operands?.(scanned.operands) ?? true);
}
