/**
 * The destructive verbs of outside-targets.ts, judged on one command's words: which operands
 * each verb destroys, and whether they are literal paths inside the project.
 */
import type { Hit } from './patterns.js';
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
  return outside === undefined ? undefined : { pattern: `${verb} of ${JSON.stringify(outside)}, which is not a literal path inside the project` };
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

const VERBS: Record<string, Verb> = { rm, find, mv, chmod: ownerOrMode('chmod'), chown: ownerOrMode('chown'), chgrp: ownerOrMode('chgrp'), dd, truncate, shred, rsync };

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
