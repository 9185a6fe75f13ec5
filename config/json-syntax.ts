/**
 * Precise messages for JSON syntax errors. `.json` config files are parsed with the YAML
 * parser (to keep positions), but YAML accepts things JSON does not (trailing commas, comments,
 * single quotes, unquoted keys), so a `.json` file is first checked with `JSON.parse`.
 *
 * V8's message is kept (it is the most precise), with its position when it gives one. For the
 * messages without a position, jsonc-parser (strict: no comments, no trailing commas) locates
 * the error: V8's "Unexpected token 'X'" is placed on the character X where jsonc-parser reports
 * an error, or just after a bad word it reports (jsonc-parser flags the word `tru`, V8 the
 * character after it: the first error alone would point one token early), and "Unexpected end"
 * at the end of the text.
 */
import { parse, type ParseError } from 'jsonc-parser';

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

/** undefined when `text` is valid JSON. */
export function checkJsonSyntax(text: string): JsonSyntaxError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const at = / in JSON at position (\d+)/.exec(raw);
    const plain = raw
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ''); // V8 quotes (part of) the source
    const message = plain
      .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1))
      .trim();
    const offset = at ? Number(at[1]) : locate(text, plain);
    return { offset: Math.max(0, Math.min(offset, text.length)), message: `invalid JSON: ${message}` };
  }
}

/** Where V8's position-less message applies (see the file comment). */
function locate(text: string, v8Message: string): number {
  if (/^Unexpected end of JSON input/.test(v8Message)) return text.length;
  const errors: ParseError[] = [];
  try {
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    return 0; // e.g. nesting deep enough to exhaust the stack: point at the start
  }
  const token = /^Unexpected token '(.+)'$/s.exec(v8Message)?.[1];
  if (token !== undefined) {
    // The token is where an error starts (`}` after `[1,`), or just after a bad word (`tru` + `\n`).
    for (const error of errors) {
      for (const at of [error.offset, error.offset + error.length]) if (text.startsWith(token, at)) return at;
    }
  }
  return errors[0]?.offset ?? 0;
}
