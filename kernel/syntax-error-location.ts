/**
 * Where a plugin's syntax error is. On Node 20 the SyntaxError an ES module import rejects with
 * names neither the file nor the line (its stack starts inside Node's loader), and the file may be
 * any module the plugin's entry imports. So, only once an import has failed that way, the plugin's
 * own files are checked one by one with `node --check`, which compiles a file without running it
 * and prints `file:line`, the line and a caret: the entry first, then the relative imports it
 * names, breadth first, until one fails. Nothing here runs the plugin's code.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Files checked at most (a plugin's own modules, not its dependencies). */
const SYNTAX_CHECK_MAX_FILES = 40;
/** One check's time limit. */
const CHECK_TIMEOUT_MS = 5_000;

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** `file:line:column` of the first syntax error among the plugin's files, else undefined. */
export async function syntaxErrorLocation(entryFile: string): Promise<string | undefined> {
  const queue = [entryFile];
  const seen = new Set(queue);
  for (let index = 0; index < queue.length && index < SYNTAX_CHECK_MAX_FILES; index += 1) {
    const file = queue[index] as string;
    const failure = await checkSyntax(file);
    if (failure !== undefined) return failure;
    for (const next of await relativeImports(file)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return undefined;
}

/** `file:line:column` when `node --check` refuses the file; undefined when it compiles (or cannot be checked). */
function checkSyntax(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--check', file], { timeout: CHECK_TIMEOUT_MS, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, _stdout, stderr) => {
      resolve(error === null ? undefined : locationIn(stderr, file));
    });
  });
}

/**
 * Node's report starts `<file>:<line>`, then the source line and a caret under the column:
 * `/p/b.js:2\nfoo(1, 2;\n       ^\n\nSyntaxError: …`.
 */
function locationIn(stderr: string, file: string): string | undefined {
  const lines = stderr.split('\n');
  const head = /^(.*):(\d+)$/.exec(lines[0] ?? '');
  if (head === null || !/SyntaxError/.test(stderr)) return undefined;
  const caret = (lines[2] ?? '').indexOf('^');
  return `${file}:${head[2]}${caret >= 0 ? `:${caret + 1}` : ''}`;
}

/** The files `file`'s relative imports name. */
async function relativeImports(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const match of text.matchAll(RELATIVE_IMPORT)) found.push(path.resolve(path.dirname(file), match[1] as string));
  return found;
}
