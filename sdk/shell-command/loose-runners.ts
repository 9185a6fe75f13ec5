/**
 * Programs that run a command given in their operands after a subcommand or among many options
 * of their own, read loosely: version managers' `exec` (`pyenv exec CMD`), package runners (`npm
 * exec`, `npx`, `pnpm exec|dlx`, `yarn exec|dlx`, `bunx`), project environments (`uv run`,
 * `poetry run`, `pipenv run`, `conda run`, `hatch run`, `pdm run`, `pixi run`, `direnv exec DIR`,
 * `dotenv`), containers (`docker|podman run|exec|create`, `kubectl exec … -- CMD`,
 * `systemd-nspawn`: the command runs in the container, judged all the same), `perf
 * stat|record|trace` (and `--pre`/`--post` shell commands), dpkg's `start-stop-daemon` and `rg
 * --pre PROG` / `--hostname-bin PROG` (rg runs PROG on every file it searches).
 *
 * Loose: their option tables are long and change between releases, so `--` ends the options,
 * every other `-…` word is an option, and only the listed ones take the next word; the first
 * other word (after the image, pod, directory… each takes) is the command. The command found is
 * a segment of its own (deny rules and the blacklist see it), and the segment is marked
 * `mayRunOperands` (plain-programs.ts): a later word the loose reading placed wrongly still asks
 * when a deny or ask rule would match a command starting there.
 */
import { readOptions, type OptionSyntax } from './getopt.js';
import type { Unwrapped, Word } from './shell-shapes.js';

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

/** Stands for the file rg hands a `--pre` program (an expansion: layers judging operands see it as computed). */
export const RG_FILE = '$(rg file)';

interface LooseSpec {
  /** Option words that take the next word as their value (`--python`, `-n`). */
  valued: readonly string[];
  /** Operands before the command: docker's image, kubectl's pod, direnv's directory. */
  operands?: number;
  /** The command is only after `--` (kubectl exec); without one, the operands after the pod. */
  dashDash?: boolean;
  /** Options whose value is a shell command the program runs (perf stat --pre). */
  scriptValues?: readonly string[];
  /** Options whose value is the program it runs, the operands its arguments (docker --entrypoint). */
  programValue?: readonly string[];
}

const PACKAGE_EXEC: LooseSpec = { valued: ['--package', '-p', '--workspace', '-w', '--registry', '--cache', '--userconfig', '--prefix', '--loglevel', '--include', '--omit', '--filter', '-F', '--dir', '-C', '--node-options'] };
const ENV_EXEC: LooseSpec = { valued: [] };
const PROJECT_RUN: LooseSpec = {
  valued: [
    '--with', '--with-editable', '--with-requirements', '--python', '-p', '--package', '--extra', '--group', '--env-file', '--index', '--default-index', '--index-url',
    '--extra-index-url', '--directory', '--project', '--config-file', '--cache-dir', '--color', '-n', '--name', '--prefix', '--cwd', '-C', '-P', '-e', '--environment',
    '--manifest-path',
  ],
};
const CONTAINER_RUN: LooseSpec = {
  valued: [
    '-a', '--attach', '--add-host', '--annotation', '--blkio-weight', '--cap-add', '--cap-drop', '--cgroup-parent', '--cgroupns', '--cidfile', '-c', '--cpu-shares', '--cpus',
    '--cpuset-cpus', '--cpuset-mems', '--device', '--dns', '--dns-option', '--dns-search', '--domainname', '-e', '--env', '--env-file', '--expose', '--gpus', '--group-add',
    '--health-interval', '--health-retries', '--health-timeout', '-h', '--hostname', '--ip', '--ip6', '--ipc', '-l', '--label', '--label-file', '--link', '--log-driver',
    '--log-opt', '-m', '--memory', '--memory-swap', '--mount', '--name', '--network', '--net', '--network-alias', '--pid', '--pids-limit', '--platform', '-p', '--publish',
    '--pull', '--restart', '--runtime', '--security-opt', '--shm-size', '--stop-signal', '--stop-timeout', '--sysctl', '--tmpfs', '--ulimit', '-u', '--user', '--userns',
    '--uts', '-v', '--volume', '--volumes-from', '-w', '--workdir', '--detach-keys', '--pod',
  ],
  operands: 1,
  scriptValues: ['--health-cmd'],
  programValue: ['--entrypoint'],
};
const KUBECTL_EXEC: LooseSpec = { valued: ['-c', '--container', '-n', '--namespace', '-f', '--filename', '--context', '--kubeconfig', '--cluster', '--user', '--pod-running-timeout', '-s', '--server'], operands: 1, dashDash: true };
const NSPAWN: LooseSpec = {
  valued: ['-D', '--directory', '-i', '--image', '-M', '--machine', '-u', '--user', '--bind', '--bind-ro', '--tmpfs', '--overlay', '--overlay-ro', '-E', '--setenv', '--chdir', '--network-interface', '--network-bridge', '--network-zone', '-p', '--port', '-S', '--slice', '--property', '--capability', '--drop-capability', '--template', '--link-journal'],
};
const PERF: LooseSpec = {
  valued: ['-e', '--event', '-o', '--output', '-r', '--repeat', '-x', '--field-separator', '-G', '--cgroup', '-p', '--pid', '-t', '--tid', '-C', '--cpu', '-I', '--interval-print', '-D', '--delay', '-M', '--metrics', '--log-fd', '-c', '--count', '-F', '--freq', '-m', '--mmap-pages', '-u', '--uid', '--call-graph', '--filter', '-j', '--branch-filter', '--duration', '--max-events', '--expr', '--clang-path', '--cpu-list'],
  scriptValues: ['--pre', '--post'],
};
const DOTENV: LooseSpec = { valued: ['-e', '-f', '--file', '-v', '-p', '-c'] };

/** perf subcommands that run a command (`perf sched record CMD` and the like through `record`). */
const PERF_RUNNERS = new Set(['stat', 'record', 'trace', 'ftrace']);
const PERF_RECORDERS = new Set(['sched', 'lock', 'mem', 'c2c', 'kmem', 'timechart', 'kwork', 'kvm']);

/** What this program runs, read loosely; undefined when it is not one of these runners (or runs nothing). */
export function looseRunner(name: string, words: readonly Word[]): Unwrapped | undefined {
  const sub = words[1]?.value;
  switch (name) {
    case 'pyenv': case 'rbenv': case 'nodenv': case 'goenv': case 'jenv': case 'plenv': case 'phpenv': case 'luaenv': case 'scalaenv': case 'tfenv':
      return sub === 'exec' ? command(words, 2, ENV_EXEC) : undefined;
    case 'npx': case 'bunx': case 'pnpx':
      return command(words, 1, PACKAGE_EXEC);
    case 'npm': case 'pnpm': case 'yarn': case 'bun': {
      // Global options may come first (`pnpm --filter a exec cmd`, `npm -w pkg exec cmd`).
      const at = subcommandAt(words, PACKAGE_EXEC);
      const verb = at === undefined ? undefined : words[at]!.value;
      const runs = name === 'npm' ? verb === 'exec' || verb === 'x' : verb === 'exec' || verb === 'dlx' || (name === 'bun' && verb === 'x');
      return runs ? command(words, at! + 1, PACKAGE_EXEC) : undefined;
    }
    case 'uv': case 'poetry': case 'pipenv': case 'conda': case 'mamba': case 'micromamba': case 'hatch': case 'pdm': case 'pixi': case 'rye': {
      const at = subcommandAt(words, PROJECT_RUN);
      return at !== undefined && words[at]!.value === 'run' ? command(words, at + 1, PROJECT_RUN) : undefined;
    }
    case 'direnv':
      return sub === 'exec' ? command(words, 2, { ...ENV_EXEC, operands: 1 }) : undefined;
    case 'dotenv': {
      // python-dotenv: `dotenv [-f FILE] run [--override] CMD`; dotenv-cli: `dotenv [-e FILE] [--] CMD`.
      const at = subcommandAt(words, DOTENV);
      if (at !== undefined && words[at]!.value === 'run') return command(words, at + 1, DOTENV);
      if (at !== undefined && ['list', 'get', 'set', 'unset'].includes(words[at]!.value)) return undefined;
      return command(words, 1, DOTENV);
    }
    case 'docker': case 'podman': case 'nerdctl': {
      let at = subcommandAt(words, { valued: ['--config', '-c', '--context', '-H', '--host', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey', '--url', '--connection', '--root', '--runroot'] });
      if (at !== undefined && words[at]!.value === 'container') at++;
      const verb = at === undefined ? undefined : words[at]?.value;
      return verb === 'run' || verb === 'exec' || verb === 'create' ? command(words, at! + 1, CONTAINER_RUN) : undefined;
    }
    case 'kubectl': case 'oc': {
      const at = subcommandAt(words, KUBECTL_EXEC);
      return at !== undefined && words[at]!.value === 'exec' ? command(words, at + 1, KUBECTL_EXEC) : undefined;
    }
    case 'systemd-nspawn':
      return command(words, 1, NSPAWN);
    case 'perf': {
      const at = subcommandAt(words, { valued: ['--debugfs-dir', '--buildid-dir', '--exec-path'] });
      if (at === undefined) return undefined;
      const verb = words[at]!.value;
      if (PERF_RUNNERS.has(verb)) return command(words, at + 1, PERF);
      if (PERF_RECORDERS.has(verb) && words[at + 1]?.value === 'record') return command(words, at + 2, PERF);
      return undefined;
    }
    case 'start-stop-daemon':
      return startStopDaemon(words);
    case 'rg':
      return ripgrep(words);
    default:
      return undefined;
  }
}

/** Index of the first word after `from` that is not an option (or a listed option's value). */
function subcommandAt(words: readonly Word[], spec: LooseSpec, from = 1): number | undefined {
  for (let i = from; i < words.length; i++) {
    const value = words[i]!.value;
    if (value === '--') return undefined;
    if (!value.startsWith('-') || value === '-') return i;
    if (spec.valued.includes(value)) i++;
  }
  return undefined;
}

/** The command after the options (and the operands the program takes first) from `from`. */
function command(words: readonly Word[], from: number, spec: LooseSpec): Unwrapped | undefined {
  const scripts: string[] = [];
  let program: Word | undefined;
  let unknown: string | undefined;
  let i = from;
  let operands = spec.operands ?? 0;
  let dashDash = false;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (value === '--') {
      dashDash = true;
      i++;
      break;
    }
    if (value.startsWith('-') && value !== '-') {
      const eq = value.indexOf('=');
      const option = eq === -1 ? value : value.slice(0, eq);
      const valueWord = eq !== -1 ? { ...word, value: value.slice(eq + 1) } : (spec.scriptValues?.includes(option) || spec.programValue?.includes(option) || spec.valued.includes(option)) ? words[++i] : undefined;
      if (valueWord && spec.scriptValues?.includes(option)) {
        if (valueWord.literal) scripts.push(valueWord.value);
        else unknown = `${option} with a computed command`;
      }
      if (valueWord && spec.programValue?.includes(option)) program = valueWord;
      continue;
    }
    if (operands > 0) {
      operands--;
      // After the image (or directory) every word is the command's: `docker run img ls -la`.
      if (operands === 0 && !spec.dashDash) {
        i++;
        break;
      }
      continue;
    }
    if (!spec.dashDash) break;
  }
  const rest = spec.dashDash && !dashDash ? [] : words.slice(i);
  const run = program ? [program, ...rest] : rest;
  if (run.length === 0 && scripts.length === 0 && unknown === undefined) return undefined;
  return { commands: run.length > 0 ? [{ words: run, assignments: [] }] : [], scripts, readsStdin: false, mayRunOperands: true, ...(unknown ? { unknown } : {}) };
}

/** dpkg's getopt_long table (it permutes): only `--start` runs a program, `--startas` else `--exec`, with the operands. */
const START_STOP: OptionSyntax = {
  short: 'HKSVTa:n:op:qr:s:tu:vx:c:N:P:I:k:bCd:g:mR:O:',
  long: 'help stop start status version startas: name: oknodo pidfile: quiet signal: test user: group: chroot: verbose exec: chuid: nicelevel: procsched: iosched: umask: background notify-await notify-timeout: no-close output: make-pidfile remove-pidfile retry: chdir: pid: ppid:',
  permute: true,
};

function startStopDaemon(words: readonly Word[]): Unwrapped | undefined {
  const read = readOptions(words, 1, START_STOP);
  if (!read.options.some((o) => o.name === 'S' || o.name === 'start')) return undefined;
  const program = [...read.options].reverse().find((o) => o.name === 'a' || o.name === 'startas')?.value ?? [...read.options].reverse().find((o) => o.name === 'x' || o.name === 'exec')?.value;
  const unknown = read.problems.length > 0 ? `start-stop-daemon ${read.problems[0]!.text}` : words.slice(1).find((w) => w.split) ? 'start-stop-daemon with an unquoted expansion or glob among its words' : undefined;
  if (!program) return unknown ? { ...NONE, unknown } : undefined;
  return { commands: [{ words: [program, ...read.operands.map((i) => words[i]!)], assignments: [] }], scripts: [], readsStdin: false, ...(unknown ? { unknown } : {}) };
}

/** `rg --pre PROG` / `--pre=PROG` (run on every file searched, the file as its argument) and `--hostname-bin PROG`. */
function ripgrep(words: readonly Word[]): Unwrapped | undefined {
  const commands: Unwrapped['commands'] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.value === '--') break;
    const match = /^--(pre|hostname-bin)(?:=(.*))?$/s.exec(word.value);
    if (!match) continue;
    const value = match[2] !== undefined ? { ...word, value: match[2] } : words[++i];
    if (!value || value.value === '') continue;
    if (!value.literal || value.split) return { ...NONE, unknown: `rg --${match[1]!} with a computed program` };
    const arg: Word = { ...value, value: RG_FILE, literal: false };
    commands.push({ words: match[1] === 'pre' ? [value, arg] : [value], assignments: [] });
  }
  return commands.length > 0 ? { commands, scripts: [], readsStdin: false } : undefined;
}
