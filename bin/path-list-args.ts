/**
 * `--mcp-config`, `--add-dir` and `--plugin-dir` as Claude Code declares them: variadic
 * (`--mcp-config a.json '{"mcpServers":…}'`, `--add-dir ../lib ../docs`), each flag taking the
 * words after it up to the next flag. parseArgs gives such a flag its first value only and the
 * following words as positionals, which became the prompt: a second config's JSON, bearer token
 * and all, was sent to the model as the user's message. This reads the words after each flag's
 * value in order and decides what each one is, before the rule lists and the prompt are read:
 *
 * - `--mcp-config`: a word that starts with `{` (JSON text) or ends in `.json` is another config;
 *   another word naming an existing file may be a config or the prompt, so it is a usage error
 *   rather than a guess; any other word ends the list (it is the prompt).
 * - `--add-dir`, `--plugin-dir`: a word that names an existing directory, or is written as a path
 *   (`/…`, `~`, `./…`, `../…`, no white space), is another directory (a missing one is then the
 *   flag's own "no such directory" error); any other word ends the list.
 *
 * Such a word is turned into another `--flag value` token, so the flags' values are read from the
 * tokens, in the order given, and every remaining positional is the prompt.
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ArgToken } from '../sdk/rule-list-args.js';

export const PATH_LIST_FLAGS = ['mcp-config', 'add-dir', 'plugin-dir'] as const;
type PathListFlag = (typeof PATH_LIST_FLAGS)[number];

export type PathLists = { ok: true; tokens: ArgToken[]; values: Record<PathListFlag, string[]> } | { ok: false; error: string };

function statOf(word: string, cwd: string) {
  const expanded = word === '~' ? os.homedir() : word.startsWith('~/') ? path.join(os.homedir(), word.slice(2)) : word;
  return statSync(path.resolve(cwd, expanded), { throwIfNoEntry: false });
}

/** What a word after a path-list flag's value is: another value, the end of the list, or unclear. */
function classify(flag: PathListFlag, word: string, cwd: string): 'value' | 'end' | 'unclear' {
  const trimmed = word.trim();
  if (trimmed === '') return 'end';
  if (flag === 'mcp-config') {
    if (trimmed.startsWith('{') || /\.json$/i.test(trimmed)) return 'value';
    return /\s/.test(trimmed) || !statOf(trimmed, cwd)?.isFile() ? 'end' : 'unclear';
  }
  if (/\s/.test(trimmed)) return 'end';
  if (/^(?:\/|~(?:\/|$)|\.\.?(?:\/|$))/.test(trimmed)) return 'value';
  return statOf(trimmed, cwd)?.isDirectory() ? 'value' : 'end';
}

/** The tokens with each extra word of a path-list flag made its own `--flag value`, and the values. */
export function gatherPathLists(tokens: readonly ArgToken[], cwd: string): PathLists {
  const values: Record<PathListFlag, string[]> = { 'mcp-config': [], 'add-dir': [], 'plugin-dir': [] };
  const out: ArgToken[] = [];
  let open: PathListFlag | undefined;
  for (const token of tokens) {
    if (token.kind === 'option') {
      open = (PATH_LIST_FLAGS as readonly string[]).includes(token.name) ? (token.name as PathListFlag) : undefined;
      if (open && token.value !== undefined) values[open].push(token.value);
      out.push(token);
      continue;
    }
    if (token.kind === 'option-terminator') {
      open = undefined;
      out.push(token);
      continue;
    }
    if (open) {
      const kind = classify(open, token.value, cwd);
      if (kind === 'value') {
        values[open].push(token.value);
        out.push({ kind: 'option', name: open, value: token.value });
        continue;
      }
      if (kind === 'unclear') {
        return {
          ok: false,
          error: `"${token.value}" after --${open} is a file but not a .json one: give a config file as --${open} ${token.value} (its own flag) and the prompt before the flags or after --`,
        };
      }
      open = undefined;
    }
    out.push(token);
  }
  return { ok: true, tokens: out, values };
}
