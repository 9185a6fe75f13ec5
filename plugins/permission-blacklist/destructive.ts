/**
 * The destructive verbs of outside-targets.ts, judged on one command's words: which operands
 * each verb destroys, and whether they are literal paths inside the project. Besides the removers
 * (`rm -r`, `find -delete`, `shred`, …), `tar --remove-files` and `rsync --remove-source-files`
 * delete what they copy.
 */
import type { Hit } from './hit.js';
import { literalInside, type Inside } from './outside-targets.js';
import type { Where } from './targets.js';

type Verb = (args: string[], where: Where, inside: Inside) => Hit | undefined;

/** Options and operands; `valued` options take the next word (or `--opt=value`). */
function split(args: readonly string[], valued: readonly string[] = []): { options: string[]; operands: string[] } {
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      options.push(arg);
      if (valued.includes(arg)) options.push(args[++i] ?? '');
    } else operands.push(arg);
  }
  return { options, operands };
}

const recursive = (options: readonly string[], letters = 'R'): boolean =>
  options.some((o) => (/^-[A-Za-z0-9]+$/.test(o) && [...letters].some((l) => o.includes(l))) || (o.startsWith('--rec') && '--recursive'.startsWith(o.split('=')[0]!)));

function firstOutside(verb: string, operands: readonly string[], where: Where, inside: Inside, rootItself: boolean): Hit | undefined {
  const outside = operands.find((operand) => !literalInside(operand, where, inside, rootItself));
  if (outside === undefined) return undefined;
  const why = where.linkedBy === undefined ? '' : ` (${JSON.stringify(where.linkedBy)} on the same line may make a link on its way first)`;
  return { pattern: `${verb} of ${JSON.stringify(outside)}, which is not a literal path inside the project${why}` };
}

const rm: Verb = (args, where, inside) => {
  const { options, operands } = split(args);
  if (!recursive(options, 'rR')) return undefined;
  return firstOutside('recursive rm', operands, where, inside, false);
};

const find: Verb = (args, where, inside) => {
  const firstExpression = args.findIndex((a) => (a.startsWith('-') && !/^-[HLPO]/.test(a)) || a === '(' || a === '!');
  const starts = (firstExpression === -1 ? args : args.slice(0, firstExpression)).filter((a) => !/^-[HLP]$|^-O\d*$/.test(a));
  const expression = firstExpression === -1 ? [] : args.slice(firstExpression);
  const deletes = expression.some((word, i) => word === '-delete' || (/^-(exec|execdir|ok|okdir)$/.test(word) && /^(rm|shred|unlink|rmdir|truncate|mv)$/.test(baseName(expression[i + 1]))));
  if (!deletes) return undefined;
  return firstOutside('find deleting files under', starts.length > 0 ? starts : ['.'], where, inside, true);
};

const mv: Verb = (args, where, inside) => {
  const { options, operands } = split(args, ['-t', '-S', '--suffix', '--target-directory']);
  const targetDir = options.find((o, i) => options[i - 1] === '-t' || options[i - 1] === '--target-directory') ?? options.find((o) => o.startsWith('--target-directory='))?.split('=')[1];
  return firstOutside('mv', targetDir === undefined ? operands : [...operands, targetDir], where, inside, false);
};

const ownerOrMode = (verb: string): Verb => (args, where, inside) => {
  const { options, operands } = split(args, ['--reference', '--from']);
  if (!recursive(options)) return undefined;
  const targets = options.some((o) => o.startsWith('--reference')) ? operands : operands.slice(1);
  return firstOutside(`${verb} -R`, targets, where, inside, true);
};

const HARMLESS_DEVICE = /^\/dev\/(?:null|zero|full|stdout|stderr|tty|fd\/\d+)$/;

const dd: Verb = (args, where, inside) => {
  const output = args.find((a) => a.startsWith('of='))?.slice(3);
  if (output === undefined || HARMLESS_DEVICE.test(output)) return undefined;
  return firstOutside('dd of=', [output], where, inside, false);
};

const truncate: Verb = (args, where, inside) => firstOutside('truncate', split(args, ['-s', '--size', '-r', '--reference']).operands, where, inside, false);
const shred: Verb = (args, where, inside) => firstOutside('shred', split(args, ['-n', '--iterations', '-s', '--size', '--random-source']).operands, where, inside, false);

/** `rsync --delete src/ dest/` empties dest; `--remove-source-files` removes the sources. */
const rsync: Verb = (args, where, inside) => {
  const { options, operands } = split(args, ['-e', '--rsh', '--exclude', '--include', '--filter', '-f', '--files-from', '--log-file', '--temp-dir', '-T']);
  const hits: Hit[] = [];
  if (options.some((o) => o.startsWith('--del'))) {
    const hit = firstOutside('rsync --delete into', operands.slice(-1), where, inside, true);
    if (hit) hits.push(hit);
  }
  if (options.some((o) => o === '--remove-source-files' || o === '--remove-sent-files')) {
    const hit = firstOutside('rsync removing its sources', operands.slice(0, -1), where, inside, false);
    if (hit) hits.push(hit);
  }
  return hits[0];
};

/** GNU tar options that take a value (short letters; long names, which tar also accepts abbreviated). */
const TAR_VALUED_SHORT = 'bCfFgHIKLNTVX';
const TAR_VALUED_LONG = [
  '--file', '--directory', '--files-from', '--exclude-from', '--exclude', '--blocking-factor', '--listed-incremental', '--format', '--use-compress-program',
  '--starting-file', '--tape-length', '--newer', '--after-date', '--newer-mtime', '--label', '--transform', '--xform', '--owner', '--group', '--mode',
  '--mtime', '--suffix', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command', '--record-size', '--volno-file',
  '--index-file', '--level', '--warning', '--strip-components', '--sort', '--quoting-style', '--pax-option', '--checkpoint-action', '--owner-map', '--group-map',
];

/** `--rem`, `--remov`, … `--remove-files`: GNU getopt accepts any unambiguous prefix (`--re` is ambiguous). */
const removeFiles = (arg: string): boolean => arg.length >= 5 && '--remove-files'.startsWith(arg);

/**
 * `tar --remove-files -cf out.tar ~` deletes what it archives: its operands (relative to a
 * preceding `-C dir`) are targets; with `-T list` the names are unknown. Old-style clusters
 * (`tar cf x.tar d`) and attached values (`-fx.tar`, `--file=x.tar`) are understood.
 */
const tar: Verb = (args, where, inside) => {
  if (!args.some(removeFiles)) return undefined;
  const targets: string[] = [];
  let dir: string | undefined;
  const take = (letter: string, value: string | undefined): void => {
    if (letter === 'C' || letter === '--directory') dir = value;
    if (letter === 'T' || letter === '--files-from') targets.push(`$(names listed in ${value ?? ''})`);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--') && arg.length > 2) {
      const [name, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      const full = TAR_VALUED_LONG.find((long) => name.length >= 4 && long.startsWith(name));
      if (full) take(full, value ?? args[++i]);
      continue;
    }
    if ((arg.startsWith('-') && arg.length > 1) || (i === 0 && /^[A-Za-z]+$/.test(arg))) {
      // A cluster: each value-taking letter takes the rest of the word (dashed form) or the next word.
      const letters = arg.startsWith('-') ? arg.slice(1) : arg;
      for (let j = 0; j < letters.length; j++) {
        const letter = letters[j]!;
        if (!TAR_VALUED_SHORT.includes(letter)) continue;
        if (arg.startsWith('-') && j + 1 < letters.length) {
          take(letter, letters.slice(j + 1));
          break;
        }
        take(letter, args[++i]);
      }
      continue;
    }
    targets.push(dir === undefined || arg.startsWith('/') ? arg : `${dir.replace(/\/+$/, '')}/${arg}`);
  }
  return firstOutside('tar --remove-files', targets, where, inside, false);
};

/**
 * git commands that destroy files of a work tree — `clean -f`, `reset --hard`, `checkout -f` /
 * `checkout -- <paths>`, `restore`, `stash -u`, `rm` — where the work tree (from `-C`,
 * `--work-tree`, `--git-dir`'s parent, `GIT_WORK_TREE`/`GIT_DIR` given as options by the caller)
 * is not a literal path inside the project: another repository's files are outside.
 */
const git: Verb = (args, where, inside) => {
  let dir: string | undefined;
  let workTree: string | undefined;
  let gitDir: string | undefined;
  let at = 0;
  const join = (base: string | undefined, next: string): string => (base === undefined || next.startsWith('/') || next.startsWith('~') || next.startsWith('$') ? next : `${base.replace(/\/+$/, '')}/${next}`);
  for (; at < args.length; at++) {
    const arg = args[at]!;
    const [key, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (key === '-C') dir = join(dir, args[++at] ?? '');
    else if (key === '--work-tree') workTree = inline ?? args[++at];
    else if (key === '--git-dir') gitDir = inline ?? args[++at];
    else if (key === '-c' || key === '--namespace' || key === '--super-prefix' || key === '--config-env') {
      if (inline === undefined) at++;
    } else if (!arg.startsWith('-')) break;
  }
  const sub = args[at];
  const rest = args.slice(at + 1);
  const has = (test: RegExp): boolean => rest.some((a) => test.test(a));
  const destroys =
    (sub === 'clean' && (has(/^-[A-Za-z]*f/) || has(/^--force$/))) ||
    (sub === 'reset' && has(/^--(?:hard|merge|keep)$/)) ||
    (sub === 'checkout' && (has(/^-[A-Za-z]*f/) || has(/^--force$/) || rest.includes('--') || rest.includes('.'))) ||
    sub === 'restore' ||
    (sub === 'stash' && (has(/^-[A-Za-z]*[ua]/) || has(/^--(?:include-untracked|all)$/))) ||
    sub === 'rm';
  if (!destroys) return undefined;
  // No -C/--work-tree/--git-dir: the repository of the directory it runs in (`cd ~/x && git clean -fdx`).
  const tree = workTree !== undefined ? join(dir, workTree) : gitDir !== undefined ? join(dir, gitDir.replace(/\/+$/, '').replace(/\/?\.git$/, '') || '.') : (dir ?? '.');
  return firstOutside(`git ${sub} in the work tree`, [tree], where, inside, true);
};

const VERBS: Record<string, Verb> = { git, rm, find, mv, chmod: ownerOrMode('chmod'), chown: ownerOrMode('chown'), chgrp: ownerOrMode('chgrp'), dd, truncate, shred, rsync, tar, gtar: tar, bsdtar: tar };

function baseName(word: string | undefined): string {
  return word === undefined ? '' : word.slice(word.lastIndexOf('/') + 1);
}

/** The hit for a destructive verb (by command name) aimed outside the project, if any. */
export function destructiveOutside(name: string, args: string[], where: Where): Hit | undefined {
  if (!where.inside || !Object.hasOwn(VERBS, name)) return undefined;
  return VERBS[name]!(args, where, where.inside);
}

/** Verbs whose arguments can be judged when the command name itself is computed (`$X -rf ~`). */
export const DESTRUCTIVE_VERBS = Object.keys(VERBS);
