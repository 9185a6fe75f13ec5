/**
 * Tools that run commands given to them as option values or in their own command language — not
 * wrappers (wrappers.ts), whose operands are the command. Where the command is a literal shell
 * string (`tar --checkpoint-action=exec='…'`, `ssh -o ProxyCommand='…'`, `man -P '…'`,
 * `git rebase -x '…'`, `zip -TT '…'`) it is parsed as a script, so deny rules and the blacklist
 * see it, and the command is opaque (never allowed by a rule; the program may do more). Options
 * are found as the program reads them — long ones by any prefix, short ones in clusters
 * (runner-options.ts) — also in environment variables the program reads as options
 * (option-environment.ts: `TAR_OPTIONS`, `ZIPOPT`, `MANOPT`, …). Where the
 * tool runs commands the parser cannot read at all — editors and debuggers given commands
 * (`vim -c`, `ex`, `ed`, `gdb -ex`), `sed`'s `e`, database shells' `.shell`/`\!`, `socat
 * EXEC:`, `hash -p`, `enable -f`, git's `ext::` transport — the segment runs something unknown
 * (`unknown`: any deny rule for the tool denies it). `cmake -E rm|remove|remove_directory|rename…`
 * becomes the command it performs (`rm`, `rm -r`, `mv`…), and `find … -delete` counts as an `rm`
 * for deny and ask rules, so a `Bash(rm:*)` deny rule covers them.
 */
import { isDescriptorPath } from './descriptor-paths.js';
import { optionWordsFromEnvironment } from './option-environment.js';
import { runnerOptions, type RunnerOptionSpec } from './runner-options.js';
import type { Unwrapped, Word } from './shell-shapes.js';

const NONE: Unwrapped = { commands: [], scripts: [], readsStdin: false };

/**
 * What this tool runs; undefined for a command that is not one of these tools. `assignments`
 * (`NAME=value`) are the command's environment: some carry options (TAR_OPTIONS, ZIPOPT, MANOPT,
 * LESS, npm_config_*), read as if they were typed before the arguments.
 */
export function toolRunner(name: string, words: readonly Word[], assignments: readonly string[] = []): Unwrapped | undefined {
  const typed = commandLineRunner(name, words);
  const fromEnvironment = words[0] ? optionWordsFromEnvironment(name, assignments, words[0]) : [];
  if (fromEnvironment.length === 0) return typed;
  // npm reads its subcommand first (`npm exec`); the others read the variable before the arguments.
  const at = name === 'npm' || name === 'pnpm' ? 2 : 1;
  const withEnvironment = commandLineRunner(name, [...words.slice(0, at), ...fromEnvironment, ...words.slice(at)]);
  return typed && withEnvironment ? merged(typed, withEnvironment) : (typed ?? withEnvironment);
}

/** Both readings of one command (tar's old-style first word is only first without the variable's words). */
function merged(a: Unwrapped, b: Unwrapped): Unwrapped {
  const unknownReason = a.unknown ?? b.unknown;
  const opaque = a.opaque ?? b.opaque;
  const equivalent = a.equivalent ?? b.equivalent;
  return {
    commands: a.commands.length > 0 ? a.commands : b.commands,
    scripts: [...new Set([...a.scripts, ...b.scripts])],
    readsStdin: a.readsStdin || b.readsStdin,
    ...(unknownReason !== undefined ? { unknown: unknownReason } : {}),
    ...(opaque !== undefined ? { opaque } : {}),
    ...(equivalent !== undefined ? { equivalent } : {}),
  };
}

function commandLineRunner(name: string, words: readonly Word[]): Unwrapped | undefined {
  if (name === 'sed' || name === 'gsed') return sed(words);
  if (name === 'tar' || name === 'gtar' || name === 'bsdtar') return tar(words);
  if (VIM.test(name)) return vim(name, words);
  if (name === 'ed' || name === 'red') return unknown(`${name} runs the editor commands it reads, including shell commands`);
  if (DEBUGGERS.has(name)) return unknown(`${name} runs the commands and programs it is given`);
  if (name === 'emacs' && words.some((w) => /^--?(?:eval|execute|batch|script|load|funcall|l|f)(?:=|$)/.test(w.value))) return unknown('emacs evaluating Lisp it is given');
  if (name === 'cmake') return cmake(words);
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'slogin' || name === 'autossh') return ssh(name, words);
  if (name === 'rsync') return valued(words, RSYNC, 'rsync runs the remote shell or remote rsync command it is given');
  if (name === 'man') return valued(words, MAN, 'man runs the pager or browser it is given');
  if (name === 'zip') return valued(words, ZIP, 'zip runs the test command it is given');
  if (name === 'npx' || ((name === 'npm' || name === 'pnpm') && words[1]?.value === 'exec')) return valued(words, NPX, `${name} runs the shell command it is given`);
  if (name === 'sort' || name === 'gsort') return sort(words);
  if (name === 'wget' || name === 'wget2') return wget(words);
  if (name === 'less' || name === 'more' || name === 'most') {
    return words.some((w) => w.value.startsWith('+') && (/[!|]/.test(w.value) || !w.literal)) ? unknown(`${name} running commands given with +`) : undefined;
  }
  if (name === 'hash' && words.some((w) => /^-[A-Za-z]*p/.test(w.value))) return unknown('hash -p makes a name run another program');
  if (name === 'enable' && words.some((w) => /^-[A-Za-z]*f/.test(w.value))) return unknown('enable -f loads a builtin from a library');
  if (name === 'sqlite3' || name === 'duckdb') {
    if (words.some((w) => /(?:^|[\n;])\s*\.(?:sh|shell|system|once|output|excel|read|import)\b/.test(w.value))) return unknown(`${name} dot-commands that run programs or read files`);
    return words.some((w) => !w.literal) ? { ...NONE, opaque: `${name} with computed commands` } : undefined;
  }
  if (name === 'psql' || name === 'mysql' || name === 'mariadb') {
    if (words.some((w) => /\\!|\\o\s*\||\bsystem\s|\bprogram\b/i.test(w.value))) return unknown(`${name} shell escapes`);
    return words.some((w) => !w.literal) ? { ...NONE, opaque: `${name} with computed commands` } : undefined;
  }
  if (name === 'socat' && words.some((w) => /(?:^|[,!])(?:EXEC|SYSTEM):/i.test(w.value))) return unknown('socat EXEC:/SYSTEM: runs a program');
  if ((name === 'nc' || name === 'ncat' || name === 'netcat') && words.some((w) => /^-[A-Za-z]*[ec]$|^--(?:exec|sh-exec|lua-exec)/.test(w.value))) return unknown(`${name} -e/-c runs a program`);
  if (name === 'tmux' && words.some((w) => TMUX_RUNNERS.has(w.value))) return unknown('tmux running commands in a session');
  if (name === 'screen' && words.some((w) => /^-[A-Za-z]*[XdDmL]/.test(w.value))) return unknown('screen running commands in a session');
  if (name === 'at' || name === 'batch') return { ...NONE, readsStdin: !words.some((w) => /^-[A-Za-z]*[lrdcf]/.test(w.value)) };
  if (name === 'crontab' && words.length > 1 && !words.slice(1).every((w) => /^-[A-Za-z]*[lr]$/.test(w.value))) return unknown('crontab installs commands that run later');
  if (name === 'git') return git(words);
  if (name === 'find' && words.some((w) => w.value === '-delete')) return findDelete(words);
  return undefined;
}

const VIM = /^(?:vim?|nvim|gvim|view|rvim|rview|vimdiff|gvimdiff|nvi|elvis|vile|ex|evim|gview)$/;
const DEBUGGERS = new Set(['gdb', 'gdb-multiarch', 'cgdb', 'lldb', 'pdb', 'pdb3', 'rr', 'radare2', 'r2']);
const TMUX_RUNNERS = new Set(['new', 'new-session', 'neww', 'new-window', 'splitw', 'split-window', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run', 'run-shell', 'if', 'if-shell', 'popup', 'display-popup', 'send', 'send-keys', 'source', 'source-file', 'pipe-pane', 'pipep']);

function unknown(reason: string): Unwrapped {
  return { ...NONE, unknown: reason };
}

/** Literal values are scripts (opaque), a computed one is unknown. */
function scripts(values: readonly Word[], reason: string): Unwrapped | undefined {
  if (values.length === 0) return undefined;
  if (values.some((v) => !v.literal)) return unknown(`${reason} (computed)`);
  return { ...NONE, scripts: values.map((v) => v.value), opaque: reason };
}

/**
 * Runner options of programs that take a shell command (or program) as an option's value. Long
 * options are matched by any prefix (runner-options.ts); `exact` lists the program's own options
 * whose names are such prefixes, `valuedShort` its short options that take a value.
 */
const RSYNC: RunnerOptionSpec = { short: 'e', long: ['rsh', 'rsync-path'], valuedShort: 'BfTM@' };
const MAN: RunnerOptionSpec = { short: 'P', optionalShort: 'H', long: ['pager', 'html'], optionalLong: ['html'], valuedShort: 'CMrELmSsepRTW' };
const ZIP: RunnerOptionSpec = { multiShort: ['TT'], long: ['unzip-command'] };
// npm does not abbreviate (`--ca` is its certificate option), so only whole names count.
const NPX: RunnerOptionSpec = { short: 'c', long: ['call'], exact: ['c', 'ca'] };

/** Values given are scripts (opaque, a computed one unknown); an optional value left out runs the program's default. */
function valued(words: readonly Word[], spec: RunnerOptionSpec, reason: string, from = 1): Unwrapped | undefined {
  const found = runnerOptions(words, spec, from);
  if (found.length === 0) return undefined;
  const values = found.flatMap((f) => (f.value ? [f.value] : []));
  return scripts(values, reason) ?? { ...NONE, opaque: `${reason} (its default)` };
}

/** Programs sort may be given to compress its temporary files with: they only compress. */
const COMPRESSORS = /^(?:gzip|pigz|bzip2|pbzip2|lbzip2|xz|pixz|zstd|pzstd|lz4|lzop|lzip|plzip|brotli|compress|snzip)$/;

/**
 * `sort --compress-program=PROG` runs PROG (and `PROG -d`) with sort's data as its input. It is a
 * command of its own (deny rules see it); any program but a compressor — `sh`, an interpreter —
 * does with that data what the analysis cannot know.
 */
function sort(words: readonly Word[]): Unwrapped | undefined {
  const programs = runnerOptions(words, { long: ['compress-program'], valuedShort: 'kStTo' }).flatMap((f) => (f.value ? [f.value] : []));
  if (programs.length === 0) return undefined;
  const reason = 'sort runs the compress program given, with its data as input';
  if (programs.some((p) => !p.literal)) return unknown(`${reason} (computed)`);
  const other = programs.find((p) => !COMPRESSORS.test(p.value.slice(p.value.lastIndexOf('/') + 1)));
  const commands = programs.map((p) => ({ words: [p], assignments: [] }));
  return other ? { ...NONE, commands, opaque: reason, unknown: `sort feeds its data to ${other.value}` } : { ...NONE, commands };
}

/** `wget --use-askpass=CMD` runs CMD for credentials, as does the wgetrc command given with `-e`. */
function wget(words: readonly Word[]): Unwrapped | undefined {
  const commands = runnerOptions(words, { short: 'e', long: ['execute'], valuedShort: 'oaiOPUTtwQYBhDXIlAR' });
  if (commands.some((c) => !c.value?.literal || /use_?askpass/i.test(c.value.value))) return unknown('wget -e use_askpass runs a command');
  return valued(words, { long: ['use-askpass'] }, 'wget runs the credential command given');
}

/**
 * `sed` runs shell commands with its `e` command and the `e` flag of `s///`. The script comes
 * from `-e`/`--expression` or the first operand; a script from `-f` names a file (the project's,
 * like a script file), unless it is stdin or computed.
 */
function sed(words: readonly Word[]): Unwrapped | undefined {
  const programs: Word[] = [];
  let fromFile = false;
  let operandProgram = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') {
      if (operandProgram && !fromFile && programs.length === 0 && words[i + 1]) programs.push(words[i + 1]!);
      break;
    }
    if (arg === '-e' || arg === '--expression' || arg === '-f' || arg === '--file') {
      const value = words[++i];
      if (!value) break;
      if (arg === '-f' || arg === '--file') {
        fromFile = true;
        if (!value.literal || isDescriptorPath(value.value)) return unknown('sed reading its script from stdin or a computed file');
      } else programs.push(value);
      operandProgram = false;
      continue;
    }
    if (arg.startsWith('--expression=')) {
      programs.push({ ...word, value: arg.slice('--expression='.length) });
      operandProgram = false;
      continue;
    }
    if (arg.startsWith('--file=')) {
      operandProgram = false;
      if (!word.literal || isDescriptorPath(arg.slice('--file='.length))) return unknown('sed reading its script from stdin or a computed file');
      continue;
    }
    if (/^-[A-Za-z]*[ef]/.test(arg) && !arg.startsWith('--')) {
      // A cluster such as `-ne 'p'` or `-nf x`: the last letter's value is the next word.
      const letter = arg[arg.length - 1];
      const value = words[++i];
      if (value && letter === 'e') programs.push(value);
      if (letter === 'f' && value && (!value.literal || isDescriptorPath(value.value))) return unknown('sed reading its script from stdin or a computed file');
      operandProgram = false;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) continue;
    if (operandProgram) {
      programs.push(word);
      operandProgram = false;
    }
  }
  if (programs.some((p) => !p.literal)) return programs.some((p) => /e/.test(p.value)) ? unknown('sed with a computed script') : undefined;
  return programs.some((p) => sedExecutes(p.value)) ? unknown("sed's e command or s///e flag runs shell commands") : undefined;
}

/**
 * Whether a sed script uses `e` (as a command, or a flag of `s`). A small reader of GNU sed's
 * syntax: addresses, then one command letter and its arguments. Text it cannot follow counts as
 * executing (fail closed).
 */
export function sedExecutes(script: string): boolean {
  let i = 0;
  const n = script.length;
  const skipSpace = (): void => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  const readDelimited = (delimiter: string): boolean => {
    while (i < n && script[i] !== delimiter) {
      if (script[i] === '\\') i++;
      else if (script[i] === '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++; // the delimiter
    return true;
  };
  const readAddress = (): boolean => {
    if (script[i] === '/' || script[i] === '\\') {
      const delimiter = script[i] === '\\' ? script[++i] : '/';
      i++;
      if (delimiter === undefined || !readDelimited(delimiter)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
      return true;
    }
    while (i < n && /[0-9$~+]/.test(script[i]!)) i++;
    return true;
  };
  for (let guard = 0; guard < 10_000; guard++) {
    skipSpace();
    if (i >= n) return false;
    if (script[i] === '#') {
      while (i < n && script[i] !== '\n') i++;
      continue;
    }
    if (!readAddress()) return true;
    if (script[i] === ',') {
      i++;
      if (!readAddress()) return true;
    }
    while (i < n && /[\s!]/.test(script[i]!)) i++;
    const command = script[i++];
    if (command === undefined) return false;
    if (command === 'e') return true;
    if (command === '{' || command === '}' || command === '=') continue;
    if (command === 's' || command === 'y') {
      const delimiter = script[i++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return true;
      if (!readDelimited(delimiter) || !readDelimited(delimiter)) return true;
      if (command === 'y') continue;
      const flags = /^[gpiImM0-9e]*/.exec(script.slice(i))![0];
      if (flags.includes('e')) return true;
      i += flags.length;
      if (script[i] === 'w') while (i < n && script[i] !== '\n') i++; // `w file` to the end of the line
      continue;
    }
    if ('aicrRwWbtTv:'.includes(command) || command === 'l' || command === 'q' || command === 'Q' || command === 'L') {
      // Text, a file name or a label: to the end of the line (labels also end at `;`).
      const endsAtSemicolon = 'btTv:lqQL'.includes(command);
      // a/i/c text continues over lines that end with a backslash (`a\` then the text).
      while (i < n && !(endsAtSemicolon && script[i] === ';') && !(script[i] === '\n' && script[i - 1] !== '\\')) i++;
      continue;
    }
    if (/[dDgGhHnNpPxzF]/.test(command)) continue;
    return true; // not a sed command this reader knows
  }
  return true;
}

/** GNU tar options that run a program (any unambiguous prefix; `--checkpoint` is an option of its own). */
const TAR: RunnerOptionSpec = { long: ['to-command', 'use-compress-program', 'rsh-command', 'rmt-command', 'info-script', 'new-volume-script', 'checkpoint-action'], exact: ['checkpoint'] };

function tar(words: readonly Word[]): Unwrapped | undefined {
  const values: Word[] = [];
  for (const { option, value } of runnerOptions(words, TAR)) {
    if (!value) continue;
    if (option === '--checkpoint-action') {
      if (!value.literal) return unknown('tar --checkpoint-action with a computed action');
      if (value.value.startsWith('exec=')) values.push({ ...value, value: value.value.slice('exec='.length) });
      continue;
    }
    values.push(value);
  }
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    if (arg === '--') break;
    // Short forms: -I prog / -Iprog / -F script, also inside clusters (`-cIf prog x.tgz` is unusual: fail closed).
    if ((arg.startsWith('-') && !arg.startsWith('--')) || (i === 1 && /^[A-Za-z]+$/.test(arg))) {
      const letters = arg.replace(/^-/, '');
      const at = letters.search(/[IF]/);
      if (at === -1) continue;
      const attached = arg.startsWith('-') ? letters.slice(at + 1) : '';
      if (attached !== '') values.push({ ...word, value: attached });
      else if (words[i + 1]) values.push(words[++i]!);
    }
  }
  return scripts(values, 'tar runs the command given in an option');
}

function vim(name: string, words: readonly Word[]): Unwrapped | undefined {
  const exMode = name === 'ex' || name === 'nvi' || words.some((w) => /^-[A-Za-z]*[eE]/.test(w.value) && !w.value.startsWith('--'));
  const commands = words.slice(1).some((w) => /^\+/.test(w.value) || /^-[A-Za-z]*[cSsuUx]/.test(w.value) || /^--(?:cmd|cmd=|startuptime|clean)/.test(w.value) || !w.literal);
  return exMode || commands ? unknown(`${name} running editor commands, which can run shell commands and delete files`) : undefined;
}

/** `cmake -E <tool> …`: the tools that change files, as the commands that do the same. */
const CMAKE_TOOLS: Record<string, string[]> = {
  rm: ['rm'],
  remove: ['rm'],
  remove_directory: ['rm', '-r'],
  rename: ['mv'],
  copy: ['cp'],
  copy_if_different: ['cp'],
  copy_directory: ['cp', '-r'],
  copy_directory_if_different: ['cp', '-r'],
  create_symlink: ['ln', '-s'],
  create_hardlink: ['ln'],
  make_directory: ['mkdir', '-p'],
  touch: ['touch'],
  touch_nocreate: ['touch', '-c'],
  tar: ['tar'],
  cat: ['cat'],
  chdir: [],
  env: [],
  time: [],
};

function cmake(words: readonly Word[]): Unwrapped | undefined {
  const e = words.findIndex((w) => w.value === '-E');
  if (e === -1) {
    // cmake's single-dash options are words of their own (`-DX=1`, `-GNinja`): only `-P file` or `-Pfile`.
    const at = words.findIndex((w, i) => i > 0 && w.value.startsWith('-P'));
    const script = at === -1 ? undefined : words[at]!.value === '-P' ? words[at + 1] : { ...words[at]!, value: words[at]!.value.slice(2) };
    return script && (!script.literal || isDescriptorPath(script.value)) ? unknown('cmake -P running a script from stdin or a computed path') : undefined;
  }
  const tool = words[e + 1];
  if (!tool) return undefined;
  if (!tool.literal) return unknown('cmake -E with a computed tool');
  const verb = Object.hasOwn(CMAKE_TOOLS, tool.value) ? CMAKE_TOOLS[tool.value]! : undefined;
  if (verb === undefined) return undefined;
  let rest = words.slice(e + 2);
  if (tool.value === 'chdir') rest = rest.slice(1);
  if (tool.value === 'env') {
    while (rest[0] && (/^--(?:unset=|modify|)/.test(rest[0].value) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].value))) rest = rest.slice(1);
  }
  if (verb.length === 0) return rest.length > 0 ? { commands: [{ words: rest, assignments: [] }], scripts: [], readsStdin: false } : NONE;
  const synthetic = verb.map((value) => ({ value, literal: true, start: tool.start, end: tool.end }));
  return { commands: [{ words: [...synthetic, ...rest], assignments: [] }], scripts: [], readsStdin: false };
}

/** ssh options whose value is a local command (`-o ProxyCommand=…`, also `-o "ProxyCommand …"`). */
const SSH_COMMAND_KEYS = /^(?:proxycommand|localcommand|knownhostscommand|match)$/i;

function ssh(name: string, words: readonly Word[]): Unwrapped | undefined {
  const values: Word[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const arg = word.value;
    let option: Word | undefined;
    if (arg === '-o') option = words[++i];
    else if (arg.startsWith('-o')) option = { ...word, value: arg.slice(2) };
    else if (arg === '-F' || arg.startsWith('-F')) {
      const file = arg === '-F' ? words[++i] : { ...word, value: arg.slice(2) };
      if (file && (!file.literal || isDescriptorPath(file.value))) return unknown(`${name} reading its configuration from stdin or a computed path`);
      continue;
    } else if (name === 'scp' && (arg === '-S' || arg.startsWith('-S'))) {
      const program = arg === '-S' ? words[++i] : { ...word, value: arg.slice(2) };
      if (program) values.push(program);
      continue;
    }
    if (!option) continue;
    const match = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(option.value);
    if (!option.literal && /command|match/i.test(option.value)) return unknown(`${name} -o with a computed option`);
    if (!match || !SSH_COMMAND_KEYS.test(match[1]!)) continue;
    if (/^match$/i.test(match[1]!)) {
      if (/\bexec\b/i.test(match[2]!)) return unknown(`${name} -o Match exec runs a command`);
      continue;
    }
    if (match[2]!.trim().toLowerCase() !== 'none') values.push({ ...option, value: match[2]! });
  }
  return scripts(values, `${name} runs the local command given in an option`);
}

/** git subcommands that run shell commands given on the command line, and the `ext::` transport. */
function git(words: readonly Word[]): Unwrapped | undefined {
  if (words.some((w) => /(?:^|\s)ext::/.test(w.value))) return unknown('git ext:: transport runs a command');
  let at = 1;
  for (; at < words.length; at++) {
    const arg = words[at]!.value;
    if (arg === '-C' || arg === '-c' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace' || arg === '--super-prefix' || arg === '--config-env') {
      at++;
      continue;
    }
    if (!arg.startsWith('-')) break;
  }
  const sub = words[at]?.value;
  const rest = words.slice(at);
  if (sub === 'bisect') {
    if (rest[1]?.value !== 'run') return undefined;
    const command = rest.slice(2);
    return command.length > 0 ? { commands: [{ words: command, assignments: [] }], scripts: [], readsStdin: false, opaque: 'git bisect run runs a command' } : undefined;
  }
  if (sub === 'submodule') {
    const foreach = rest.findIndex((w) => w.value === 'foreach');
    if (foreach === -1) return undefined;
    const command = rest.slice(foreach + 1).filter((w) => !w.value.startsWith('--'));
    return scripts(command.length > 0 ? [command[0]!] : [], 'git submodule foreach runs a shell command');
  }
  const runner = sub !== undefined && Object.hasOwn(GIT_RUNNER_OPTIONS, sub) ? GIT_RUNNER_OPTIONS[sub]! : undefined;
  return runner ? valued(rest, runner.spec, runner.reason) : undefined;
}

const REMOTE_HELPERS: RunnerOptionSpec = { long: ['upload-pack', 'receive-pack', 'exec'], valuedShort: 'ojc' };

/**
 * git subcommands with options whose value is a shell command, as git's parse-options reads them
 * (any unambiguous prefix: `--exe`, `--upl`; short clusters: `-qx cmd`). `git grep -O` with no
 * value opens the files in the configured pager.
 */
const GIT_RUNNER_OPTIONS: Record<string, { spec: RunnerOptionSpec; reason: string }> = {
  rebase: { spec: { short: 'x', long: ['exec'], valuedShort: 'sXC' }, reason: 'git rebase --exec runs a shell command' },
  grep: { spec: { optionalShort: 'O', long: ['open-files-in-pager'], optionalLong: ['open-files-in-pager'], valuedShort: 'efABCm' }, reason: 'git grep -O runs the pager command given' },
  difftool: { spec: { short: 'x', long: ['extcmd'], valuedShort: 't' }, reason: 'git difftool runs the diff command given' },
  'filter-branch': { spec: { long: ['env-filter', 'tree-filter', 'index-filter', 'parent-filter', 'msg-filter', 'commit-filter', 'tag-name-filter'] }, reason: 'git filter-branch runs its filters' },
  // git send-email reads its options with Perl's Getopt::Long, which also takes prefixes; `--to` and `--cc` are addresses.
  'send-email': { spec: { long: ['sendmail-cmd', 'smtp-server', 'to-cmd', 'cc-cmd', 'header-cmd'], exact: ['to', 'cc'] }, reason: 'git send-email runs the command given' },
  fetch: { spec: REMOTE_HELPERS, reason: 'git fetch runs the remote helper command given' },
  pull: { spec: REMOTE_HELPERS, reason: 'git pull runs the remote helper command given' },
  clone: { spec: { ...REMOTE_HELPERS, short: 'u', valuedShort: 'objc' }, reason: 'git clone runs the remote helper command given' },
  'ls-remote': { spec: REMOTE_HELPERS, reason: 'git ls-remote runs the remote helper command given' },
  archive: { spec: REMOTE_HELPERS, reason: 'git archive runs the remote helper command given' },
  push: { spec: REMOTE_HELPERS, reason: 'git push runs the remote helper command given' },
  'send-pack': { spec: REMOTE_HELPERS, reason: 'git send-pack runs the remote helper command given' },
  'fetch-pack': { spec: REMOTE_HELPERS, reason: 'git fetch-pack runs the remote helper command given' },
};

/**
 * `find … -delete` deletes what it finds: for deny and ask rules it is also `rm` of its starting
 * points (ShellSegment.equivalent), so `Bash(rm:*)` covers it. Not a segment of its own: the
 * blacklist and the protected paths judge find's own deletion (only what matches is deleted).
 */
function findDelete(words: readonly Word[]): Unwrapped {
  const first = words.findIndex((w, i) => i > 0 && (w.value.startsWith('-') || w.value === '(' || w.value === '!') && !/^-[HLP]$|^-O\d*$/.test(w.value));
  const starts = words.slice(1, first === -1 ? words.length : first).filter((w) => !/^-[HLP]$|^-O\d*$/.test(w.value));
  return { ...NONE, equivalent: ['rm', ...(starts.length > 0 ? starts.map((w) => w.value) : ['.'])].join(' ') };
}
