/**
 * How deeply a JSON or YAML text nests, measured on the text before any parser or walk sees it.
 * The parsers and every walk over their result recurse once per level: a repository's
 * `[[[[…` 200,000 deep overflows the stack, and when the overflow (or the memory it leaves short)
 * lands inside V8's regexp compiler the process aborts (`FATAL ERROR: RegExpCompiler Allocation
 * failed`), which no catch can stop. So a document nesting deeper than MAX_NESTING_DEPTH is
 * refused before it is parsed: the caller says which file and the limit, and skips it.
 *
 * One linear pass, no recursion: flow brackets (`[`, `{`: all of JSON, YAML's flow style) outside
 * quoted strings and comments, plus YAML's block nesting (each deeper indentation, each compact
 * `- - x` entry on a line); a block scalar's lines (after `|` or `>`) are text, not nesting. An
 * over-estimate at worst, far above what a settings file or a frontmatter needs.
 */

/** Deeper than any configuration a person writes; far below what overflows a walk. */
export const MAX_NESTING_DEPTH = 128;

const TOKEN_START = new Set(['', ' ', ':', ',', '[', '{', '-', '?']);

/** The first offset where the text nests deeper than `max`, or undefined. */
export function nestingTooDeep(text: string, max = MAX_NESTING_DEPTH): { offset: number; line: number } | undefined {
  let flow = 0;
  let line = 1;
  const indents: number[] = []; // the block levels open at this point
  let blockScalarIndent = -1; // inside a block scalar: lines indented more than this are text
  let i = 0;
  const n = text.length;
  while (i < n) {
    // At a line's start: its indentation.
    let indent = 0;
    while (i < n && text[i] === ' ') {
      indent++;
      i++;
    }
    const blank = i >= n || text[i] === '\n' || text[i] === '\r' || text[i] === '#';
    if (blockScalarIndent >= 0 && (blank || indent > blockScalarIndent)) {
      while (i < n && text[i] !== '\n') i++;
      i++;
      line++;
      continue;
    }
    blockScalarIndent = -1;
    if (!blank && flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      // A line that is a flow collection (`{…}`, JSON) is that node, not a level around it.
      if (text[i] !== '[' && text[i] !== '{') indents.push(indent);
      // Compact sequences: `- - - x` opens a level per dash after the first (the line's own level).
      let j = i;
      let dashes = 0;
      while (j + 1 < n && text[j] === '-' && (text[j + 1] === ' ' || text[j + 1] === '\t')) {
        if (dashes++ > 0) indents.push(indent + (j - i));
        j += 2;
        while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
      }
      if (indents.length > max) return { offset: i, line };
    }
    // The rest of the line: brackets outside strings and comments.
    let last = '';
    while (i < n && text[i] !== '\n') {
      const c = text[i]!;
      // A quote opens a string only where a token starts (`it's` in a plain scalar is text).
      if ((c === '"' || c === "'") && TOKEN_START.has(last)) {
        const quote = c;
        i++;
        while (i < n && text[i] !== quote) {
          if (quote === '"' && text[i] === '\\') i++;
          else if (text[i] === '\n') line++;
          i++;
        }
      } else if (c === '#' && (last === '' || last === ' ' || last === '\t')) {
        while (i < n && text[i] !== '\n') i++;
        break;
      } else if (c === '[' || c === '{') {
        flow++;
        if (flow + indents.length > max) return { offset: i, line };
      } else if (c === ']' || c === '}') {
        if (flow > 0) flow--;
      }
      if (c !== ' ' && c !== '\t' && c !== '\r') last = c;
      else last = ' ';
      i++;
    }
    if (flow === 0 && (last === '|' || last === '>' || /[|>][-+0-9]*\s*$/.test(lineTail(text, i)))) blockScalarIndent = indents[indents.length - 1] ?? 0;
    i++;
    line++;
  }
  return undefined;
}

/** The last few characters before `end` (the line's end), for the block-scalar indicator. */
function lineTail(text: string, end: number): string {
  const start = Math.max(0, end - 8);
  const tail = text.slice(start, end);
  const cut = tail.lastIndexOf('\n');
  return cut < 0 ? tail : tail.slice(cut + 1);
}

/**
 * `JSON.parse` for a file a project or the home supplies: V8's parser does not recurse, but every
 * walk over its result does (validation, cloning, `JSON.stringify`), so a text nesting deeper than
 * `max` is refused first, as a SyntaxError the caller's catch already reports with the file name.
 */
export function parseJsonWithinDepth(text: string, max = MAX_NESTING_DEPTH): unknown {
  const deep = nestingTooDeep(text, max);
  if (deep !== undefined) throw new SyntaxError(`nested more than ${max} levels deep at line ${deep.line} (the limit for a configuration file)`);
  return JSON.parse(text);
}
