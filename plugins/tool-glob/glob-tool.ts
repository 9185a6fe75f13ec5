/**
 * The `glob` tool (T6): files whose path matches a pattern, newest-modified first.
 *
 * The list (hidden directories and ignored paths skipped) is `rg --files` when ripgrep is on PATH
 * (sdk/search-common/ripgrep-files.ts), else the shared project walker in `sdk/search-common/`:
 * both apply the same rules; matching is picomatch (sdk/search-common/path-glob.ts) (`**`, braces, classes, extglobs) on the path
 * relative to the search directory; only the matches are stat'ed (for their mtime).
 */
import type { SearchStart } from '../../sdk/search-common/search-tool-binding.js';
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import type { PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { containPath } from '../../sdk/path-containment.js';
import { describeLocation, displayPath, givenNames, resolveSearchLocation } from '../../sdk/search-common/search-path.js';
import { joinRoot, joinRootBytes, relativeToRoot, walkProject } from '../../sdk/search-common/walker.js';
import { compilePathGlob } from '../../sdk/search-common/path-glob.js';
import { displayName, fsPath, hasEscapedBytes } from '../../sdk/search-common/display-name.js';
import { ExactLstat } from '../../sdk/search-common/exact-open.js';
import { findRipgrep } from '../../sdk/search-common/find-ripgrep.js';
import { listWithRipgrep } from '../../sdk/search-common/ripgrep-files.js';
import { typeGlobFor } from '../../sdk/search-common/ripgrep-selection.js';
import { GLOB_DESCRIPTION, GLOB_INPUT_SCHEMA } from './glob-definition.js';

export { GLOB_DESCRIPTION, GLOB_INPUT_SCHEMA };

export interface GlobToolOptions {
  /** 'auto' (default): `rg --files` when rg is on PATH, else the walker. Tests and benchmarks force one. */
  engine?: 'auto' | 'ripgrep' | 'walker';
  /** Path of the rg executable (default: looked up on PATH). */
  rgPath?: string;
  /** Honour ignore files (default true). Never exposed to the model. */
  respectIgnore?: boolean;
  /** Total time budget of one call in ms (default 30 000). */
  deadlineMs?: number;
  /**
   * The permission rules' view of which files a search must skip (TOKENS.SearchPolicy), with
   * MewCode's private records; given where the search starts, for the session's own saved outputs.
   */
  searchPolicy?: (search?: SearchStart) => SearchPolicy | undefined;
  /** Directories besides the project a call may search (the sandbox allows the same), read at each call. */
  additionalDirectories?: (ctx: ToolContext) => readonly string[];
}

const DEFAULT_DEADLINE_MS = 30_000;


interface SplitPattern {
  /** Static directory prefix of the pattern ('' when none); may be absolute or start with `..`. */
  base: string;
  /** The glob part, matched against paths relative to `base` (a literal name when !isGlob). */
  glob: string;
  isGlob: boolean;
}

/** Splits `src/**\/*.ts` into the directory to walk (`src`) and the glob to match below it. */
export function splitPattern(rawPattern: string): SplitPattern {
  let pattern = rawPattern.trim();
  while (pattern.startsWith('./')) pattern = pattern.slice(2);
  if (pattern.startsWith('!')) return { base: '', glob: pattern, isGlob: true };
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) {
    const trimmed = pattern.replace(/\/+$/, '');
    const base = path.posix.dirname(trimmed);
    return { base: base === '.' ? '' : base, glob: path.posix.basename(trimmed), isGlob: false };
  }
  return { base: scan.base, glob: scan.glob, isGlob: true };
}

/** The glob's matcher (the search tools' one translator, sdk/search-common/path-glob.ts). */
export function compileGlob(glob: string): (candidate: string) => boolean {
  return compilePathGlob(glob);
}

function escapesUpward(base: string): boolean {
  return path.isAbsolute(base) || base === '..' || base.startsWith('../') || base.includes('/../') || base.endsWith('/..');
}

function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

export class GlobTool implements Tool {
  readonly name = 'glob';
  readonly description = GLOB_DESCRIPTION;
  readonly inputSchema = GLOB_INPUT_SCHEMA;
  readonly readOnly = true;

  constructor(
    private readonly limits: OutputLimits,
    private readonly options: GlobToolOptions = {},
  ) {}

  /** The directory the call reads: `path`, or where an absolute / `../` pattern points. */
  permissionTarget(input: ToolInput): PermissionTarget {
    const searchPath = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
    if (typeof input.pattern === 'string') {
      const { base } = splitPattern(input.pattern);
      if (base !== '' && escapesUpward(base)) {
        return { kind: 'path', path: path.isAbsolute(base) ? base : path.posix.normalize(`${searchPath}/${base}`) };
      }
    }
    return { kind: 'path', path: searchPath };
  }

  async execute(input: ToolInput, ctx: ToolContext): Promise<ToolOutput> {
    const pattern = input.pattern;
    if (typeof pattern !== 'string' || pattern.trim() === '') {
      return { isError: true, content: 'glob: "pattern" is required, e.g. "**/*.ts" (all TypeScript files) or "src/**/*.test.ts".' };
    }
    if (input.path !== undefined && input.path !== null && typeof input.path !== 'string') {
      return { isError: true, content: 'glob: "path" must be a string: a directory relative to the project root.' };
    }
    const pathInput = typeof input.path === 'string' ? input.path : '';
    const extraDirs = this.options.additionalDirectories?.(ctx) ?? [];
    const location = await resolveSearchLocation('glob', ctx.projectRoot, ctx.homeDir, pathInput, extraDirs);
    if (!location.ok) return { isError: true, content: location.error };
    let searchDir = location.value;
    if (searchDir.kind !== 'dir') {
      return { isError: true, content: `Path "${pathInput}" is a file, not a directory. Use read_file to read it, or pass its directory as path.` };
    }

    const split = splitPattern(pattern);
    let walkStart = searchDir.absolute;
    if (split.base !== '') {
      const target = path.resolve(searchDir.absolute, split.base);
      let contained;
      try {
        contained = await containPath(searchDir.root, target, ctx.homeDir);
      } catch (error) {
        return { isError: true, content: `glob: the directory of "${pattern}" cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check the pattern's directory part.` };
      }
      if (!contained.inside) {
        // An absolute or `../` pattern may name another allowed root (the project, an additional directory).
        const elsewhere = await resolveSearchLocation('glob', ctx.projectRoot, ctx.homeDir, target, extraDirs);
        if (!elsewhere.ok || elsewhere.value.kind !== 'dir') {
          const besides = extraDirs.length > 0 ? ' (and its additional directories)' : '';
          return { isError: true, content: `The pattern "${pattern}" points outside the project root (${searchDir.root})${besides}; glob searches inside the project${besides} only.` };
        }
        searchDir = elsewhere.value;
        contained = { resolved: elsewhere.value.absolute };
      }
      walkStart = contained.resolved;
    }
    const prefix = searchDir.prefix;
    const where = describeLocation(relativeToRoot(searchDir.root, walkStart), 'dir', prefix);

    if (!split.isGlob) return this.literal(pattern, searchDir.root, path.join(walkStart, split.glob), prefix);

    let matcher: (candidate: string) => boolean;
    try {
      matcher = compileGlob(split.glob);
    } catch (error) {
      return { isError: true, content: `glob: invalid pattern "${pattern}": ${(error as Error).message}` };
    }

    const deadlineMs = this.options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const startRel = relativeToRoot(searchDir.root, walkStart);
    const startPrefix = startRel === '' ? 0 : startRel.length + 1;
    let walkStartInfo;
    try {
      walkStartInfo = statSync(fsPath(walkStart));
    } catch {
      walkStartInfo = undefined;
    }
    // Files a read rule denies are never listed, whatever the search root.
    const hidden = this.options.searchPolicy?.({ start: walkStart, projectRoot: ctx.projectRoot, sessionId: ctx.sessionId })?.hiddenFiles('glob');
    const respectIgnore = this.options.respectIgnore ?? true;
    const deadline = Date.now() + deadlineMs;
    // Newest first: only the matches are stat'ed, each as soon as it is listed, so the stats run
    // while ripgrep is still walking. Each is looked up in its directory through a verified
    // descriptor: ripgrep reads whatever a directory's name points to when it gets there, so a
    // directory swapped for a symlink to an outside one could report outside names; those (and a
    // match swapped for a symlink, whose target's mtime must not show) are dropped here.
    const dated: { rel: string; mtime: number }[] = []; // rel: the shown name (display-name.ts)
    const exact = new ExactLstat();
    const onFile = (rel: string, bytes?: Buffer): void => {
      if (!matcher(rel.slice(startPrefix)) || hidden?.(joinRoot(searchDir.root, rel))) return;
      const info = exact.lstat(bytes ? joinRootBytes(searchDir.root, bytes) : joinRoot(searchDir.root, rel));
      if (info?.isFile()) dated.push({ rel: displayName(rel, bytes), mtime: info.mtimeMs });
    };
    let summary: { unreadableDirs: number; stopped?: 'deadline' | 'aborted' } = { unreadableDirs: 0 };
    try {
      if (walkStartInfo?.isDirectory()) {
        const engine = this.options.engine ?? 'auto';
        // ripgrep takes its start as an argument, which cannot carry bytes that are not UTF-8: the walker lists such a start.
        const rgPath = engine === 'walker' || hasEscapedBytes(startRel) ? undefined : (this.options.rgPath ?? findRipgrep(process.env.PATH, ctx.projectRoot));
        let listed = false;
        if (rgPath) {
          // ripgrep walks on every core; the walker is the fallback (same rules, ripgrep-selection.ts).
          const outcome = await listWithRipgrep({ rgPath, root: searchDir.root, startRel, respectIgnore, homeDir: ctx.homeDir, typeGlob: typeGlobFor(split.glob), signal: ctx.signal, deadline, onFile });
          if (outcome.failed === undefined) {
            summary = outcome;
            listed = true;
          } else {
            dated.length = 0;
          }
        }
        if (!listed) summary = await walkProject({ root: searchDir.root, start: walkStart, respectIgnore, homeDir: ctx.homeDir, signal: ctx.signal, deadline, onFile });
      }
    } finally {
      exact.close();
    }
    if (summary.stopped === 'aborted' || ctx.signal.aborted) return { isError: true, content: 'glob was cancelled.' };

    dated.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));

    const notes: string[] = [];
    if (summary.stopped === 'deadline') {
      notes.push(`[glob stopped at the ${Math.round(deadlineMs / 1000)} s limit before the whole tree was walked: the list is incomplete; narrow the pattern or path]`);
    }
    if (summary.unreadableDirs > 0) {
      notes.push(`[${plural(summary.unreadableDirs, 'directory', 'directories')} could not be read (permission denied or I/O error) and ${summary.unreadableDirs === 1 ? 'was' : 'were'} skipped]`);
    }

    if (dated.length === 0) {
      const lines = [`No files match "${pattern}" in ${where}.`];
      const hints: string[] = [];
      if (!split.glob.includes('/') && !split.glob.startsWith('**') && !split.glob.startsWith('!')) {
        hints.push(`"${split.glob}" only matches files directly in ${where}; use "**/${split.glob}" to search subdirectories.`);
      }
      hints.push('Hidden directories and files ignored by .gitignore, .ignore or .rgignore are not searched.');
      lines.push(hints.join(' '));
      return { content: [...lines, ...notes].join('\n') };
    }

    const max = this.limits.searchMaxResults;
    const given = split.base === '' ? givenNames(searchDir, pathInput) : (rel: string): string => rel;
    const shown = dated.slice(0, max).map((d) => prefix + given(d.rel));
    const out = [...shown];
    if (dated.length > max) {
      const more = dated.length - max;
      out.push(`[… ${plural(more, 'more matching file')} not shown (showing the ${max} most recently modified of ${dated.length}); narrow the pattern or path]`);
    }
    out.push(...notes);
    return { content: out.join('\n') };
  }

  private literal(pattern: string, root: string, absolute: string, prefix: string): ToolOutput {
    // Looked up through a verified descriptor of its directory; a symlink is not listed, as in a walk.
    const exact = new ExactLstat();
    let info: Stats | undefined;
    try {
      info = exact.lstat(absolute);
    } finally {
      exact.close();
    }
    if (info?.isFile()) return { content: prefix + displayName(relativeToRoot(root, absolute)) };
    if (info?.isDirectory()) {
      const rel = displayPath(relativeToRoot(root, absolute), prefix);
      return { content: `"${pattern}" is a directory; glob lists files. Use "${rel === '.' ? '' : `${rel}/`}**" to list the files inside it.` };
    }
    return { content: `No file "${pattern}" exists (glob patterns use *, ** and {a,b}; this one has none).` };
  }
}
