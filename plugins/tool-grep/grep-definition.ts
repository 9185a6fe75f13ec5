/** What the model sees of `grep`: loaded at boot, without the implementation (see index.ts). */
import type { JsonSchema, ToolInput, ToolInputCheck } from '../../types/tools.js';
import type { OutputMode } from './results.js';

export const MAX_CONTEXT = 50;
export const MODES: readonly OutputMode[] = ['content', 'files_with_matches', 'count'];

export const GREP_DESCRIPTION = [
  'Search file contents with a regular expression, line by line (multiline: true lets a match span lines).',
  'Syntax is RE2 (as in ripgrep and Go): no backreferences or lookaround, and matching is linear-time, so any pattern is safe; escape ( ) [ ] { } . * + ? ^ $ | \\ to match them literally. \\d \\w \\s \\b are ASCII.',
  'output_mode "content" (default) prints matching lines as `path:LINE: text`; with context, context lines are `path:LINE- text` and `--` separates non-adjacent groups. "files_with_matches" prints one path per line; "count" prints `path:N` (matching lines per file).',
  'Results are sorted by path, then line, and capped at 100 lines (or files); a final note says how many more there are. Lines longer than 500 characters are cut.',
  'Searches `path` (a directory or one file; default: the project root), skipping hidden directories, files ignored by .gitignore, .ignore or .rgignore, and binary files (containing a NUL byte).',
  '`glob` limits the files: "*.ts" or "*.{ts,tsx}" match file names, "src/**/*.ts" matches paths relative to `path`; `type` limits them to a ripgrep file type ("py", "js", "rust", "md"…). To find files by name, use glob.',
  '`offset` and `head_limit` page through the results like `| tail -n +N | head -n M`: files in files_with_matches and count modes, output lines in content mode. An unknown field is an error.',
].join(' ');

/** Every field grep takes, Claude Code's spellings included (anything else is an input error). */
export const FIELDS: readonly string[] = Object.freeze(['pattern', 'path', 'glob', 'type', 'output_mode', 'case_insensitive', 'context', 'before', 'after', 'offset', 'head_limit', 'multiline', '-i', '-n', '-A', '-B', '-C']);

export const GREP_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Regular expression (RE2 syntax), e.g. "function\\s+load\\w*" or "TODO|FIXME".' },
    path: { type: 'string', description: 'File or directory to search, relative to the project root. Default: the project root.' },
    glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.ts", "*.{js,jsx}", "src/**/*.py".' },
    case_insensitive: { type: 'boolean', description: 'Match letters regardless of case. Default false.' },
    context: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT, description: 'Lines of context before and after each match (content mode). Default 0.' },
    before: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT, description: 'Lines of context before each match; overrides context.' },
    after: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT, description: 'Lines of context after each match; overrides context.' },
    output_mode: { type: 'string', enum: [...MODES], description: 'content (default): matching lines; files_with_matches: paths only; count: matching lines per file.' },
    type: { type: 'string', description: 'Only search files of this ripgrep type, e.g. "py", "js" (also .jsx, .vue), "ts" (also .tsx), "rust", "go", "md".' },
    offset: { type: 'integer', minimum: 0, description: 'Skip this many entries (files, or output lines in content mode) before showing any. Default 0.' },
    head_limit: { type: 'integer', minimum: 0, description: 'Show at most this many entries (files, or output lines in content mode); 0 or absent: up to the usual cap.' },
    multiline: { type: 'boolean', description: 'Let a match span lines: `.` also matches a newline, and every line a match touches is shown (as rg -U --multiline-dotall); count then counts matches. Default false.' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

/**
 * The kernel's input check (before hooks and permissions): a field grep does not know is an input
 * error naming it — never silently dropped, since the model would trust a filter that did nothing.
 */
export function checkGrepFields(input: ToolInput): ToolInputCheck {
  for (const key of Object.keys(input)) {
    if (!FIELDS.includes(key)) {
      return { ok: false, error: `grep: unknown field "${key}". The fields are: ${FIELDS.filter((f) => !f.startsWith('-')).join(', ')} (and Claude Code's -i, -n, -A, -B, -C)` };
    }
  }
  return { ok: true, input };
}
