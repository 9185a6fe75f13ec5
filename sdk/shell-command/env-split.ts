/**
 * `env -S STRING` (`--split-string`) splits STRING into words with rules of its own (coreutils'
 * build_argv), puts them where the option was and reads its options again: `env -S'-i rm -rf' x`
 * runs `rm -rf x`. Spaces separate words outside quotes; '…' keeps everything but `\\` and `\'`;
 * "…" and bare text take the escapes `\" \# \$ \' \\ \f \n \r \t \v`, `\_` (a separator outside
 * "…", a space inside) and `\c` (the end); a `#` starting a word ends the string; `${NAME}` is
 * the variable's value (here: a word computed at run time). What env refuses — another escape, a
 * `$` not in `${NAME}`, an open quote — yields undefined.
 */
import type { Word } from './shell-shapes.js';

const ESCAPES: Record<string, string> = { '"': '"', '#': '#', $: '$', "'": "'", '\\': '\\', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

export function splitEnvString(source: Word): Word[] | undefined {
  const text = source.value;
  const words: Word[] = [];
  let current: { value: string; literal: boolean } | undefined;
  let single = false;
  let double = false;
  const append = (piece: string, literal = true): void => {
    current ??= { value: '', literal: true };
    current.value += piece;
    current.literal &&= literal;
  };
  const finish = (): void => {
    if (current) words.push({ value: current.value, literal: current.literal && source.literal, start: source.start, end: source.end });
    current = undefined;
  };
  let i = 0;
  scan: for (; i < text.length; i++) {
    const c = text[i]!;
    if (single) {
      if (c === "'") single = false;
      else if (c === '\\' && (text[i + 1] === '\\' || text[i + 1] === "'")) append(text[++i]!);
      else append(c);
      continue;
    }
    if (c === "'" && !double) {
      single = true;
      append('');
      continue;
    }
    if (c === '"') {
      double = !double;
      append('');
      continue;
    }
    if (/\s/.test(c) && !double) {
      finish();
      continue;
    }
    if (c === '#' && !double && current === undefined) break;
    if (c === '\\') {
      const next = text[++i];
      if (next === undefined) return undefined;
      if (next === 'c') {
        if (double) return undefined;
        break scan;
      }
      if (next === '_') {
        if (double) append(' ');
        else finish();
        continue;
      }
      const escaped = ESCAPES[next];
      if (escaped === undefined) return undefined;
      append(escaped);
      continue;
    }
    if (c === '$') {
      const variable = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(text.slice(i));
      if (!variable) return undefined;
      append(variable[0], false);
      i += variable[0].length - 1;
      continue;
    }
    append(c);
  }
  if (single || double) return undefined;
  finish();
  return words;
}
