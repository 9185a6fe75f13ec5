/**
 * Arguments as current Claude Code places them: `$ARGUMENTS` is the whole string as typed;
 * `$ARGUMENTS[N]` and the shorthand `$N` are 0-based words (shell-style quoting); an index with no
 * word stays verbatim; `\$1` is a literal `$1`. A body without `$ARGUMENTS` gets
 * `ARGUMENTS: <text>` appended when there are arguments and it has no placeholder at all.
 */

/** Words as a shell splits them: quotes group, a backslash escapes the next character. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

const PLACEHOLDER = /\\\$(\d+)|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g;

/** The placeholders replaced; `placed` says whether the text had any. */
export function placeArguments(body: string, args: string): { text: string; placed: boolean } {
  const typed = args.trim();
  const words = splitWords(typed);
  let placed = false;
  const text = body.replace(PLACEHOLDER, (match, escaped: string | undefined, indexed: string | undefined, short: string | undefined) => {
    if (escaped !== undefined) return `$${escaped}`;
    // Any placeholder means the body places the arguments itself: nothing is appended.
    placed = true;
    const index = indexed ?? short;
    if (index === undefined) return typed;
    const word = words[Number(index)];
    return word === undefined ? match : word;
  });
  return { text, placed };
}

export function substituteArguments(body: string, args: string, alsoPlacedElsewhere = false): string {
  const { text, placed } = placeArguments(body, args);
  const typed = args.trim();
  return !placed && !alsoPlacedElsewhere && typed ? `${text.replace(/\n+$/, '')}\n\nARGUMENTS: ${typed}` : text;
}
