/**
 * Pattern matchers for the three kinds of subject a rule can see:
 * - a command (one shell segment, or the whole command line): glob where `*` is any text,
 *   spaces included; a trailing ` *` or Claude Code's `:*` is a prefix match on a word boundary
 *   (`npm run test:*` matches `npm run test` and `npm run test -- --watch`, not `npm run testing`);
 * - a path (absolute, normalised): segment-wise glob (picomatch, `*` inside one segment, `**`
 *   any depth, dot files included); `./x` and `x/y` relative to the project root, `//x` absolute,
 *   `~/x` home, `/x` relative to the settings file's base (Claude Code); a trailing `/` covers
 *   everything below the directory. A pattern with no `/` but a trailing one (`.env`, `*.env`,
 *   `build/`) matches at any depth below the project root, as in a .gitignore (Claude Code's
 *   path rules follow the gitignore spec): `Read(*.env)` covers `config/prod.env`; `./*.env` is
 *   the root's only;
 * - a tool name (tools without a target, MCP tools): the command glob.
 * `=` compares exactly (paths after the same resolution), `~` is an RE2 regex (linear time, so
 * a rule can never be made to hang on a crafted command) searched anywhere in the subject.
 *
 * Rules come from settings files a project can write, and the subjects from the model: every
 * glob is matched in linear time too (sdk/linear-regex: a command glob `*a*a*a*a*a*a*b` or a path
 * glob with many stars would otherwise keep V8 backtracking for minutes on a long command).
 *
 * picomatch and re2js are loaded only when a rule needs them (`loadMatcherDeps`).
 */
import path from 'node:path';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';
import type { PatternSpec } from './rule-syntax.js';

type GlobModule = typeof import('../../sdk/linear-regex/picomatch.js');
type Re2 = typeof import('re2js').RE2JS;

let globModule: GlobModule | undefined;
let re2Module: Re2 | undefined;

export async function loadMatcherDeps(needs: { glob: boolean; regex: boolean }): Promise<void> {
  if (needs.glob && !globModule) globModule = await import('../../sdk/linear-regex/picomatch.js');
  if (needs.regex && !re2Module) re2Module = (await import('re2js')).RE2JS;
}

export type Test = (subject: string) => boolean;

/** Compile an RE2 regex now (throws on a syntax error: the rule is skipped with that message). */
export function compileRegex(body: string): Test {
  if (!re2Module) throw new Error('internal: the regex engine is not loaded');
  const compiled = re2Module.compile(body);
  return (subject) => compiled.test(subject);
}

/** Glob metacharacters of a path pattern (picomatch). */
const PATH_GLOB_CHARS = /[*?[\]{}\\]|[@!+]\(/;

export function hasPathGlobChars(text: string): boolean {
  return PATH_GLOB_CHARS.test(text);
}

/** Command glob → anchored regex, matched in linear time. Only `*` is special (and `\` escapes the next character). */
export function commandGlob(body: string): LinearRegExp {
  let source = body;
  let suffix = '';
  if (/(^|[^\\]):\*$/.test(source)) {
    source = source.slice(0, -2);
    suffix = '(?:\\s[\\s\\S]*)?';
  } else if (/(^|[^\\]) \*$/.test(source) && source.trim() !== '*') {
    source = source.slice(0, -2);
    suffix = '(?:\\s[\\s\\S]*)?';
  }
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\' && i + 1 < source.length) {
      out += escapeChar(source[++i]!);
    } else if (char === '*') {
      out += '[\\s\\S]*';
    } else {
      out += escapeChar(char);
    }
  }
  return new LinearRegExp(`^${out}${suffix}$`);
}

function escapeChar(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

export function compileCommandTest(pattern: PatternSpec): Test {
  let inner: Test;
  if (pattern.kind === 'exact') {
    const want = pattern.body.trim();
    inner = (subject) => subject.trim() === want;
  } else if (pattern.kind === 'regex') {
    inner = compileRegex(pattern.body);
  } else {
    const regex = commandGlob(pattern.body.trim());
    inner = (subject) => regex.test(subject.trim());
  }
  return negate(inner, pattern.negations);
}

export interface PathBases {
  projectRoot: string;
  homeDir: string;
  /** What a single leading `/` is relative to (the settings file's base). */
  slashBase: string;
  /** Lower-case both sides (case-insensitive file systems). */
  caseInsensitive: boolean;
}

interface ResolvedPathPattern {
  /** Absolute literal prefix. */
  prefix: string;
  /** Glob for the rest, relative to `prefix`; undefined when the whole pattern is literal. */
  glob: string | undefined;
}

/** Where a path pattern is anchored, and the rest of it. */
function anchor(body: string, bases: PathBases): { base: string; rest: string } {
  if (body.startsWith('//')) return { base: path.sep, rest: body.slice(2) };
  if (body === '~' || body.startsWith('~/')) return { base: bases.homeDir, rest: body.slice(2) };
  if (body.startsWith('/')) return { base: bases.slashBase, rest: body.slice(1) };
  return { base: bases.projectRoot, rest: body };
}

/**
 * gitignore: a pattern without a slash (a trailing one aside) matches at any depth, `.env` and
 * `*.env` in every folder of the project. `.` and `..` name directories, not names to look for.
 */
export function matchesAnyDepth(body: string): boolean {
  const name = body.replace(/\/$/, '');
  return name !== '' && !name.includes('/') && name !== '.' && name !== '..' && name !== '~';
}

export function resolvePathPattern(body: string, bases: PathBases): ResolvedPathPattern {
  let { base, rest } = anchor(body, bases);
  if (matchesAnyDepth(body)) rest = `**/${rest}`;
  if (rest.endsWith('/')) rest += '**';
  const segments = rest.split('/');
  const firstGlob = segments.findIndex((segment) => hasPathGlobChars(segment));
  if (firstGlob === -1) return { prefix: path.resolve(base, rest), glob: undefined };
  return { prefix: path.resolve(base, segments.slice(0, firstGlob).join('/')), glob: segments.slice(firstGlob).join('/') };
}

/** The absolute path an exact (`=`) path pattern names: no glob characters are interpreted. */
export function resolveExactPath(body: string, bases: PathBases): string {
  const { base, rest } = anchor(body, bases);
  return path.resolve(base, rest);
}

export function compilePathTest(pattern: PatternSpec, bases: PathBases): Test {
  const fold = bases.caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  let inner: Test;
  if (pattern.kind === 'regex') {
    inner = compileRegex(pattern.body);
  } else if (pattern.kind === 'exact') {
    const want = fold(resolveExactPath(pattern.body, bases));
    inner = (subject) => fold(subject) === want;
  } else {
    const { prefix, glob } = resolvePathPattern(pattern.body, bases);
    const foldedPrefix = fold(prefix);
    if (glob === undefined) {
      inner = (subject) => fold(subject) === foldedPrefix;
    } else {
      if (!globModule) throw new Error('internal: the glob matcher is not loaded');
      const matchRest = globModule.globMatcher(glob, { dot: true, nocase: bases.caseInsensitive });
      const everything = glob === '**';
      // Subjects are absolute and normalised, so "relative to the prefix" is a string slice
      // (path.relative would resolve both sides again on every rule of every check).
      const under = foldedPrefix.endsWith(path.sep) ? foldedPrefix : foldedPrefix + path.sep;
      inner = (subject) => {
        const folded = fold(subject);
        if (folded === foldedPrefix) return everything;
        if (!folded.startsWith(under)) return false;
        const relative = folded.slice(under.length);
        return matchRest(path.sep === '/' ? relative : relative.split(path.sep).join('/'));
      };
    }
  }
  return negate(inner, pattern.negations);
}

/**
 * What dependencies a pattern needs once compiled for commands and for paths. `commandsOnly`: the
 * rule's tool has no path target (bash, MCP tools), so a name without a slash needs no glob.
 */
export function patternNeeds(pattern: PatternSpec | undefined, commandsOnly = false): { glob: boolean; regex: boolean } {
  if (!pattern) return { glob: false, regex: false };
  if (pattern.kind === 'regex') return { glob: false, regex: true };
  if (pattern.kind === 'glob') {
    let body = pattern.body;
    if (body.endsWith('/')) body += '**';
    return { glob: hasPathGlobChars(body) || (!commandsOnly && matchesAnyDepth(pattern.body)), regex: false };
  }
  return { glob: false, regex: false };
}

function negate(test: Test, negations: number): Test {
  return negations % 2 === 1 ? (subject) => !test(subject) : test;
}
