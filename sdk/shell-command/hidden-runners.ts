/**
 * Commands that run other commands given to them in a form the shell parser cannot follow
 * (fail-closed analysis): a `git -c` setting that names a program (`alias.x=!…`, `core.pager`,
 * `core.sshCommand`, `core.fsmonitor`, `diff.external`, `*.textconv`, `filter.*`, …) or the same
 * through `GIT_*` environment variables, a `make` whose makefile comes from stdin or is not a
 * literal path (`make -f /dev/stdin`, `make -f "$m"`, `make --eval=…`), and programs started with
 * a library preloaded or a pager/editor variable naming a command. For such a segment the parser
 * records why (ShellSegment.unknownCommands): it is never allowed by a rule, and any deny rule
 * for the tool denies it, since what it runs cannot be matched.
 * Plain `git status` / `git -c core.pager=cat log` / `make test` / `make -f build/Makefile` stay
 * ordinary commands: git and make then run only the project's own configuration.
 */
import { isDescriptorPath } from './descriptor-paths.js';
import type { Word } from './shell-shapes.js';
import { commandName } from './wrappers.js';

/** Values of a pager/editor setting that run nothing but the named harmless program. */
const HARMLESS_PROGRAM = /^(?:|cat|less|more|most|bat|head|tail|true|false|:|ed|vi|vim|nvim|nano|micro|hx|emacs|emacsclient|code|subl|delta|diff-so-fancy)(?:\s+-{1,2}[A-Za-z][A-Za-z-]*)*$/;

/**
 * git configuration keys (lower-cased; `*` is any subsection) whose value is a program git runs,
 * a file of further configuration, or a hook directory. `harmless` lists values that run nothing.
 */
const GIT_RUNNERS: readonly { key: RegExp; harmless?: RegExp }[] = [
  { key: /^alias\./, harmless: /^\s*[^!\s]/ }, // only `!…` aliases run a shell command
  { key: /^(?:core\.pager|pager\..*|core\.editor|sequence\.editor)$/, harmless: HARMLESS_PROGRAM },
  { key: /^core\.fsmonitor$/, harmless: /^(?:true|false|yes|no|on|off|0|1)$/i },
  { key: /^core\.hookspath$/, harmless: /^\/dev\/null$/ },
  {
    key: /^(?:core\.(?:sshcommand|askpass|gitproxy|alternaterefscommand)|diff\.external|diff\..*\.(?:textconv|command)|(?:diff|merge)tool\..*\.cmd|merge\..*\.driver|filter\..*\.(?:clean|smudge|process)|gpg(?:\..*)?\.program|credential(?:\..*)?\.helper|uploadpack\.packobjectshook|remote\..*\.(?:uploadpack|receivepack|vcs)|protocol\..*\.allow|include\.path|includeif\..*\.path|init\.templatedir|submodule\..*\.update|trailer\..*\.(?:command|cmd)|(?:man|browser)\..*\.(?:cmd|path)|web\.browser|sendemail\..*|ssh\.variant)$/,
  },
];

/** Environment variables naming a program (or configuration) git runs. */
const GIT_ENV = /^(?:GIT_(?:SSH|SSH_COMMAND|PAGER|EDITOR|SEQUENCE_EDITOR|EXTERNAL_DIFF|ASKPASS|PROXY_COMMAND|EXEC_PATH|CONFIG|CONFIG_GLOBAL|CONFIG_SYSTEM|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|TEMPLATE_DIR)|SSH_ASKPASS)$/;
/**
 * Environment variables through which any program loads code or runs a command. (Not `ENV`:
 * only interactive shells read it, and `ENV=production npm start` is everyday.)
 */
const PROGRAM_ENV = /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|RSYNC_RSH|RSYNC_CONNECT_PROG|BROWSER|PERL5OPT|PYTHONSTARTUP|PYTHONINSPECT|NODE_OPTIONS|RUBYOPT)$/;
const PAGER_LIKE = /^(?:GIT_(?:PAGER|EDITOR|SEQUENCE_EDITOR)|PAGER|MANPAGER|EDITOR|VISUAL)$/;

/** Why this command runs commands the analysis cannot see; undefined for an ordinary command. */
export function hiddenRunner(words: readonly Word[], assignments: readonly string[]): string | undefined {
  const env = environmentRunner(words, assignments);
  if (env) return env;
  const name = commandName(words[0]);
  if (name === 'git') return gitRunner(words);
  if (name === 'make' || name === 'gmake' || name === 'bmake') return makeRunner(words);
  return undefined;
}

function environmentRunner(words: readonly Word[], assignments: readonly string[]): string | undefined {
  const name0 = commandName(words[0]);
  const isGit = name0 === 'git';
  const isMake = name0 === 'make' || name0 === 'gmake' || name0 === 'bmake';
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    const name = assignment.slice(0, eq);
    const value = assignment.slice(eq + 1);
    if ((PAGER_LIKE.test(name) && HARMLESS_PROGRAM.test(value.trim())) || value === '/dev/null') continue;
    if (PROGRAM_ENV.test(name) || (isGit && GIT_ENV.test(name)) || (isMake && /^(?:MAKEFILES|MAKEFLAGS|GNUMAKEFLAGS)$/.test(name))) return `${name}=… makes ${words[0]?.value ?? 'the command'} run a program the analysis cannot see`;
  }
  return undefined;
}

/** `git [-c key=value | --config-env=key=VAR | --exec-path=dir | …] sub …`. */
function gitRunner(words: readonly Word[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '-c' || arg === '--config-env' || arg.startsWith('--config-env=')) {
      const setting = arg.startsWith('--config-env=') ? { value: arg.slice('--config-env='.length), literal: word.literal } : words[++i];
      if (!setting) return undefined;
      const eq = setting.value.indexOf('=');
      const key = (eq === -1 ? setting.value : setting.value.slice(0, eq)).toLowerCase();
      const value = eq === -1 ? '' : setting.value.slice(eq + 1);
      const runner = GIT_RUNNERS.find((r) => r.key.test(key));
      if (!setting.literal && (runner || /[$`*?[]/.test(key))) return `git ${arg} with a computed setting`;
      // --config-env takes the value from the environment: unknown.
      if (runner && (arg !== '-c' || !runner.harmless?.test(value))) return `git ${arg} ${key}=… runs a program the analysis cannot see`;
      continue;
    }
    if (arg === '--exec-path' || arg.startsWith('--exec-path=')) {
      if (arg.includes('=')) return 'git --exec-path=… runs git commands from another directory';
      continue; // `git --exec-path` alone prints the path
    }
    if (arg === '-C' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace' || arg === '--super-prefix') {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return undefined; // the subcommand: options after it are its own
  }
  return undefined;
}

/**
 * `make -f FILE` / `--file=FILE` / `--makefile FILE` / `-fFILE` with FILE from stdin or not
 * literal, `--eval`/`-E` text, and `SHELL=…`/`.SHELLFLAGS=…` or shell syntax in a variable
 * override (`make CC='rm x;cc'`) all change what make runs in ways the parser cannot see.
 */
function makeRunner(words: readonly Word[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    const files: Word[] = [];
    if (arg === '--file' || arg === '--makefile') files.push(words[++i] ?? word);
    else if (/^--(?:file|makefile)=/.test(arg)) files.push({ ...word, value: arg.slice(arg.indexOf('=') + 1) });
    else if (arg === '--eval' || arg.startsWith('--eval=')) return 'make --eval runs makefile text given on the command line';
    else if (/^-[A-Za-z]/.test(arg) && !arg.startsWith('--')) {
      // A short cluster: -C dir, -f file, -I dir, -o file, -W file, -E text take a value.
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (!'CfIoWE'.includes(letter)) continue;
        const value = j + 1 < arg.length ? { ...word, value: arg.slice(j + 1) } : words[++i];
        if (letter === 'E') return 'make --eval runs makefile text given on the command line';
        if (letter === 'f' && value) files.push(value);
        break;
      }
    } else if (/^(?:SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFILES|MAKEFLAGS)\+?=/.test(arg)) return `make ${arg.slice(0, arg.indexOf('='))}=… changes how make runs its recipes`;
    else if (/^[A-Za-z_.][A-Za-z0-9_.]*\+?=/.test(arg) && (!word.literal || /[;&|`$()<>\n]/.test(arg))) return 'a make variable override with shell syntax';
    if (files.some((file) => !file.literal || isDescriptorPath(file.value))) return 'make reading a makefile from stdin or a computed path';
  }
  return undefined;
}
