/**
 * Command substitutions hidden where tree-sitter-bash reads plain text: a backquoted command
 * inside `${x:-`…`}`, the body of a heredoc whose delimiter is unquoted, and backquotes nested
 * with `\``. Bash runs them; the parser finds their source here so it can be analysed too.
 * The scan is deliberately generous (quotes are not tracked): a false find only adds a segment.
 */

/**
 * Sources of every `$(…)` and `` `…` `` in `text` (backquoted ones unescaped as bash does);
 * with `backquotesOnly`, of the backquoted ones only (tree-sitter-bash does parse `$(…)` there).
 */
export function embeddedScripts(text: string, options: { backquotesOnly?: boolean } = {}, limit = 64): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      const end = closingParen(text, i + 2);
      if (!options.backquotesOnly) found.push(text.slice(i + 2, end));
      i = end;
    } else if (ch === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      found.push(unescapeBackquoted(text.slice(i + 1, j)));
      i = j;
    }
  }
  return found.filter((s) => s.trim() !== '');
}

/** Inside backquotes, `\\`, `` \` `` and `\$` lose their backslash before the text is run. */
export function unescapeBackquoted(text: string): string {
  return text.replace(/\\([\\`$])/g, '$1');
}

/** Index of the `)` closing a `$(` whose content starts at `from` (or the end of the text). */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return text.length;
}
