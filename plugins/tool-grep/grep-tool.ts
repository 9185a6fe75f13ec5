/**
 * The `grep` tool (T7): regex search over the project's files.
 *
 * Engines: ripgrep when `rg` is on PATH, otherwise re2js over the project walker. Both are
 * linear-time (a hostile pattern cannot hang the process), both take the same pattern language
 * (RE2, re-spelled for ripgrep in pattern.ts) and search the same files (ripgrep is given the
 * walker's rules as flags, sdk/search-common/ripgrep-selection.ts). ripgrep's JSON output is the
 * result — no file is read twice — after its lines are checked against the files themselves
 * through verified descriptors (rg-engine.ts: no link is followed out of the project, even one
 * swapped in during the search); both engines fill the same collector and renderer (results.ts),
 * so the output is identical whichever engine ran. A pattern ripgrep cannot take is searched
 * with re2js for that call.
 */
import type { SearchStart } from '../../sdk/search-common/search-tool-binding.js';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import type { PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { compilePathGlob } from '../../sdk/search-common/path-glob.js';
import { describeLocation, givenNames, resolveSearchLocation, type SearchLocation } from '../../sdk/search-common/search-path.js';
import { joinRoot, walkProject } from '../../sdk/search-common/walker.js';
import { findRipgrep } from '../../sdk/search-common/find-ripgrep.js';
import { typeGlobFor } from '../../sdk/search-common/ripgrep-selection.js';
import { compilePattern, tooLargeError, type CompiledPattern } from './pattern.js';
import { searchWithRe2js, type EngineOutcome, type FileToSearch } from './re2js-engine.js';
import { ResultCollector, type OutputMode, type SearchRequest } from './results.js';
import { searchWithRipgrep } from './rg-engine.js';
import { checkGrepFields, GREP_DESCRIPTION, GREP_INPUT_SCHEMA, MAX_CONTEXT, MODES } from './grep-definition.js';
import { typeFilter } from './file-types.js';
import { hasEscapedBytes } from '../../sdk/search-common/display-name.js';

export { GREP_DESCRIPTION, GREP_INPUT_SCHEMA };

export type GrepEngine = 'auto' | 'ripgrep' | 're2js';

export interface GrepToolOptions {
  /** 'auto' (default): ripgrep when found on PATH, else re2js. Tests and benchmarks force one. */
  engine?: GrepEngine;
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

export interface GrepRunInfo {
  /** The engine that produced the last result (for tests and benchmarks). */
  engine: 'ripgrep' | 're2js';
}

const DEFAULT_DEADLINE_MS = 30_000;

interface GrepRequest {
  /** Claude Code's `type` (ripgrep's `--type`), if given. */
  type: string | undefined;
  /** Claude Code's `offset` / `head_limit`, if either is given (head 0 = up to the cap). */
  offset: number | undefined;
  head: number | undefined;
  pattern: string;
  pathInput: string;
  glob: string | undefined;
  caseInsensitive: boolean;
  before: number;
  after: number;
  mode: OutputMode;
  /** Claude Code's `multiline` (ripgrep `-U --multiline-dotall`). */
  multiline: boolean;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function readCount(input: ToolInput, keys: string[]): Parsed<number | undefined> {
  for (const key of keys) {
    const raw = input[key];
    if (raw === undefined || raw === null) continue;
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      return { ok: false, error: `grep: "${key}" must be a whole number of lines ≥ 0 (got ${JSON.stringify(raw)}).` };
    }
    return { ok: true, value: Math.min(value, MAX_CONTEXT) };
  }
  return { ok: true, value: undefined };
}

function wholeNumber(input: ToolInput, key: string): Parsed<number | undefined> {
  const raw = input[key];
  if (raw === undefined || raw === null) return { ok: true, value: undefined };
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return { ok: false, error: `grep: "${key}" must be a whole number ≥ 0 (got ${JSON.stringify(raw)}).` };
  return { ok: true, value };
}

function parseRequest(input: ToolInput): Parsed<GrepRequest> {
  const fields = checkGrepFields(input);
  if (!fields.ok) return { ok: false, error: `${fields.error}.` };
  const rawMultiline = input.multiline;
  if (rawMultiline !== undefined && rawMultiline !== null && typeof rawMultiline !== 'boolean' && rawMultiline !== 'true' && rawMultiline !== 'false') {
    return { ok: false, error: 'grep: "multiline" must be true or false.' };
  }
  if (input['-n'] !== undefined && input['-n'] !== null && input['-n'] !== true && input['-n'] !== 'true') {
    return { ok: false, error: 'grep: "-n" can only be true: content lines always show their line numbers.' };
  }
  if (input.type !== undefined && input.type !== null && (typeof input.type !== 'string' || input.type.trim() === '')) {
    return { ok: false, error: 'grep: "type" must be a file type name such as "py", "js" or "rust" (ripgrep\'s --type).' };
  }
  const offset = wholeNumber(input, 'offset');
  if (!offset.ok) return offset;
  const head = wholeNumber(input, 'head_limit');
  if (!head.ok) return head;
  const pattern = input.pattern;
  if (typeof pattern !== 'string' || pattern === '') {
    return { ok: false, error: 'grep: "pattern" is required: a regular expression such as "useState" or "def \\w+\\(".' };
  }
  for (const key of ['path', 'glob', 'output_mode']) {
    const value = input[key];
    if (value !== undefined && value !== null && typeof value !== 'string') return { ok: false, error: `grep: "${key}" must be a string.` };
  }
  const mode = (input.output_mode ?? 'content') as OutputMode;
  if (!MODES.includes(mode)) {
    return { ok: false, error: `grep: output_mode must be one of ${MODES.map((m) => `"${m}"`).join(', ')} (got "${String(input.output_mode)}").` };
  }
  const rawCase = input.case_insensitive ?? input['-i'];
  if (rawCase !== undefined && rawCase !== null && typeof rawCase !== 'boolean' && rawCase !== 'true' && rawCase !== 'false') {
    return { ok: false, error: 'grep: "case_insensitive" must be true or false.' };
  }
  const context = readCount(input, ['context', '-C']);
  const before = readCount(input, ['before', '-B']);
  const after = readCount(input, ['after', '-A']);
  for (const parsed of [context, before, after]) if (!parsed.ok) return parsed;
  const ctx = (context as { value: number | undefined }).value ?? 0;
  const glob = typeof input.glob === 'string' && input.glob.trim() !== '' ? input.glob.trim() : undefined;
  return {
    ok: true,
    value: {
      type: typeof input.type === 'string' ? input.type.trim() : undefined,
      offset: offset.value,
      head: head.value,
      pattern,
      pathInput: typeof input.path === 'string' ? input.path : '',
      glob,
      caseInsensitive: rawCase === true || rawCase === 'true',
      before: (before as { value: number | undefined }).value ?? ctx,
      after: (after as { value: number | undefined }).value ?? ctx,
      mode,
      multiline: rawMultiline === true || rawMultiline === 'true',
    },
  };
}

export { typeGlobFor };

export class GrepTool implements Tool {
  readonly name = 'grep';
  readonly description = GREP_DESCRIPTION;
  readonly inputSchema = GREP_INPUT_SCHEMA;
  readonly readOnly = true;
  readonly validateInput = checkGrepFields;
  /** Which engine answered the most recent call (informational: tests and benchmarks read it). */
  lastRun: GrepRunInfo | undefined;

  constructor(
    private readonly limits: OutputLimits,
    private readonly options: GrepToolOptions = {},
  ) {}

  permissionTarget(input: ToolInput): PermissionTarget {
    return { kind: 'path', path: typeof input.path === 'string' && input.path !== '' ? input.path : '.' };
  }

  async execute(input: ToolInput, ctx: ToolContext): Promise<ToolOutput> {
    const parsed = parseRequest(input);
    if (!parsed.ok) return { isError: true, content: parsed.error };
    const request = parsed.value;
    const compiled = compilePattern(request.pattern, request.caseInsensitive, request.multiline);
    if (!compiled.ok) return { isError: true, content: compiled.error };
    const located = await resolveSearchLocation('grep', ctx.projectRoot, ctx.homeDir, request.pathInput, this.options.additionalDirectories?.(ctx));
    if (!located.ok) return { isError: true, content: located.error };
    const location = located.value;

    let accept: (rel: string) => boolean = () => true;
    if (request.glob !== undefined && location.kind === 'dir') {
      let matcher: (candidate: string) => boolean;
      try {
        // "*.ts" selects by file name at any depth; a glob with a `/` is matched against the path.
        matcher = compilePathGlob(request.glob, { matchBaseName: true });
      } catch (error) {
        return { isError: true, content: `grep: invalid glob "${request.glob}": ${(error as Error).message}` };
      }
      const prefix = location.relative === '' ? 0 : location.relative.length + 1;
      accept = (rel) => matcher(rel.slice(prefix));
    }
    const engine = this.options.engine ?? 'auto';
    // ripgrep takes its start as an argument, which cannot carry bytes that are not UTF-8 (a shown name given back): re2js searches it.
    const rgPath = engine === 're2js' || hasEscapedBytes(location.relative) ? undefined : (this.options.rgPath ?? findRipgrep(process.env.PATH, ctx.projectRoot));
    if (request.type !== undefined && location.kind === 'dir') {
      // Both engines filter by the same globs (ripgrep's list when rg is installed), so their results agree.
      const types = typeFilter(request.type, this.options.rgPath ?? findRipgrep(process.env.PATH, ctx.projectRoot));
      if (!types.ok) return { isError: true, content: types.error };
      const selected = accept;
      accept = (rel) => selected(rel) && types.test(rel);
    }
    // Files a read rule denies are left out of every search, whatever its root (both engines use accept).
    const hidden = this.options.searchPolicy?.({ start: location.absolute, projectRoot: ctx.projectRoot, sessionId: ctx.sessionId })?.hiddenFiles('grep');
    if (hidden) {
      const selected = accept;
      accept = (rel) => selected(rel) && !hidden(joinRoot(location.root, rel));
    }

    const cap = this.limits.searchMaxResults;
    const window = request.offset !== undefined || request.head !== undefined ? { offset: request.offset ?? 0, head: request.head ? Math.min(request.head, cap) : cap } : undefined;
    const searchRequest: SearchRequest = {
      mode: request.mode,
      before: request.before,
      after: request.after,
      // In content mode the window counts output lines, at least one per match: storing offset + head matches covers it.
      limit: window && request.mode === 'content' ? window.offset + window.head : cap,
      ...(window ? { window } : {}),
      prefix: location.prefix,
      rename: givenNames(location, request.pathInput),
      keepChars: 2 * this.limits.grepLineMaxChars + 8,
    };
    const deadlineMs = this.options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const deadline = Date.now() + deadlineMs;
    if (engine === 'ripgrep' && !rgPath) {
      return { isError: true, content: 'grep: the ripgrep engine was requested but `rg` is not on PATH. Install ripgrep, or use the default engine.' };
    }
    const respectIgnore = this.options.respectIgnore ?? true;

    let collector = new ResultCollector(searchRequest);
    let outcome: EngineOutcome | undefined;

    const ripgrepPattern = compiled.value.ripgrep;
    if (rgPath && ripgrepPattern !== undefined) {
      const rg = await searchWithRipgrep({
        rgPath,
        root: location.root,
        startRel: location.relative,
        pattern: compiled.value as CompiledPattern & { ripgrep: string }, // not spread: its re2js-only parts compile lazily
        respectIgnore,
        homeDir: ctx.homeDir,
        startIsFile: location.kind !== 'dir',
        typeGlob: request.glob !== undefined && location.kind === 'dir' ? typeGlobFor(request.glob) : undefined,
        accept,
        collector,
        signal: ctx.signal,
        deadline,
      });
      if (rg.failed === 'size') return { isError: true, content: tooLargeError(request.pattern) };
      if (rg.failed === undefined) {
        this.lastRun = { engine: 'ripgrep' };
        outcome = rg;
      } else collector = new ResultCollector(searchRequest); // the fallback starts afresh
    }

    if (!outcome) {
      outcome = await this.searchFallback(location, compiled.value, respectIgnore, ctx.homeDir, accept, collector, ctx.signal, deadline);
      this.lastRun = { engine: 're2js' };
    }
    if (outcome.stopped === 'aborted' || ctx.signal.aborted) return { isError: true, content: 'grep was cancelled.' };

    const where = describeLocation(location.relative, location.kind, location.prefix);
    const filters = [request.glob !== undefined ? `matching "${request.glob}"` : '', request.type !== undefined ? `of type "${request.type}"` : ''].filter((f) => f !== '');
    const noMatch = `No matches for "${request.pattern}" in ${where}${filters.length > 0 && location.kind === 'dir' ? ` (files ${filters.join(' and ')})` : ''}.`;
    const content = collector.render(this.limits, { unreadable: outcome.unreadable, tooLarge: outcome.tooLarge ?? 0, stoppedByDeadline: outcome.stopped === 'deadline' }, noMatch);
    return { content };
  }

  private async searchFallback(
    location: SearchLocation,
    pattern: CompiledPattern,
    respectIgnore: boolean,
    homeDir: string,
    accept: (rel: string) => boolean,
    collector: ResultCollector,
    signal: AbortSignal,
    deadline: number,
  ): Promise<EngineOutcome> {
    const files: FileToSearch[] = [];
    const walk = await walkProject({
      root: location.root,
      start: location.absolute,
      respectIgnore,
      homeDir,
      signal,
      deadline,
      onFile: (rel, bytes) => {
        if (location.kind !== 'file' && !accept(rel)) return;
        files.push(bytes ? { rel, bytes } : rel);
      },
    });
    if (walk.stopped) return { unreadable: walk.unreadableDirs, stopped: walk.stopped };
    const unreadableDirs = walk.unreadableDirs;
    const searched = await searchWithRe2js({ root: location.root, files, pattern, collector, signal, deadline });
    return { unreadable: searched.unreadable + unreadableDirs, tooLarge: searched.tooLarge ?? 0, ...(searched.stopped ? { stopped: searched.stopped } : {}) };
  }
}
