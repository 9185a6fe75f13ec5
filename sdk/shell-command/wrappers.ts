/**
 * Commands that run another command: wrappers whose operands are a command (`sudo`, `env`,
 * `nice`, `timeout`, `xargs`, `find -exec`, …) and commands whose operand is shell source
 * (`sh -c`, `eval`, `su -c`, `watch`, `env -S`). The parser keeps the wrapper's own segment and
 * adds the wrapped command as a segment of its own, so every layer sees the real command.
 */

/** One word of a simple command, unquoted, with its UTF-16 span in the source it came from. */
export interface Word {
  value: string;
  literal: boolean;
  start: number;
  end: number;
}

export interface Unwrapped {
  /** Commands this one runs, in order (usually one; `find` may run several). */
  commands: { words: Word[]; assignments: string[] }[];
  /** Shell source this command runs (`sh -c 'rm -rf /'` → `rm -rf /`). */
  scripts: string[];
  /** A shell started without `-c` or a script file: it runs what arrives on stdin. */
  readsStdin: boolean;
}

export const SHELLS = new Set(['sh', 'bash', 'rbash', 'zsh', 'dash', 'ksh', 'mksh', 'pdksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh']);

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
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    shortArg: 'ughprtCDTUR',
    longArg: ['--user', '--group', '--host', '--prompt', '--role', '--type', '--close-from', '--chdir', '--other-user', '--command-timeout', '--chroot'],
    noCommand: { short: 'elvkKV', long: ['--edit', '--list', '--validate', '--version', '--help'] },
  },
  doas: { shortArg: 'uC' },
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
  script: { shortArg: 'EIOBTt', scriptShort: 'c', scriptLong: ['--command'], operandsAreCommand: false, scriptAnywhere: true },
  su: { shortArg: 'gGsw', longArg: ['--group', '--supp-group', '--shell', '--whitelist-environment'], scriptShort: 'c', scriptLong: ['--command', '--session-command'], operandsAreCommand: false, scriptAnywhere: true },
  runuser: { shortArg: 'ugGsw', longArg: ['--user', '--group', '--supp-group', '--shell'], scriptShort: 'c', scriptLong: ['--command', '--session-command'], scriptAnywhere: true },
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
  if (SHELLS.has(name)) return shellInvocation(words);
  if (name === 'eval') {
    const script = words.slice(1).map((w) => w.value).join(' ');
    return { ...NONE, scripts: script.trim() === '' ? [] : [script] };
  }
  if (name === 'find') return findExec(words);
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
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined; // never Object.prototype's names
  if (!spec) return NONE;
  return wrapped(name, words, spec);
}

/** `sh [options] -c 'source' [name args…]`; without -c and script file it reads stdin. */
function shellInvocation(words: Word[]): Unwrapped {
  let hasC = false;
  let readsStdinFlag = false;
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
      continue;
    }
    if ((arg.startsWith('-') || arg.startsWith('+')) && arg.length > 1) {
      const flags = arg.slice(1);
      if (arg.startsWith('-') && flags.includes('c')) hasC = true;
      if (arg.startsWith('-') && flags.includes('s')) readsStdinFlag = true;
      if (/[oO]/.test(flags)) i++; // -o option / -O shopt take a name
      continue;
    }
    break;
  }
  if (hasC) {
    const source = words[i];
    return source ? { ...NONE, scripts: [source.value] } : NONE;
  }
  return { ...NONE, readsStdin: readsStdinFlag || i >= words.length };
}

function wrapped(name: string, words: Word[], spec: WrapperSpec): Unwrapped {
  const scripts: string[] = [];
  let noCommand = false;
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
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const flags = arg.slice(1);
      for (let j = 0; j < flags.length; j++) {
        const flag = flags[j]!;
        if (spec.noCommand?.short?.includes(flag)) noCommand = true;
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
    for (let j = i; j < words.length; j++) {
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
  if (name === 'watch' && rest.length > 0) {
    // watch hands its operands to `sh -c` joined by spaces.
    return { ...NONE, scripts: [...scripts, rest.map((w) => w.value).join(' ')] };
  }
  if (noCommand || spec.operandsAreCommand === false || rest.length === 0) return { ...NONE, scripts };
  return { commands: [{ words: rest, assignments }], scripts, readsStdin: false };
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
