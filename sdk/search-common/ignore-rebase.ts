/**
 * An ignore file of a directory ABOVE the project root, rewritten as rules relative to the root,
 * so that the walker and ripgrep (one `--ignore-file`, matched relative to its working directory)
 * can apply a monorepo's `.gitignore` to a package opened on its own.
 *
 * `below` is the path from the file's directory down to the root, as names (`['packages', 'foo']`).
 * - A pattern without a `/` (other than a trailing one) matches a name at any depth: it holds as
 *   it is below the root.
 * - An anchored pattern is matched segment by segment against those names (`*` and classes within
 *   one name, `**` over any number of them); what is left once the root is reached becomes a rule
 *   anchored at the root: `/packages/foo/dist/` → `/dist/`, `packages/*\/gen` → `/gen`,
 *   `**\/tmp` → `/**\/tmp`. A pattern that ends on the root or above it only names the root or its
 *   parents, which are never tested (as ripgrep tests each path itself, never its parents), so it
 *   gives no rule; one that cannot match the path to the root gives none either.
 * Negation (`!`) and directory-only (`/` at the end) are kept; the order of the rules is kept.
 */
import { LinearRegExp } from '../linear-regex/index.js';
import { trimTrailingSpaces } from './gitignore.js';
import { globToRegexSource } from './gitignore-glob.js';

/** Alternatives a `{a,b}` group with a `/` inside may expand to before the rule is dropped. */
const MAX_ALTERNATIVES = 64;

export function rebaseFromAncestor(text: string, below: readonly string[]): string[] {
  const out: string[] = [];
  for (const rawLine of text.split('\n')) out.push(...rebaseLine(rawLine, below));
  return out;
}

function rebaseLine(rawLine: string, below: readonly string[]): string[] {
  let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (line === '' || line.startsWith('#')) return [];
  line = trimTrailingSpaces(line);
  if (line === '') return [];
  let bang = '';
  if (line.startsWith('!')) {
    bang = '!';
    line = line.slice(1);
  }
  let dirOnly = '';
  while (line.endsWith('/') && !line.endsWith('\\/')) {
    dirOnly = '/';
    line = line.slice(0, -1);
  }
  if (line === '') return [];
  if (!line.includes('/')) return [`${bang}${line}${dirOnly}`]; // a name at any depth
  if (below.length === 0) return [`${bang}${line}${dirOnly}`];
  const body = line.startsWith('/') ? line.slice(1) : line;
  const alternatives = expandSlashBraces(body);
  if (alternatives === undefined) return [];
  const rest = new Set<string>();
  for (const alternative of alternatives) {
    for (const left of remainders(splitSegments(alternative), below)) rest.add(left);
  }
  return [...rest].map((left) => `${bang}/${left}${dirOnly}`);
}

/** What is left of `segments` after they matched every name of `below` (each way they can). */
function remainders(segments: string[], below: readonly string[]): string[] {
  const globstar = (k: number): boolean => /^\*{2,}$/.test(segments[k] ?? '');
  // `**` may match no name at all: a position at a `**` also stands for the one after it.
  const close = (states: Set<number>): Set<number> => {
    for (const k of [...states]) for (let j = k; globstar(j); j++) states.add(j + 1);
    return states;
  };
  let states = close(new Set([0]));
  for (const name of below) {
    const next = new Set<number>();
    for (const k of states) {
      if (k >= segments.length) continue; // the pattern ended above the root
      if (globstar(k)) next.add(k);
      else if (segmentMatches(segments[k]!, name)) next.add(k + 1);
    }
    if (next.size === 0) return [];
    states = close(next);
  }
  const out: string[] = [];
  for (const k of states) {
    // `**/x` already covers the `x` reached by matching no name with that `**`.
    if (k < segments.length && !(k > 0 && globstar(k - 1) && states.has(k - 1))) out.push(segments.slice(k).join('/'));
  }
  return out;
}

function segmentMatches(segment: string, name: string): boolean {
  try {
    // The pattern is the repository's: linear time, never V8's backtracking (gitignore-glob.ts).
    return new LinearRegExp(`^${globToRegexSource(segment)}$`, 'u').test(name);
  } catch {
    return false; // a malformed pattern matches nothing, as in git
  }
}

/** Splits at the `/` that separate names: not one escaped by `\` nor one inside `[...]`. */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      current += ch + pattern[i + 1]!;
      i++;
    } else if (ch === '[') {
      const end = bracketEnd(pattern, i);
      current += pattern.slice(i, end);
      i = end - 1;
    } else if (ch === '/') {
      segments.push(current);
      current = '';
    } else current += ch;
  }
  segments.push(current);
  return segments.filter((segment, k) => segment !== '' || k === segments.length - 1);
}

/** The index after the `]` closing the class at `start`, or `start + 1` when `[` is literal. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i + 1;
  }
  return start + 1;
}

/**
 * `{a,b/c}` groups that hold a `/` expanded into whole patterns (braces are ripgrep's alternation
 * in ignore files), so that every pattern splits into names; groups without a `/` stay as they
 * are. Undefined when there would be too many alternatives (the rule is then left out).
 */
function expandSlashBraces(pattern: string): string[] | undefined {
  const group = firstSlashGroup(pattern);
  if (!group) return [pattern];
  const out: string[] = [];
  for (const option of group.options) {
    const expanded = expandSlashBraces(pattern.slice(0, group.start) + option + pattern.slice(group.end));
    if (expanded === undefined) return undefined;
    out.push(...expanded);
    if (out.length > MAX_ALTERNATIVES) return undefined;
  }
  return out;
}

function firstSlashGroup(pattern: string): { start: number; end: number; options: string[] } | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      i = bracketEnd(pattern, i) - 1;
      continue;
    }
    if (ch !== '{') continue;
    // the matching `}` of this (outermost) group, and its top-level options
    let depth = 0;
    const options: string[] = [];
    let from = i + 1;
    for (let j = i; j < pattern.length; j++) {
      const c = pattern[j]!;
      if (c === '\\') {
        j++;
      } else if (c === '{') {
        depth++;
      } else if (c === ',' && depth === 1) {
        options.push(pattern.slice(from, j));
        from = j + 1;
      } else if (c === '}') {
        depth--;
        if (depth === 0) {
          options.push(pattern.slice(from, j));
          if (pattern.slice(i, j + 1).includes('/')) return { start: i, end: j + 1, options };
          i = j;
          break;
        }
      }
    }
    if (depth > 0) return undefined; // unclosed: globToRegexSource rejects the pattern
  }
  return undefined;
}
