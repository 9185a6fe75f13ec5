/**
 * Shell unquoting of one word of the tree: quotes removed and escapes applied for the literal
 * parts; expansions (`$X`, `${X}`, `$(…)`, `` `…` ``, `$((…))`, `<(…)`) keep their source text,
 * as does a leading `~`. `literal` says whether the value is exactly what the shell would pass
 * (no expansion anywhere in the word).
 */
import type { SyntaxNode } from './syntax-tree.js';

export interface WordValue {
  value: string;
  literal: boolean;
}

const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
]);

export function wordValue(node: SyntaxNode, source: string): WordValue {
  switch (node.type) {
    case 'word':
      return { value: unescapeBare(source.slice(node.start, node.end)), literal: true };
    case 'raw_string':
      return { value: source.slice(node.start + 1, node.end - 1), literal: true };
    case 'ansi_c_string':
      return { value: decodeAnsiC(source.slice(node.start + 2, node.end - 1)), literal: true };
    case 'number':
    case 'variable_name':
    case 'file_descriptor':
      return { value: source.slice(node.start, node.end), literal: true };
    case 'string':
    case 'translated_string':
      return quotedValue(node, source);
    case 'concatenation':
    case 'command_name': {
      let value = '';
      let literal = true;
      let at = node.start;
      for (const child of node.children) {
        if (!child.named) continue; // anonymous tokens are covered by the gaps below
        // Gaps between the parts are literal source text (tree-sitter does not always cover them).
        if (child.start > at) value += unescapeBare(source.slice(at, child.start));
        const part = wordValue(child, source);
        value += part.value;
        literal &&= part.literal;
        at = child.end;
      }
      if (node.end > at) value += unescapeBare(source.slice(at, node.end));
      return { value, literal };
    }
    default:
      return { value: source.slice(node.start, node.end), literal: !EXPANSIONS.has(node.type) };
  }
}

/** Node types bash splits into words (and globs) when unquoted. */
const SPLITTING = new Set(['simple_expansion', 'expansion', 'command_substitution', 'brace_expression']);

/**
 * Whether bash may make several words of this word, or none (see Word.split): an unquoted
 * expansion, brace list or glob character in it. Quoted parts never split.
 */
export function maySplit(node: SyntaxNode, source: string): boolean {
  if (SPLITTING.has(node.type)) return true;
  if (node.type === 'word') return hasGlob(source.slice(node.start, node.end));
  if (node.type === 'variable_assignment') {
    const value = node.children.find((c) => c.field === 'value');
    return value !== undefined && maySplit(value, source);
  }
  if (node.type !== 'concatenation' && node.type !== 'command_name') return false;
  let at = node.start;
  for (const child of node.children) {
    if (!child.named) continue;
    if ((child.start > at && hasGlob(source.slice(at, child.start))) || maySplit(child, source)) return true;
    at = child.end;
  }
  return node.end > at && hasGlob(source.slice(at, node.end));
}

/** An unescaped `*`, `?` or `[` in bare text. */
function hasGlob(text: string): boolean {
  return /(?:^|[^\\])(?:\\\\)*[*?[]/.test(text);
}

/** The inside of "…": literal text with `\$ \` \" \\ \<newline>` escapes; expansions kept as written. */
function quotedValue(node: SyntaxNode, source: string): WordValue {
  const open = node.type === 'translated_string' ? 2 : 1;
  const innerStart = node.start + open;
  const innerEnd = source[node.end - 1] === '"' && node.end - 1 >= innerStart ? node.end - 1 : node.end;
  let value = '';
  let literal = true;
  let at = innerStart;
  for (const child of node.children) {
    if (!child.named) continue; // the quote tokens
    if (child.start > at) value += unescapeDouble(source.slice(at, Math.min(child.start, innerEnd)));
    if (child.type === 'string_content') value += unescapeDouble(source.slice(child.start, child.end));
    else {
      value += source.slice(child.start, child.end);
      literal = false;
    }
    at = Math.max(at, child.end);
  }
  if (innerEnd > at) value += unescapeDouble(source.slice(at, innerEnd));
  return { value, literal };
}

/** Backslash outside quotes: `\x` is `x`, backslash-newline disappears. */
export function unescapeBare(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      if (next !== '\n') out += next;
    } else out += ch;
  }
  return out;
}

/** Backslash inside double quotes escapes only `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDouble(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') out += next;
      i++;
    } else out += ch;
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Bash `$'…'` escapes (so `$'\x2f'` is `/`). */
export function decodeAnsiC(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch !== '\\' || i + 1 >= text.length) {
      out += ch;
      continue;
    }
    const next = text[++i]!;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const digits = (pattern: RegExp, max: number): string => {
      let taken = '';
      while (taken.length < max && i + 1 < text.length && pattern.test(text[i + 1]!)) taken += text[++i];
      return taken;
    };
    if (/[0-7]/.test(next)) {
      out += String.fromCharCode(parseInt(next + digits(/[0-7]/, 2), 8) & 0xff);
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const hex = digits(/[0-9a-fA-F]/, next === 'x' ? 2 : next === 'u' ? 4 : 8);
      if (hex === '') out += `\\${next}`;
      else {
        const code = parseInt(hex, 16);
        out += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
    } else if (next === 'c' && i + 1 < text.length) {
      out += String.fromCharCode(text.charCodeAt(++i) & 0x1f);
    } else {
      out += `\\${next}`;
    }
  }
  return out;
}
