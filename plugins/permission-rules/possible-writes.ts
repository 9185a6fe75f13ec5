/**
 * Fail closed where no OS sandbox keeps the protected paths read-only: a program may write any
 * path its command line names (`git log --output=F`, `sort -o F`, `frob --out=F`, `make
 * DESTDIR=D`), and no list of writers is complete. So, unless the program is one whose every
 * write the analysis knows (READ_ONLY below, or a writer command-writes.ts models whole), each
 * word of the segment that names a protected path — the word itself, the value of `--opt=VALUE`,
 * `KEY=VALUE` or an attached `-oVALUE` — is a possible write target: it asks as a write there
 * would (protection.ts), naming the path. A word naming a folder holding protected files (`.git`,
 * `.mewcode`; `-C .git`, `--work-tree=.git/hooks`) counts too, the project root and the home
 * folder themselves excepted (every `make -C .` would ask). Only definite names count: a
 * computed word (`"$X"`) is no question here.
 */
import type { WriteTarget } from './write-target.js';

/** Programs that only read (or list) the paths their command line names. */
const READ_ONLY = new Set([
  'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'wc', 'ls', 'stat', 'diff', 'cmp', 'du',
  'test', '[', 'echo', 'printf', 'realpath', 'readlink', 'basename', 'dirname', 'md5sum', 'sha1sum',
  'sha256sum', 'sha512sum', 'cksum', 'cd', 'pushd',
]);

/** git subcommands that only read the paths named (`git log -- .claude`), unless given an output file. */
const GIT_READ_ONLY = new Set(['status', 'diff', 'show', 'log', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'cat-file', 'shortlog', 'add', 'commit', 'describe', 'rev-list', 'whatchanged']);

/**
 * Writers whose every write target command-writes.ts (with output-writers.ts and sed-scripts.ts)
 * finds: the paths they only read are not asked about (`sed -n 1p .git/config`, `cp .git/config
 * backup`). Programs with many writing options (`tar`, `rsync`, `curl`, `patch`, `unzip`,
 * `script`) are not here: their writes known by name are precise, and the rest of their line is
 * judged by the rule above.
 */
const WRITES_KNOWN = new Set(['tee', 'cp', 'install', 'ln', 'mv', 'rm', 'unlink', 'rmdir', 'shred', 'truncate', 'sed', 'dd', 'sort', 'uniq', 'xxd', 'split', 'csplit', 'touch', 'mkdir']);

/** Whether the program of `argv` only reads its operands, or writes only what the write list finds. */
export function writesKnown(argv: readonly string[]): boolean {
  const name = argv[0]?.slice(argv[0].lastIndexOf('/') + 1).toLowerCase();
  if (name === undefined) return true;
  if (READ_ONLY.has(name) || WRITES_KNOWN.has(name)) return true;
  // tar making or listing an archive writes only what tarWrites finds (`tar -cf out.tar ~/.ssh`
  // reads ~/.ssh); extracting writes the members named on its line (`tar xf a.tar .git/hooks/x`).
  if (name === 'tar' || name === 'gtar' || name === 'bsdtar') return !tarExtracts(argv.slice(1));
  if (name !== 'git') return false;
  const args = argv.slice(1);
  let at = 0;
  while (at < args.length && args[at]!.startsWith('-')) at += /^(?:-c|-C|--git-dir|--work-tree|--namespace|--config-env)$/.test(args[at]!) ? 2 : 1;
  const sub = args[at];
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) return false;
  // `--output=F` (and its abbreviations down to `--ou`), `-o` (a file for some): not only a reader then.
  return !args.slice(at + 1).some((a) => {
    const name = a.split('=')[0]!;
    return (name.length >= 4 && '--output'.startsWith(name)) || name.startsWith('--output') || /^-o/.test(a);
  });
}

function tarExtracts(args: readonly string[]): boolean {
  return args.some((a, i) => /^--(?:extract|get)$/.test(a) || (/^-[A-Za-z]+$/.test(a) && a.includes('x')) || (i === 0 && /^[A-Za-z]+$/.test(a) && a.includes('x')));
}

/** The words of a segment that may name a write target, for a program not known by writesKnown. */
export function possibleWrites(argv: readonly string[]): WriteTarget[] {
  if (writesKnown(argv)) return [];
  const out = new Set<string>();
  for (const word of argv.slice(1)) {
    if (word === '' || word === '-' || word === '--') continue;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      if (eq !== -1) out.add(word.slice(eq + 1));
      continue;
    }
    if (word.startsWith('-')) {
      // `-oFILE`, and `-qoFILE` after a run of flags (the value starts where the letters end).
      const letters = /^-[A-Za-z]*/.exec(word)![0].length;
      if (word.length > 2) out.add(word.slice(2));
      if (letters > 2 && letters < word.length) out.add(word.slice(letters));
      continue;
    }
    out.add(word);
    const eq = word.indexOf('=');
    if (eq > 0 && /^[A-Za-z_][\w.-]*$/.test(word.slice(0, eq))) out.add(word.slice(eq + 1));
  }
  return [...out].filter((t) => t !== '').map((target) => ({ target, kind: 'directory', definiteOnly: true }));
}
