/**
 * Renamed programs (fail-closed analysis): `cp /bin/rm ./r && ./r x`, `ln -s /bin/rm r; ./r x`,
 * `printf 'rm x' > s.sh; bash s.sh`, `curl -o t URL && chmod +x t && ./t`. A segment that runs a
 * file which another segment of the same command line writes, copies, moves, links or chmods
 * cannot be judged by its name: it runs commands nothing shows (ShellSegment.unknownCommands,
 * so any deny rule denies it). An interpreter's script written on the line (`cat > t.py <<EOF …;
 * python3 t.py`) is opaque like `python3 -c` (never allowed by a rule), not unknown: deny rules do
 * not look inside interpreter programs' files anyway.
 *
 * Names are compared by file name (and, for a program run by path, every directory in it), so
 * `cd`, `./` and directory destinations (`cp /bin/rm bin/ && bin/rm`) do not hide a match; a
 * false match only makes a command opaque. Residual limit, by design: a program copied or
 * written by an earlier call (or by a program the analysis cannot read, `tar x`, `unzip`, a
 * compiler, a target with an expansion) is out of reach of this check and of deny rules; the OS
 * sandbox is the boundary there.
 */
import { LinearRegExp } from '../linear-regex/index.js';
import type { ShellSegment } from './shell-shapes.js';
import { interpreterFamily } from './interpreters.js';
import { isShell } from './wrappers.js';

export interface RenamedProgram {
  segment: ShellSegment;
  reason: string;
}

const WRITING_REDIRECTS = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);
const COPIERS = new Set(['cp', 'install', 'ln', 'link', 'mv', 'rsync', 'gcp', 'gmv', 'gln', 'ginstall']);

function base(word: string): string {
  const trimmed = word.length > 1 ? word.replace(/\/+$/, '') : word;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function operands(args: readonly string[], valued: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i + 1)];
    if (arg.startsWith('-') && arg.length > 1) {
      if (valued.includes(arg)) i++;
    } else out.push(arg);
  }
  return out;
}

function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (names.includes(arg)) return args[i + 1];
    const long = names.find((n) => n.startsWith('--') && arg.startsWith(`${n}=`));
    if (long) return arg.slice(long.length + 1);
  }
  return undefined;
}

/** File names a segment writes or makes executable (may be globs, from `chmod +x *.sh`). */
function writtenNames(segment: ShellSegment): string[] {
  const names: string[] = [];
  for (const r of segment.redirects) if (WRITING_REDIRECTS.has(r.op) && !/^(?:\d+|-)$/.test(r.target)) names.push(base(r.target));
  const [first, ...args] = segment.argv;
  const name = first === undefined ? '' : base(first);
  if (COPIERS.has(name)) {
    const targetDir = optionValue(args, ['-t', '--target-directory']);
    const ops = operands(args, ['-t', '-S', '-m', '-o', '-g', '--suffix', '--mode', '--owner', '--group', '--target-directory', '-e']);
    // A directory destination (`cp /bin/rm bin/`) matches the directory in the program's path (`bin/rm`).
    const destination = targetDir ?? (ops.length >= 2 ? ops[ops.length - 1] : undefined);
    if (destination !== undefined) names.push(base(destination));
  } else if (name === 'tee' || name === 'chmod' || name === 'gchmod') {
    names.push(...operands(args, ['--reference']).slice(name === 'tee' || args.some((a) => a.startsWith('--reference')) ? 0 : 1).map(base));
  } else if (name === 'dd') {
    for (const arg of args) if (arg.startsWith('of=')) names.push(base(arg.slice(3)));
  } else if (name === 'curl' || name === 'wget') {
    const output = optionValue(args, name === 'curl' ? ['-o', '--output'] : ['-O', '--output-document']);
    if (output !== undefined) names.push(base(output));
    // `curl -O URL` / `wget URL` save under the URL's file name.
    if (name === 'wget' || args.some((a) => /^-[A-Za-z]*O$|^--remote-name/.test(a))) names.push(...args.filter((a) => /^[a-z]+:\/\//i.test(a)).map((u) => base(u.split(/[?#]/)[0]!)));
  } else if (name === 'sed' && args.some((a) => /^-[A-Za-z]*i|^--in-place/.test(a))) {
    const ops = operands(args, ['-e', '-f', '--expression', '--file']);
    names.push(...(args.some((a) => /^-[A-Za-z]*[ef]$|^--(?:expression|file)/.test(a)) ? ops : ops.slice(1)).map(base));
  }
  return names.filter((n) => n !== '' && n !== '.' && n !== '..');
}

/** What a segment runs as a file: its program (by path: also its directories), a shell's script, make's makefile; `interpreter` for an interpreter's script. */
function executedNames(segment: ShellSegment): { names: string[]; interpreter: boolean } {
  const [first, ...args] = segment.argv;
  if (first === undefined) return { names: [], interpreter: false };
  const names = first.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  const name = base(first);
  const script = operands(args, ['-o', '-O', '--rcfile', '--init-file', '-m', '-W', '-X', '-I', '-r', '--require'])[0];
  if (isShell(name) || name === 'source' || name === '.') {
    if (script !== undefined && !args.some((a) => /^-[A-Za-z]*c/.test(a))) names.push(base(script));
  } else if (name === 'make' || name === 'gmake') {
    const file = optionValue(args, ['-f', '--file', '--makefile']);
    if (file !== undefined) names.push(base(file));
  } else if (interpreterFamily(name) !== undefined && script !== undefined) {
    return { names: [...names, base(script)], interpreter: true };
  }
  return { names, interpreter: false };
}

/** Both sides come from the command (the model's): matched in linear time, never by V8's backtracking. */
function globMatch(pattern: string, name: string): boolean {
  if (!/[*?[]/.test(pattern)) return pattern === name;
  const regex = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  try {
    return new LinearRegExp(`^${regex}$`).test(name);
  } catch {
    return true; // an odd bracket: assume it matches
  }
}

/** Segments running a file another segment of the command writes (see the file comment). */
export function renamedPrograms(segments: readonly ShellSegment[]): (RenamedProgram & { unknown: boolean })[] {
  const written = segments.map(writtenNames);
  if (written.every((names) => names.length === 0)) return [];
  const found: (RenamedProgram & { unknown: boolean })[] = [];
  segments.forEach((segment, i) => {
    const { names, interpreter } = executedNames(segment);
    const last = interpreter ? names[names.length - 1] : undefined;
    for (const [j, writes] of written.entries()) {
      if (j === i) continue;
      const hit = names.find((n) => writes.some((w) => globMatch(w, n)));
      if (hit === undefined) continue;
      const scriptOnly = interpreter && hit === last && !names.slice(0, -1).includes(hit);
      found.push({ segment, unknown: !scriptOnly, reason: `${segment.argv[0]} runs ${JSON.stringify(hit)}, which the same command line writes, copies or makes executable` });
      return;
    }
  });
  return found;
}
