/**
 * Commands that run another command: wrappers whose operands are a command (`sudo`, `env`,
 * `nice`, `timeout`, `xargs`, `chronic`, `firejail`, `find -exec`, …) and commands whose operand
 * is shell source (`sh -c`, `eval`, `su -c`, `watch`, `env -S`, `parallel`). The parser keeps
 * the wrapper's own segment and adds the wrapped command as a segment of its own, so every layer
 * sees the real command.
 *
 * Fail closed for shells: a shell (or `source`/`.`) runs code the parser sees only when it comes
 * from a literal `-c` string, a literal script file in the project (`bash ./build.sh`, judged as
 * that command), or a literal heredoc/here-string/`echo …|`. A shell reading stdin is always
 * opaque (readsStdin); one whose code is computed (`sh -c "$x"`, `bash "$f"`, `source <(…)`,
 * `bash /dev/fd/3`) runs something unknown (`unknown`: any deny rule denies it). `sh -n` runs
 * nothing.
 */
import { isDescriptorPath, isStdinPath } from './descriptor-paths.js';
import { parallelInvocation } from './parallel.js';
import type { Unwrapped, Word } from './shell-shapes.js';
import { toolRunner } from './tool-runners.js';

export type { Unwrapped, Word } from './shell-shapes.js';

export const SHELLS = new Set([
  'sh', 'bash', 'rbash', 'zsh', 'dash', 'ksh', 'ksh93', 'mksh', 'oksh', 'loksh', 'pdksh', 'ash', 'hush', 'yash', 'posh', 'osh', 'ysh', 'fish', 'csh', 'tcsh',
]);

/** `bash`, `bash5`, `bash-5.2`, `zsh-5.9` … (installed versions keep the shell's behaviour). */
export function isShell(name: string): boolean {
  return SHELLS.has(name) || SHELLS.has(name.replace(/-?[0-9][0-9.]*$/, ''));
}

interface WrapperSpec {
  /** Short options that take a value (`-u root` or `-uroot`). */
  shortArg?: string;
  /** Long options that take a value when not written as `--opt=value`. */
  longArg?: readonly string[];
  /** Operands between the options and the command (timeout's duration, chroot's root). */
  positional?: number;
  /** Short/long options after which there is no command (sudo -e edits files). */
  noCommand?: { short?: string; long?: readonly string[] };
  /** Options whose value is shell source (env -S, flock -c). */
  scriptShort?: string;
  scriptLong?: readonly string[];
  /** `env` style: NAME=value operands before the command. */
  assignments?: boolean;
  /** False for commands whose operands are not a command (su's user name, script's log file). */
  operandsAreCommand?: boolean;
  /** The script option may also follow the operands (su user -c 'cmd', flock file -c 'cmd'). */
  scriptAnywhere?: boolean;
  /**
   * Without a command it starts a shell: `su`/`runuser user [args…]` (the args go to the shell),
   * `script [file]` (BSD `script file cmd…` runs cmd), `sudo -s`/`sudo -i` (these short flags).
   */
  startsShell?: 'su' | 'script' | { flags: string };
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    shortArg: 'ughprtCDTUR',
    longArg: ['--user', '--group', '--host', '--prompt', '--role', '--type', '--close-from', '--chdir', '--other-user', '--command-timeout', '--chroot'],
    noCommand: { short: 'elvkKV', long: ['--edit', '--list', '--validate', '--version', '--help'] },
    startsShell: { flags: 'si' },
  },
  doas: { shortArg: 'uC', startsShell: { flags: 's' } },
  run0: { shortArg: 'ugD', longArg: ['--user', '--group', '--chdir', '--unit', '--property', '--description', '--slice', '--setenv', '--nice', '--machine'] },
  pkexec: { longArg: ['--user'] },
  env: { shortArg: 'uCP', longArg: ['--unset', '--chdir'], scriptShort: 'S', scriptLong: ['--split-string'], assignments: true },
  nice: { shortArg: 'n', longArg: ['--adjustment'] },
  nohup: {},
  setsid: {},
  coproc: {},
  builtin: {},
  command: { noCommand: { short: 'vV' } },
  exec: { shortArg: 'a' },
  time: { shortArg: 'fo', longArg: ['--format', '--output'] },
  timeout: { shortArg: 'sk', longArg: ['--signal', '--kill-after'], positional: 1 },
  stdbuf: { shortArg: 'ioe', longArg: ['--input', '--output', '--error'] },
  ionice: { shortArg: 'cnpPu', longArg: ['--class', '--classdata', '--pid', '--pgid', '--uid'] },
  chrt: { shortArg: 'TPD', positional: 1, noCommand: { short: 'p' } },
  taskset: { positional: 1, noCommand: { short: 'p' } },
  unbuffer: {},
  // moreutils / sandboxes / namespaces / preloaders: all run their operands as a command.
  chronic: {},
  firejail: {},
  unshare: { shortArg: 'SGwR', longArg: ['--setuid', '--setgid', '--wd', '--root', '--map-user', '--map-group', '--propagation', '--setgroups'] },
  nsenter: { shortArg: 'tSGwr', longArg: ['--target', '--setuid', '--setgid', '--wd', '--root'] },
  setpriv: { longArg: ['--reuid', '--regid', '--ruid', '--rgid', '--euid', '--egid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile'] },
  'systemd-run': { shortArg: 'puEM', longArg: ['--unit', '--property', '--description', '--slice', '--setenv', '--uid', '--gid', '--nice', '--working-directory', '--machine', '--on-calendar'] },
  fakeroot: { shortArg: 'lis' },
  faketime: { positional: 1 },
  eatmydata: {},
  nocache: {},
  torsocks: {},
  proxychains: { shortArg: 'f' },
  proxychains4: { shortArg: 'f' },
  'xvfb-run': { shortArg: 'nsfepw', longArg: ['--server-num', '--server-args', '--auth-file', '--error-file', '--xauth-protocol', '--wait'] },
  'dbus-run-session': {},
  'ssh-agent': { shortArg: 'aEPt' },
  caffeinate: { shortArg: 'tw' },
  cgexec: { shortArg: 'g' },
  numactl: { shortArg: 'NmCpiP', longArg: ['--cpunodebind', '--membind', '--physcpubind', '--preferred', '--interleave'] },
  catchsegv: {},
  valgrind: {},
  xargs: {
    shortArg: 'aEdILnPs',
    longArg: ['--arg-file', '--eof', '--delimiter', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--replace', '--process-slot-var'],
  },
  chroot: { longArg: ['--userspec', '--groups'], positional: 1 },
  busybox: {},
  toybox: {},
  strace: { shortArg: 'abeEIoOpPsSuX' },
  ltrace: { shortArg: 'aeEnopsuxX' },
  flock: { shortArg: 'wEn', positional: 1, scriptShort: 'c', scriptLong: ['--command'], scriptAnywhere: true },
  script: { shortArg: 'EIOBTtF', scriptShort: 'c', scriptLong: ['--command'], operandsAreCommand: false, scriptAnywhere: true, startsShell: 'script' },
  su: { shortArg: 'gGsw', longArg: ['--group', '--supp-group', '--shell', '--whitelist-environment'], scriptShort: 'c', scriptLong: ['--command', '--session-command'], operandsAreCommand: false, scriptAnywhere: true, startsShell: 'su' },
  runuser: { shortArg: 'ugGsw', longArg: ['--user', '--group', '--supp-group', '--shell'], scriptShort: 'c', scriptLong: ['--command', '--session-command'], scriptAnywhere: true, startsShell: 'su' },
  watch: { shortArg: 'nq', longArg: ['--interval', '--equexit'] },
};

export function commandName(word: Word | undefined): string | undefined {
  if (!word || !word.literal || word.value === '') return undefined;
  const slash = word.value.lastIndexOf('/');
  return slash === -1 ? word.value : word.value.slice(slash + 1);
}

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

export function unwrapCommand(words: Word[]): Unwrapped {
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
    const script = words.slice(1).map((w) => w.value).join(' ');
    return { ...NONE, scripts: script.trim() === '' ? [] : [script] };
  }
  if (name === 'find') {
    // -exec commands, and `-delete` as an `rm -r` of the starting points.
    const exec = findExec(words);
    const deletes = toolRunner(name, words);
    return deletes?.equivalent !== undefined ? { ...exec, equivalent: deletes.equivalent } : exec;
  }
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
  const tool = toolRunner(name, words);
  if (tool) return tool;
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined; // never Object.prototype's names
  if (!spec) return NONE;
  return wrapped(name, words, spec);
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

function wrapped(name: string, words: Word[], spec: WrapperSpec): Unwrapped {
  const scripts: string[] = [];
  let noCommand = false;
  let shellFlag = false;
  let userOption = false;
  let i = 1;
  for (; i < words.length; i++) {
    const arg = words[i]!.value;
    if (arg === '--') {
      i++;
      break;
    }
    if (name === 'env' && arg === '-') continue; // `env -` = `env -i`
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const key = eq === -1 ? arg : arg.slice(0, eq);
      const takesValue = spec.longArg?.includes(key) || spec.scriptLong?.includes(key);
      let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
      if (takesValue && value === undefined) value = words[++i]?.value;
      if (spec.scriptLong?.includes(key) && value !== undefined) scripts.push(value);
      if (spec.noCommand?.long?.includes(key)) noCommand = true;
      if (key === '--shell' || key === '--login') shellFlag = true;
      if (key === '--user') userOption = true;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const flags = arg.slice(1);
      for (let j = 0; j < flags.length; j++) {
        const flag = flags[j]!;
        if (spec.noCommand?.short?.includes(flag)) noCommand = true;
        if (typeof spec.startsShell === 'object' && spec.startsShell.flags.includes(flag)) shellFlag = true;
        if (flag === 'u') userOption = true;
        const isScript = spec.scriptShort?.includes(flag) ?? false;
        if (isScript || spec.shortArg?.includes(flag)) {
          const attached = flags.slice(j + 1);
          const value = attached !== '' ? attached : words[++i]?.value;
          if (isScript && value !== undefined) scripts.push(value);
          break;
        }
      }
      continue;
    }
    break;
  }
  const assignments: string[] = [];
  if (spec.assignments) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.value)) assignments.push(words[i++]!.value);
  }
  i += spec.positional ?? 0;
  const rest = words.slice(i);
  if (spec.scriptAnywhere) {
    // su, runuser, flock and script accept their command option after the operands too.
    // flock takes `-c` only right after its lock file; what follows the file otherwise is a
    // command whose own `-c` (`flock f python3 -c …`) is not flock's.
    // `runuser -u user cmd…` runs cmd (its `-c` is cmd's own).
    const end = name === 'flock' ? Math.min(words.length, i + 1) : name === 'runuser' && userOption ? i : words.length;
    for (let j = i; j < end; j++) {
      const arg = words[j]!.value;
      const long = spec.scriptLong?.find((opt) => arg === opt || arg.startsWith(`${opt}=`));
      const isShort = spec.scriptShort !== undefined && /^-[A-Za-z]+$/.test(arg) && arg.slice(1).includes(spec.scriptShort);
      if (!long && !isShort) continue;
      const value = long && arg !== long ? arg.slice(long.length + 1) : words[++j]?.value;
      if (value !== undefined) scripts.push(value);
    }
    // With a command option the operands are a user or a lock file, not a command.
    if (scripts.length > 0) return { ...NONE, scripts };
  }
  const shell = startedShell(name, spec, rest, { shellFlag, userOption, noCommand });
  if (shell) return { ...shell, scripts: [...scripts, ...shell.scripts] };
  if (name === 'watch' && rest.length > 0) {
    // watch hands its operands to `sh -c` joined by spaces.
    return { ...NONE, scripts: [...scripts, rest.map((w) => w.value).join(' ')] };
  }
  if (noCommand || spec.operandsAreCommand === false || rest.length === 0) return { ...NONE, scripts };
  return { commands: [{ words: rest, assignments }], scripts, readsStdin: false };
}

/**
 * A wrapper that starts a shell instead of a command: it reads stdin (`su`, `sudo -s`, `script
 * log`), or for `su user args…` runs the args with the shell — something unknown. BSD
 * `script file cmd…` and `runuser -u user cmd…` run a command: undefined (the ordinary path).
 */
function startedShell(name: string, spec: WrapperSpec, rest: readonly Word[], seen: { shellFlag: boolean; userOption: boolean; noCommand: boolean }): Unwrapped | undefined {
  if (seen.noCommand || spec.startsShell === undefined) return undefined;
  if (spec.startsShell === 'script') {
    if (rest.length >= 2) return { commands: [{ words: rest.slice(1), assignments: [] }], scripts: [], readsStdin: false };
    return { ...NONE, readsStdin: true };
  }
  if (spec.startsShell === 'su') {
    if (name === 'runuser' && seen.userOption) return undefined;
    const operands = rest.filter((w) => w.value !== '-');
    return operands.length <= 1 ? { ...NONE, readsStdin: true } : { ...NONE, unknown: `${name} passing arguments to a login shell` };
  }
  return seen.shellFlag && rest.length === 0 ? { ...NONE, readsStdin: true } : undefined;
}

/** `find … -exec cmd {} ;` / `-execdir` / `-ok` / `-okdir`, terminated by `;` or `+`. */
function findExec(words: Word[]): Unwrapped {
  const commands: Unwrapped['commands'] = [];
  for (let i = 1; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i]!.value)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end]!.value !== ';' && words[end]!.value !== '+') end++;
    if (end > start) commands.push({ words: words.slice(start, end), assignments: [] });
    i = end;
  }
  return { ...NONE, commands };
}
