/**
 * What one shell segment writes, for the protected-path check: redirection targets and the
 * operands of obvious writers (`tee`, `cp`/`mv`/`install`/`ln` destinations, `mv`/`rm` sources,
 * `sed -i`/`perl -i` files and sed's `w FILE` (sed-scripts.ts), `dd of=`, `truncate`, `curl -o`,
 * `wget -O`, `git config`, the archive `tar -c/-r/-u -f` writes, the folder `tar -x -C` fills and
 * the operands `tar --remove-files` deletes, and the writers of output-writers.ts). Targets
 * are as the parser gives them (unquoted, expansions kept as written).
 */
import path from 'node:path';
import type { ShellSegmentLike } from './engine.js';
import { outputWrites } from './output-writers.js';
import type { WriteTarget } from './write-target.js';
import { sedWrites } from './sed-scripts.js';

export type { WriteTarget } from './write-target.js';

const WRITING_REDIRECTS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);

function baseName(word: string | undefined): string | undefined {
  return word === undefined ? undefined : word.slice(word.lastIndexOf('/') + 1);
}

/** Options and operands; `valued` options take the next word. */
function split(args: readonly string[], valued: readonly string[] = []): { options: string[]; operands: string[]; values: Map<string, string> } {
  const options: string[] = [];
  const operands: string[] = [];
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      options.push(arg);
      const eq = arg.indexOf('=');
      if (eq > 0) values.set(arg.slice(0, eq), arg.slice(eq + 1));
      else if (valued.includes(arg)) values.set(arg, args[++i] ?? '');
      else {
        const attached = valued.find((v) => v.length === 2 && arg.startsWith(v) && arg.length > 2);
        if (attached) values.set(attached, arg.slice(2));
      }
    } else operands.push(arg);
  }
  return { options, operands, values };
}

function copyLike(args: readonly string[], removesSources: boolean): WriteTarget[] {
  const { operands, values } = split(args, ['-t', '-S', '-m', '-o', '-g', '--target-directory', '--suffix', '--mode', '--owner', '--group']);
  const targetDir = values.get('-t') ?? values.get('--target-directory');
  const destination = targetDir ?? (operands.length >= 2 ? operands[operands.length - 1] : undefined);
  const sources = targetDir !== undefined ? operands : operands.slice(0, -1);
  const out: WriteTarget[] = [];
  if (destination !== undefined) out.push({ target: destination, kind: 'destination', landing: sources.map((s) => path.posix.basename(s)).filter((b) => b !== '' && b !== '.' && b !== '..') });
  if (removesSources) for (const source of sources) out.push({ target: source, kind: 'tree' });
  return out;
}

/** The files and trees a segment writes. `git config` writes `.git/config` (as `.git/config`). */
export function segmentWrites(segment: ShellSegmentLike): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const redirect of segment.redirects) {
    if (!WRITING_REDIRECTS.has(redirect.op)) continue;
    if ((redirect.op === '>&' || redirect.op === '<>') && /^(?:\d+|-)$/.test(redirect.target)) continue;
    out.push({ target: redirect.target, kind: 'file' });
  }
  const argv = segment.argv;
  const name = baseName(argv[0])?.toLowerCase();
  const args = argv.slice(1);
  switch (name) {
    case 'tee':
      for (const operand of split(args).operands) out.push({ target: operand, kind: 'file' });
      break;
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
      out.push(...copyLike(args, false));
      break;
    case 'mv':
      out.push(...copyLike(args, true));
      break;
    case 'rm':
    case 'unlink':
    case 'rmdir':
    case 'shred':
    case 'truncate':
      for (const operand of split(args, ['-s', '--size', '-r', '--reference', '-n', '--iterations']).operands) out.push({ target: operand, kind: 'tree' });
      break;
    case 'sed': {
      const sed = sedWrites(args);
      for (const operand of sed.inPlace) out.push({ target: operand, kind: 'file' });
      for (const target of sed.scripted) out.push({ target, kind: 'file', definiteOnly: true });
      for (const target of sed.scriptFiles) out.push({ target, kind: 'sed-script' });
      break;
    }
    case 'perl': {
      if (!args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'))) break;
      const { operands, values } = split(args, ['-e', '-f', '--expression', '--file', '-E', '-M', '-I']);
      const script = values.has('-e') || values.has('--expression') || values.has('-f') || values.has('--file') || values.has('-E') ? 0 : 1;
      for (const operand of operands.slice(script)) out.push({ target: operand, kind: 'file' });
      break;
    }
    case 'dd':
      for (const arg of args) if (arg.startsWith('of=')) out.push({ target: arg.slice(3), kind: 'file' });
      break;
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      out.push(...tarWrites(args));
      break;
    case 'curl':
    case 'wget': {
      const { values } = split(args, ['-o', '--output', '-O', '--output-document']);
      for (const key of ['-o', '--output', '--output-document', ...(name === 'wget' ? ['-O'] : [])]) {
        const value = values.get(key);
        if (value !== undefined && value !== '-') out.push({ target: value, kind: 'file' });
      }
      break;
    }
    case 'git': {
      out.push(...(outputWrites('git', args, segment.assignments) ?? []));
      const sub = gitSubcommand(args);
      if (sub && sub.name === 'config' && gitConfigWrites(sub.rest)) {
        const file = fileOption(sub.rest);
        out.push(file === undefined ? { target: '.git/config', kind: 'file', inRepository: true } : { target: file, kind: 'file' });
      }
      break;
    }
    default:
      if (name !== undefined) out.push(...(outputWrites(name, args, segment.assignments) ?? []));
  }
  return out;
}

/**
 * `tar -cf out.tar …` writes out.tar (also -r/-u/-A, `--file=`, old-style `tar cf out.tar`);
 * `--remove-files` (or a prefix of it down to `--rem`) deletes the operands, relative to `-C dir`.
 * Extraction writes names only the archive knows: below `-C dir` (a `directory` target), else not
 * listed (the sandbox is the boundary).
 */
function tarWrites(args: readonly string[]): WriteTarget[] {
  const out: WriteTarget[] = [];
  const removes = args.some((a) => a.length >= 5 && '--remove-files'.startsWith(a));
  let creates = args.some((a) => /^--(?:create|append|update|concatenate|catenate)$/.test(a));
  let extracts = args.some((a) => /^--(?:extract|get)$/.test(a));
  let archive: string | undefined;
  let dir: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (name === '--file' || name === '--directory' || name === '--listed-incremental' || name === '--index-file') {
        const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
        if (name === '--file') archive = value;
        else if (name === '--directory') dir = value;
        else if (value !== undefined) out.push({ target: value, kind: 'file' }); // the snapshot or index tar writes
      }
      continue;
    }
    if (arg.startsWith('-') || (i === 0 && /^[A-Za-z]+$/.test(arg))) {
      const letters = arg.replace(/^-/, '');
      if (/[cruA]/.test(letters)) creates = true;
      if (letters.includes('x')) extracts = true;
      for (let j = 0; j < letters.length; j++) {
        const letter = letters[j]!;
        if (!'bCfFgHIKLNTVX'.includes(letter)) continue;
        const value = arg.startsWith('-') && j + 1 < letters.length ? letters.slice(j + 1) : args[++i];
        if (letter === 'f') archive = value;
        if (letter === 'C') dir = value;
        if (letter === 'g' && value !== undefined) out.push({ target: value, kind: 'file' }); // the incremental snapshot tar writes
        if (arg.startsWith('-') && j + 1 < letters.length) break;
      }
      continue;
    }
    operands.push(dir === undefined || arg.startsWith('/') ? arg : path.posix.join(dir, arg));
  }
  if (creates && archive !== undefined && archive !== '-') out.push({ target: archive, kind: 'file' });
  if (removes) for (const operand of operands) out.push({ target: operand, kind: 'tree' });
  // The archive's names land below `-C dir`: what they are is the archive's, the folder is named here.
  if (extracts && dir !== undefined) out.push({ target: dir, kind: 'directory' });
  return out;
}

/** `git [-C dir] [-c k=v] [--git-dir=…] sub …` → sub and its arguments. */
function gitSubcommand(args: readonly string[]): { name: string; rest: string[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-C' || arg === '-c' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace') {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { name: arg, rest: args.slice(i + 1) };
  }
  return undefined;
}

const CONFIG_READS = /^--(?:get|get-all|get-regexp|get-urlmatch|list|show-origin|show-scope|name-only|null|type|bool|int|path|default|includes|no-includes)(?:=|$)|^-[lz]$/;

/** `git config k v`, `--add`, `--unset`, `--edit`, `set`/`unset` write; `--get`, `-l`, one operand read. */
function gitConfigWrites(rest: readonly string[]): boolean {
  if (rest.some((a) => /^--(?:add|unset|unset-all|replace-all|rename-section|remove-section|edit)$|^-e$/.test(a))) return true;
  const operands = rest.filter((a, i) => !a.startsWith('-') && !['--file', '-f', '--blob'].includes(rest[i - 1] ?? ''));
  if (operands[0] === 'set' || operands[0] === 'unset' || operands[0] === 'edit' || operands[0] === 'rename-section' || operands[0] === 'remove-section') return true;
  if (operands[0] === 'get' || operands[0] === 'list') return false;
  if (rest.some((a) => CONFIG_READS.test(a))) return false;
  return operands.length >= 2;
}

function fileOption(rest: readonly string[]): string | undefined {
  if (rest.some((a) => a === '--global' || a === '--system')) return '~/.gitconfig';
  const i = rest.findIndex((a) => a === '--file' || a === '-f');
  if (i !== -1) return rest[i + 1];
  const eq = rest.find((a) => a.startsWith('--file='));
  return eq?.slice('--file='.length);
}
