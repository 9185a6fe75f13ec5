/**
 * Environment variables a program reads as more of its own command line: GNU tar puts the words
 * of TAR_OPTIONS before its arguments, zip those of ZIPOPT and ZIP, man those of MANOPT, less
 * those of LESS; npm takes any `npm_config_<key>` as `--<key>`. So
 * `TAR_OPTIONS='--to-command=rm x' tar xf a.tar` runs `rm x` as surely as the option would. The
 * words are given back as options, for the runner-option readers to judge like typed ones.
 * Values with an expansion (tar expands `$NAME` in TAR_OPTIONS) give computed words; where the
 * program splits at blanks only (zip), a value with quotes does too, since the command the
 * program then sees is not the one the quotes suggest.
 */
import type { Word } from './shell-shapes.js';

/** How a variable's value becomes words: `shell` honours '…', "…" and `\`; `blanks` does not. */
type Splitting = 'shell' | 'blanks';

const OPTION_VARIABLES: Record<string, readonly { name: string; splitting: Splitting }[]> = {
  tar: [{ name: 'TAR_OPTIONS', splitting: 'shell' }],
  gtar: [{ name: 'TAR_OPTIONS', splitting: 'shell' }],
  zip: [{ name: 'ZIPOPT', splitting: 'blanks' }, { name: 'ZIP', splitting: 'blanks' }],
  man: [{ name: 'MANOPT', splitting: 'shell' }],
  less: [{ name: 'LESS', splitting: 'shell' }],
};

/** Programs that read options from the environment, one of each kind (the exported-variable check asks each). */
export const OPTION_PROGRAMS = ['tar', 'zip', 'man', 'less', 'npx'] as const;

/** npm (and npx) read every `npm_config_<key>` variable, in any case, as the option `--<key>`. */
const NPM_PROGRAMS = new Set(['npm', 'npx', 'pnpm']);

/** The option words `assignments` give the program `name`, in the order it reads them. */
export function optionWordsFromEnvironment(name: string, assignments: readonly string[], at: Word): Word[] {
  const words: Word[] = [];
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) continue;
    const variable = assignment.slice(0, eq);
    const value = assignment.slice(eq + 1);
    const computed = /[$`]/.test(value);
    if (NPM_PROGRAMS.has(name) && /^npm_config_/i.test(variable)) {
      const key = variable.slice('npm_config_'.length).toLowerCase().replaceAll('_', '-');
      words.push({ value: `--${key}=${value}`, literal: !computed, start: at.start, end: at.end });
      continue;
    }
    const spec = OPTION_VARIABLES[name]?.find((v) => v.name === variable);
    if (!spec) continue;
    const quoted = /["'\\]/.test(value);
    const literal = !computed && !(spec.splitting === 'blanks' && quoted);
    const pieces = spec.splitting === 'shell' ? shellSplit(value) : value.split(/\s+/);
    // A value the shell-like reading cannot finish (an open quote) is read at blanks, as computed.
    for (const piece of pieces ?? value.split(/\s+/)) {
      if (piece !== '') words.push({ value: piece, literal: literal && pieces !== undefined, start: at.start, end: at.end });
    }
  }
  return words;
}

/** Words as a shell splits them without expanding: blanks separate, quotes and `\` group. */
function shellSplit(text: string): string[] | undefined {
  const words: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return undefined;
      current = (current ?? '') + text.slice(i + 1, close).replace(c === '"' ? /\\(["\\$`])/g : /(?!)/g, '$1');
      i = close;
    } else if (c === '\\') {
      current = (current ?? '') + (text[i + 1] ?? '');
      i++;
    } else current = (current ?? '') + c;
  }
  if (current !== undefined) words.push(current);
  return words;
}
