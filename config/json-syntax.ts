/**
 * Precise messages for JSON syntax errors. `.json` config files are parsed with the YAML
 * parser (to keep positions), but YAML accepts things JSON does not (trailing commas, comments,
 * single quotes, unquoted keys), so a `.json` file is first checked with `JSON.parse`.
 */

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
    const message = raw
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '') // V8 quotes (part of) the source
      .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1))
      .trim();
    const offset = at ? Number(at[1]) : jsonErrorOffset(text);
    return { offset: offset < 0 ? 0 : offset, message: `invalid JSON: ${message}` };
  }
}

class JsonFail {
  constructor(readonly at: number) {}
}

/**
 * Offset of the first JSON syntax error (`text.length` for an unexpected end), -1 if the text
 * is valid. Only used for the few V8 messages that carry no position, so it favours brevity.
 */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  let i = 0;
  const fail = (at: number): never => {
    throw new JsonFail(Math.min(at, n));
  };
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  const ws = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const digits = (): void => {
    if (!isDigit(text[i])) fail(i);
    while (isDigit(text[i])) i++;
  };
  const str = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail(n);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail(i);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u') {
          for (let k = 2; k < 6; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail(i + k);
          i += 6;
        } else fail(i + 1);
      } else i++;
    }
  };
  const num = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    if (i >= n) fail(n);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i);
        str();
        ws();
        if (text[i] !== ':') fail(i);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail(i);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail(i);
      }
    }
    if (c === '"') return str();
    if (c === '-' || isDigit(c)) return num();
    for (const literal of ['true', 'false', 'null']) {
      if (literal[0] !== c) continue;
      for (let k = 0; k < literal.length; k++) if (text[i + k] !== literal[k]) fail(i + k);
      i += literal.length;
      return;
    }
    fail(i);
  };
  try {
    value();
    ws();
    if (i < n) fail(i);
    return -1;
  } catch (error) {
    if (error instanceof JsonFail) return error.at;
    return 0; // e.g. nesting deep enough to exhaust the stack: point at the start
  }
}
