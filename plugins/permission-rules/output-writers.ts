/**
 * Programs that write a file or folder named by an option or an operand although they are mostly
 * used to read (`sort -o`, `uniq IN OUT`, `xxd IN OUT`, `split`/`csplit` prefixes, `patch -o`,
 * `script FILE`, `unzip -d`) or to make things (`touch`, `mkdir`), and git's writing options
 * (`--output` of log/diff/show…, `archive -o`, `format-patch -o`, `checkout-index --prefix`,
 * `init --template`, `--work-tree` of a command that writes the work tree). Listed so that the
 * protected-path question names the file; a program missing here is still caught when the path
 * is on its line (possible-writes.ts).
 */
import path from 'node:path';
import type { WriteTarget } from './write-target.js';

interface Options {
  /** Short options taking a value (`-o FILE`, `-oFILE`). */
  short?: string;
  /** Long options taking a value (`--output=FILE`, `--output FILE`, or a prefix of four characters or more). */
  long?: readonly string[];
}

/** Option values by option (long names as written in `long`, short as `-x`) and the operands. */
export function parseOptions(args: readonly string[], options: Options): { values: [string, string][]; operands: string[] } {
  const values: [string, string][] = [];
  const operands: string[] = [];
  const short = options.short ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      const long = (options.long ?? []).find((l) => l === name || (name.length >= 4 && l.startsWith(name)));
      if (long !== undefined) values.push([long, eq === -1 ? (args[++i] ?? '') : arg.slice(eq + 1)]);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        if (!short.includes(arg[j]!)) continue;
        values.push([`-${arg[j]}`, j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? '')]);
        break;
      }
      continue;
    }
    operands.push(arg);
  }
  return { values, operands };
}

const valuesOf = (values: [string, string][], ...names: string[]): string[] => values.filter(([n]) => names.includes(n)).map(([, v]) => v);
const file = (target: string): WriteTarget => ({ target, kind: 'file' });

/** The writes of the programs this file knows; undefined for any other. */
export function outputWrites(name: string, args: readonly string[], assignments: readonly string[]): WriteTarget[] | undefined {
  switch (name) {
    case 'sort': {
      const { values } = parseOptions(args, { short: 'kStTo', long: ['--output', '--temporary-directory', '--key', '--field-separator', '--buffer-size', '--files0-from', '--batch-size', '--parallel', '--compress-program', '--random-source', '--sort'] });
      return [...valuesOf(values, '-o', '--output').map(file), ...valuesOf(values, '-T', '--temporary-directory').map((d): WriteTarget => ({ target: d, kind: 'directory' }))];
    }
    case 'uniq':
    case 'xxd': {
      const valued = name === 'uniq' ? { short: 'fsw', long: ['--skip-fields', '--skip-chars', '--check-chars', '--all-repeated', '--group'] } : { short: 'cglosnR' };
      const { operands } = parseOptions(args, valued);
      return operands.slice(1, 2).map(file);
    }
    case 'split': {
      const { operands } = parseOptions(args, { short: 'abClnt', long: ['--suffix-length', '--bytes', '--line-bytes', '--lines', '--number', '--separator', '--additional-suffix', '--filter', '--numeric-suffixes', '--hex-suffixes'] });
      return operands.slice(1, 2).map((p): WriteTarget => ({ target: p, kind: 'prefix' }));
    }
    case 'csplit': {
      const { values } = parseOptions(args, { short: 'bfn', long: ['--suffix-format', '--prefix', '--digits'] });
      return valuesOf(values, '-f', '--prefix').map((p): WriteTarget => ({ target: p, kind: 'prefix' }));
    }
    case 'touch':
    case 'mkdir':
      return parseOptions(args, { short: name === 'touch' ? 'rdt' : 'm', long: ['--reference', '--date', '--time', '--mode', '--context'] }).operands.map(file);
    case 'patch': {
      const { values, operands } = parseOptions(args, { short: 'oridpBDFgVYzxiz', long: ['--output', '--reject-file', '--directory', '--input', '--strip', '--prefix', '--basename-prefix', '--suffix', '--ifdef', '--fuzz', '--get', '--version-control', '--backup-if-mismatch', '--quoting-style', '--reject-format'] });
      const outputs = valuesOf(values, '-o', '--output');
      return [
        ...(outputs.length > 0 ? outputs : operands.slice(0, 1)).map(file),
        ...valuesOf(values, '-r', '--reject-file').map(file),
        ...valuesOf(values, '-d', '--directory').map((d): WriteTarget => ({ target: d, kind: 'directory' })),
      ];
    }
    case 'script': {
      const { values, operands } = parseOptions(args, { short: 'cEIOBTm', long: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format', '--output-limit'] });
      return [...operands.slice(0, 1), ...valuesOf(values, '-I', '-O', '-B', '-T', '--log-in', '--log-out', '--log-io', '--log-timing')].map(file);
    }
    case 'unzip': {
      const { values } = parseOptions(args, { short: 'dx' });
      return valuesOf(values, '-d').map((d): WriteTarget => ({ target: d, kind: 'directory' }));
    }
    case 'git':
      return gitOutputs(args, assignments);
  }
  return undefined;
}

/** Subcommands that leave the work tree alone: `--work-tree` with any other writes there. */
const WORK_TREE_READERS = new Set(['status', 'diff', 'log', 'show', 'blame', 'ls-files', 'grep', 'shortlog', 'describe', 'rev-parse', 'add', 'commit', 'fetch']);

function gitOutputs(args: readonly string[], assignments: readonly string[]): WriteTarget[] {
  const out: WriteTarget[] = [];
  let workTree: string | undefined;
  let template = assignments.some((a) => a.startsWith('GIT_TEMPLATE_DIR='));
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '-c' || arg === '-C' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace' || arg === '--config-env') {
      const value = args[++at] ?? '';
      if (arg === '--work-tree') workTree = value;
      if (arg === '-c' && /^init\.templatedir=/i.test(value)) template = true;
      continue;
    }
    if (arg.startsWith('--work-tree=')) workTree = arg.slice('--work-tree='.length);
    if (arg.startsWith('-c') && /^init\.templatedir=/i.test(arg.slice(2))) template = true;
    if (!arg.startsWith('-')) break;
  }
  const sub = args[at];
  if (sub === undefined) return out;
  const rest = args.slice(at + 1);
  if (workTree !== undefined && !WORK_TREE_READERS.has(sub)) out.push({ target: workTree, kind: 'directory' });
  const { values, operands } = parseOptions(rest, { short: sub === 'archive' || sub === 'format-patch' ? 'o' : '', long: ['--output', '--output-directory', '--prefix', '--template', '--separate-git-dir'] });
  switch (sub) {
    case 'format-patch':
      for (const dir of valuesOf(values, '-o', '--output-directory')) out.push({ target: dir, kind: 'directory' });
      for (const f of valuesOf(values, '--output')) out.push(file(f));
      break;
    case 'checkout-index':
      for (const prefix of valuesOf(values, '--prefix')) out.push({ target: prefix, kind: 'prefix' });
      break;
    case 'init': {
      const dir = operands[0] ?? '.';
      if (template || valuesOf(values, '--template').length > 0) {
        // The template's hooks are copied in, into an existing repository too.
        out.push(file(path.posix.join(dir, rest.includes('--bare') ? 'hooks' : '.git/hooks')));
        for (const gitDir of valuesOf(values, '--separate-git-dir')) out.push(file(path.posix.join(gitDir, 'hooks')));
      }
      break;
    }
    default:
      // `--output=FILE` of the diff family (log, diff, show, range-diff…) and of archive (`-o`).
      for (const f of valuesOf(values, '-o', '--output')) out.push(file(f));
  }
  return out;
}
