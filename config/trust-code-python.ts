/**
 * The modules a piece of Python imports by name, read from its text wherever a statement may
 * stand: at a line's start, indented, after `;` or a `try:` / `if …:` / `else:` on the same line,
 * continued with `\` or over lines inside parentheses (`from m import (\n a,\n b,\n)`), `*`
 * imports, relative ones (`from . import x`, `from .pkg.mod import y`, `from .. import z`), and
 * the calls that import a literal name (`importlib.import_module`, `import_module('.x', pkg)`,
 * `__import__`, `runpy.run_module`). A best effort that errs towards more: an `import` in a
 * comment or a string counts too. File names in the text (`runpy.run_path("u.py")`) are found
 * by trust-code-literals.ts.
 */

export interface PythonImport {
  /** Leading dots of a relative import (0 for an absolute one). */
  dots: number;
  /** The dotted module (`a.b`), '' for `from . import x`. */
  module: string;
  /** What `from … import` names (`*` included); empty for `import a.b`. */
  names: string[];
}

const FROM = /(?<![\w.])from\s*((?:\.\s*)*)((?:[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)?)\s*import\b\s*(\([^)]*\)?|[^\n;]*)/g;
const IMPORT = /(?<![\w.])import\s+([^\n;]*)/g;
const DYNAMIC = /\b(?:import_module|__import__|run_module)\s*\(\s*[rRuU]?(["'])(\.*[\w.]+)\1/g;
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** `a as b, c.d` (or a parenthesised list over lines, comments in it) → the names. */
function importedNames(list: string): string[] {
  return list
    .replace(/#[^\n]*/g, '')
    .replace(/[()]/g, ' ')
    .split(',')
    .map((part) => part.trim().split(/\s+as\s+/)[0]!.replace(/\s*\.\s*/g, '.').trim())
    .filter((name) => name === '*' || DOTTED.test(name));
}

export function pythonImports(source: string): PythonImport[] {
  // A backslash continues a statement on the next line.
  const text = source.replace(/\\\r?\n/g, ' ');
  const found: PythonImport[] = [];
  for (const match of text.matchAll(FROM)) {
    const dots = match[1]!.replace(/\s/g, '').length;
    const module = match[2]!.replace(/\s/g, '');
    if (dots === 0 && module === '') continue;
    found.push({ dots, module, names: importedNames(match[3]!) });
  }
  for (const match of text.matchAll(IMPORT)) {
    // `import a, b as c` (the names of a `from … import` read again: more, never less).
    for (const name of importedNames(match[1]!)) if (name !== '*') found.push({ dots: 0, module: name, names: [] });
  }
  for (const match of text.matchAll(DYNAMIC)) {
    const name = match[2]!;
    const dots = /^\.*/.exec(name)![0].length;
    found.push({ dots, module: name.slice(dots), names: [] });
  }
  return found;
}
