/**
 * Arguments as current Claude Code places them: `$ARGUMENTS` is the whole string as typed;
 * `$ARGUMENTS[N]` and the shorthand `$N` are 0-based words (shell-style quoting); an index with no
 * word stays verbatim; `\$1` is a literal `$1`; `arguments:` names words (`$component`). A body
 * without `$ARGUMENTS` gets
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

const PLACEHOLDER = /\\\$(\d+)|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/;

/** A name `arguments:` may declare (`$component`). */
export const ARGUMENT_NAME = /^[A-Za-z_]\w*$/;

/**
 * The placeholders replaced; `placed` says whether the text had any. `names` are the file's
 * `arguments:` in order: `$name` is the word at its position, empty when there is none.
 */
export function placeArguments(body: string, args: string, names: readonly string[] = []): { text: string; placed: boolean } {
  const typed = args.trim();
  const words = splitWords(typed);
  let placed = false;
  const usable = names.filter((name) => ARGUMENT_NAME.test(name));
  // Always a fourth group (one that never matches without names), so the replacer's arguments keep their places.
  const named = usable.length > 0 ? `|\\$(${usable.join('|')})(?!\\w)` : '|(?!)()';
  const pattern = new RegExp(`${PLACEHOLDER.source}${named}`, 'g');
  const text = body.replace(pattern, (match, escaped: string | undefined, indexed: string | undefined, short: string | undefined, name: string | undefined) => {
    if (escaped !== undefined) return `$${escaped}`;
    // Any placeholder means the body places the arguments itself: nothing is appended.
    placed = true;
    if (name !== undefined) return words[usable.indexOf(name)] ?? '';
    const index = indexed ?? short;
    if (index === undefined) return typed;
    const word = words[Number(index)];
    return word === undefined ? match : word;
  });
  return { text, placed };
}

export function substituteArguments(body: string, args: string, alsoPlacedElsewhere = false, names: readonly string[] = []): string {
  const { text, placed } = placeArguments(body, args, names);
  const typed = args.trim();
  return !placed && !alsoPlacedElsewhere && typed ? `${text.replace(/\n+$/, '')}\n\nARGUMENTS: ${typed}` : text;
}
