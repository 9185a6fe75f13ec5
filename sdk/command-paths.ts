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
/** Words that run the next word as the program. */
const PREFIXES = new Set(['exec', 'command', 'builtin', 'env', 'nohup', 'time', 'nice', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', '{', 'xargs']);
/** Options of an interpreter that take the next word as their value (it is not the script). */
const VALUE_OPTIONS = new Set(['-W', '-X', '-E', '-I', '-o', '-O', '--input-type']);
/** Node's options whose value is a file it loads first. */
const PRELOADS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);

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
      i++;
    } else if ('\n;&|()`'.includes(c)) endCommand();
    else if (/\s/.test(c)) endWord();
    else word = (word ?? '') + c;
  }
  endCommand();
  return commands;
}

const known = (word: string): boolean => word !== '' && !/[$*?[\]{}`]/.test(word);

/** The files `text` runs (see the module comment), as written. */
export function commandPaths(text: string, depth = 0): string[] {
  const found: string[] = [];
  // Where the commands run, relative to where the text starts (`cd tools && ./x` runs tools/x).
  let cwd = '';
  const push = (file: string): void => void found.push(path.isAbsolute(file) || cwd === '' ? file : path.join(cwd, file));
  for (const words of shellCommands(text)) {
    if (words[0] === 'cd') {
      const to = words[1];
      cwd = to !== undefined && known(to) && !path.isAbsolute(to) && !to.startsWith('~') && to !== '-' ? path.join(cwd, to) : '';
      continue;
    }
    let i = 0;
    // Assignments and prefixes before the program (`X=1 exec env ./x`).
    while (i < words.length && (/^[A-Za-z_]\w*=/.test(words[i]!) || PREFIXES.has(words[i]!) || (words[i - 1] === 'env' && words[i]!.startsWith('-')))) i++;
    const program = words[i];
    if (program === undefined) continue;
    if (program === '.' || program === 'source') {
      if (known(words[i + 1] ?? '')) push(words[i + 1]!);
      continue;
    }
    if (program.includes('/') && known(program)) push(program);
    const name = path.basename(program);
    if (!INTERPRETERS.test(name)) continue;
    for (let j = i + 1; j < words.length; j++) {
      const word = words[j]!;
      if (SHELLS.has(name) && word === '-c') {
        if (depth < 2 && words[j + 1] !== undefined) for (const inner of commandPaths(words[j + 1]!, depth + 1)) push(inner);
        break;
      }
      // Code given on the command line (`python3 -c`, `node -e`, `perl -e`): no script file.
      if (!SHELLS.has(name) && (word === '-c' || word === '-e' || word === '--eval' || word === '-p' || word === '--print')) break;
      const module = /^-[A-Za-z]*m(.*)$/.exec(word);
      if (/^python|^pypy/.test(name) && module) {
        for (const file of pythonModulePaths(module[1] || (words[j + 1] ?? ''))) push(file);
        break;
      }
      if (PRELOADS.has(word)) {
        if (known(words[j + 1] ?? '')) push(words[j + 1]!);
        j++;
        continue;
      }
      if (VALUE_OPTIONS.has(word)) {
        j++;
        continue;
      }
      if (word.startsWith('-')) continue;
      if (known(word)) push(word);
      break;
    }
  }
  return found;
}
