/**
 * The files a shell command text runs, read as a shell splits it (a deliberately small reading,
 * for git hooks and the commands git's configuration names): each simple command's program when
 * it is given as a path (`./scripts/lint.sh`), the script an interpreter is handed (`sh
 * tools/check.sh`, `node ./x.mjs`, `python3 tools/x.py`), a file it preloads (`node -r ./x.js`),
 * the module Python's `-m` imports from the current folder first (`<module>.py`, `<module>/`), a
 * file sourced with `.` or `source`, and the same inside a shell's `-c` text. Paths are returned
 * as written (relative to where the command runs). Words holding a variable, a glob or a command
 * substitution name nothing known and are skipped: the caller protects what it can name.
 */
import path from 'node:path';
import { pythonModulePaths } from './python-module.js';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish']);
/** Programs whose first operand is a script file they run. */
const INTERPRETERS = /^(?:sh|bash|dash|zsh|ksh|fish|node|nodejs|deno|bun|tsx|ts-node|python\d*(?:\.\d+)?|pypy\d*|ruby|perl|php|lua|Rscript|osascript)$/;
/** Words that run the next word as the program (their own options skipped). */
const PREFIXES = new Set(['exec', 'command', 'builtin', 'nohup', 'time', 'nice', 'ionice', 'stdbuf', 'chronic', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{', 'xargs']);
/** An interpreter's options that take the next word as their value (it is not the script), by family. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  shell: new Set(['-o', '-O', '+O', '+o']),
  python: new Set(['-W', '-X', '--check-hash-based-pycs']),
  js: new Set(['--input-type', '--env-file', '--conditions', '-C', '--title', '--config', '-c']),
  other: new Set(['-I', '-E', '-C', '-x', '-d', '-M', '-m']),
};
/** An interpreter's options that hand it code on the command line: no script file follows. */
const CODE_OPTIONS = new Set(['-c', '-e', '-E', '--eval', '-p', '--print']);
/** Options whose value is a file the interpreter loads first (node, ruby). */
const PRELOADS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
/** Programs that run a file named after `-f` (GNU sed's `e` command runs a shell; awk's `system`). */
const SCRIPT_FILE_PROGRAMS = /^(?:sed|gsed|awk|gawk|mawk|nawk|make|gmake)$/;
/** A redirection word: its operator, and its target when glued (`2>/dev/null`, `<x.sh`). */
const REDIRECTION = /^(\d*)(<<<|<<-?|<>|<&|>&|&>>?|>>|>\||<|>)(.*)$/;

const family = (name: string): keyof typeof VALUE_OPTIONS => (SHELLS.has(name) ? 'shell' : /^python|^pypy/.test(name) ? 'python' : /^(?:node|nodejs|deno|bun|tsx|ts-node)$/.test(name) ? 'js' : 'other');

/** A shell text's words, command by command (quotes removed: a quoted word may hold spaces; comments dropped). */
export function shellCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  const endWord = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      if (text[i + 1] !== '\n') word = (word ?? '') + text[i + 1];
      i++;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const stop = close === -1 ? text.length : close;
      word = (word ?? '') + text.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      let inner = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1]!)) inner += text[++j];
        else inner += text[j];
      }
      word = (word ?? '') + inner;
      i = j;
    } else if (c === '#' && word === undefined) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '$' && text[i + 1] === '(') {
      // What a command substitution prints is not known: the word it is part of names nothing.
      word = `${word ?? ''}$`;
      endCommand();
      commands.push([SUBSHELL_START]);
      i++;
    } else if (c === '(' || c === ')') {
      // A subshell's `cd` ends with it.
      endCommand();
      commands.push([c === '(' ? SUBSHELL_START : SUBSHELL_END]);
    } else if ('\n;&|`'.includes(c)) endCommand();
    else if (/\s/.test(c)) endWord();
    else word = (word ?? '') + c;
  }
  endCommand();
  return commands;
}

/**
 * The work tree's top as commands spell it (git runs them from there): `$(git rev-parse
 * --show-toplevel)`, `$PWD`, `$(pwd)`, `$GIT_WORK_TREE`… read as `.`, so that the paths built
 * on them are known (`"$(git rev-parse --show-toplevel)"/scripts/lint.sh`).
 */
export function atTheTop(text: string): string {
  return text.replace(/\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`|\$\(\s*pwd\s*\)|\$\{?(?:PWD|GIT_WORK_TREE)\b\}?/g, '.');
}

/** Markers shellCommands leaves where a subshell or a command substitution opens and closes. */
const SUBSHELL_START = '\u0000(';
const SUBSHELL_END = '\u0000)';
/** A word given as a file: with a folder in it, or a file name's extension (`build` alone may be a package script's name). */
const fileLike = (word: string): boolean => word.includes('/') || /\.[A-Za-z0-9]+$/.test(word);

/** Where commands run after a `cd` to a place not known (a variable, `~`, `-`, an absolute path elsewhere). */
const UNKNOWN = '\u0000?';

const known = (word: string): boolean => word !== '' && !/[$*?[\]{}`]/.test(word);

/** The files `text` runs (see the module comment), as written. */
export function commandPaths(text: string, depth = 0): string[] {
  const found: string[] = [];
  // Where the commands run, relative to where the text starts (`cd tools && ./x` runs tools/x);
  // UNKNOWN after a `cd` to a place not known, until the subshell it was in ends.
  let cwd = '';
  let previous: string = UNKNOWN;
  const outer: string[] = [];
  for (const all of shellCommands(text)) {
    if (all[0] === SUBSHELL_START) {
      outer.push(cwd);
      continue;
    }
    if (all[0] === SUBSHELL_END) {
      cwd = outer.pop() ?? cwd;
      continue;
    }
    // Redirections are not words of the command; what an interpreter reads on stdin is its script.
    const words: string[] = [];
    let stdin: string | undefined;
    for (let k = 0; k < all.length; k++) {
      const redirect = REDIRECTION.exec(all[k]!);
      if (!redirect) {
        words.push(all[k]!);
        continue;
      }
      const target = redirect[3] || all[++k];
      if (redirect[2] === '<' && redirect[1] === '' && target !== undefined) stdin = target;
    }
    if (words[0] === 'cd') {
      const to = words[1];
      const from = cwd;
      if (to === '-') cwd = previous;
      else cwd = to !== undefined && known(to) && !path.isAbsolute(to) && !to.startsWith('~') && cwd !== UNKNOWN ? path.join(cwd, to) : UNKNOWN;
      previous = from;
      continue;
    }
    let here = cwd;
    const push = (file: string): void => {
      if (path.isAbsolute(file)) found.push(file);
      else if (here !== UNKNOWN) found.push(here === '' ? file : path.join(here, file));
    };
    let i = 0;
    // Assignments and prefixes before the program (`X=1 exec env -C tools ./x`, `timeout 10 sh x`).
    for (;;) {
      const word = words[i];
      if (word === undefined) break;
      if (/^[A-Za-z_]\w*=/.test(word) || PREFIXES.has(word)) i++;
      else if (word === 'env') {
        for (i++; words[i]?.startsWith('-'); i++) {
          if (words[i] === '-C' || words[i] === '--chdir') here = known(words[i + 1] ?? '') && here !== UNKNOWN ? path.join(here, words[++i]!) : (i++, UNKNOWN);
          else if (words[i] === '-u' || words[i] === '--unset') i++;
          else if (words[i] === '-S' || words[i] === '--split-string') {
            if (words[i + 1] !== undefined && depth < 2) for (const inner of commandPaths(words[i + 1]!, depth + 1)) push(inner);
            i = words.length;
          }
        }
      } else if (word === 'timeout') {
        for (i++; words[i]?.startsWith('-'); i++) if (/^-(?:s|k|-signal|-kill-after)$/.test(words[i]!)) i++;
        i++; // the duration
      } else break;
    }
    const program = words[i];
    if (program === undefined) continue;
    if (program === '.' || program === 'source') {
      if (known(words[i + 1] ?? '')) push(words[i + 1]!);
      continue;
    }
    if (program.includes('/') && known(program)) push(program);
    const name = path.basename(program);
    if (SCRIPT_FILE_PROGRAMS.test(name)) {
      for (let j = i + 1; j < words.length; j++) if (/^(?:-f|--file|--makefile)$/.test(words[j]!) && known(words[j + 1] ?? '')) push(words[++j]!);
      continue;
    }
    if (name === 'run-parts') {
      const dir = words.slice(i + 1).find((word) => !word.startsWith('-'));
      if (dir !== undefined && known(dir)) push(dir);
      continue;
    }
    if (!INTERPRETERS.test(name)) continue;
    const kind = family(name);
    let script: string | undefined;
    for (let j = i + 1; j < words.length; j++) {
      const word = words[j]!;
      if (kind === 'shell' && word === '-c') {
        if (depth < 2 && words[j + 1] !== undefined) for (const inner of commandPaths(words[j + 1]!, depth + 1)) push(inner);
        script = '';
        break;
      }
      const module = /^-[A-Za-z]*m(.*)$/.exec(word);
      if (kind === 'python' && module) {
        for (const file of pythonModulePaths(module[1] || (words[j + 1] ?? ''))) push(file);
        script = '';
        break;
      }
      if (kind !== 'shell' && CODE_OPTIONS.has(word)) {
        script = '';
        break;
      }
      if (kind !== 'python' && PRELOADS.has(word)) {
        if (known(words[j + 1] ?? '')) push(words[j + 1]!);
        j++;
        continue;
      }
      if (VALUE_OPTIONS[kind]!.has(word)) {
        j++;
        continue;
      }
      if (word.startsWith('-') || word.startsWith('+')) continue;
      // `deno run x.ts`, `bun run x.ts`: a subcommand, then the script; `bun run build` runs a package script.
      if ((name === 'deno' || name === 'bun') && !fileLike(word)) {
        if (['run', 'test', 'x'].includes(word)) continue;
        script = '';
        break;
      }
      script = word;
      break;
    }
    if (script === undefined && stdin !== undefined) script = stdin;
    if (script !== undefined && known(script)) push(script);
  }
  return found;
}
