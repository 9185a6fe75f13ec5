/**
 * The project walker's choice of files (walker.ts) spelled as ripgrep flags, for the search
 * tools that let ripgrep walk (grep's ripgrep engine, glob when `rg` is on PATH):
 * - ignore files: ripgrep reads `.gitignore`, `.ignore` and `.rgignore` below the start itself
 *   (`--no-require-git`: a `.gitignore` counts without a repository), never the global excludes
 *   (`--no-ignore-global`) nor files above the start (`--no-ignore-parent`); what the walker reads
 *   above the start is handed over in one `--ignore-file`, re-anchored to the root (ripgrep matches
 *   it relative to its working directory, which is the root): the rules that reach the project
 *   from its repository (outer-ignore.ts: `.git/info/exclude`, and a monorepo's `.gitignore` files
 *   above a package), then, for a search below the root, the root's and intermediate directories'
 *   ignore files. Without ignore files: `--no-ignore`.
 * - `--hidden` plus the override glob `!.*\/`: hidden files are listed, hidden directories are
 *   not entered. Symlinks are not followed (no `--follow`). No configuration file (`--no-config`).
 * Why not ripgrep's own parent handling (without `--no-ignore-parent`): it reads ignore files up
 * to the file system's root — with `--no-require-git` every parent's `.gitignore`, with or
 * without a repository, and without it a home directory kept in git (a `*` rule) hides every
 * project under it — and `.ignore` files of every parent; the walker reads parents only up to the
 * project's repository (outer-ignore.ts). An `--ignore-file` ranks below every ignore file under
 * the start and holds everywhere, nested repositories included; the walker ranks the outer rules
 * the same way, so a search of the whole project is the same in both engines.
 * Known differences, both only for a search started below the root (a `path`), since rules from
 * the project's directories above the start reach ripgrep as that explicit ignore file:
 * - those rules rank below every ignore file under the start, where the walker ranks by kind first
 *   (`.rgignore` over `.ignore` over `.gitignore`): they differ when a kind above the start and
 *   another kind under it disagree about the same path;
 * - a `.gitignore` above the start still applies inside a nested repository (a directory with a
 *   `.git`) under the start, where the walker, like git, stops it at that repository.
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reanchorIgnoreText } from './gitignore.js';
import { outerIgnoreLines } from './outer-ignore.js';
import { ancestorIgnoreTexts } from './walker.js';

export function selectionArgs(respectIgnore: boolean, ignoreFile: string | undefined): string[] {
  const args = ['--no-config', '--hidden', '--glob=!.*/'];
  if (respectIgnore) args.push('--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-exclude');
  else args.push('--no-ignore');
  if (ignoreFile) args.push(`--ignore-file=${ignoreFile}`);
  return args;
}

/**
 * The ignore rules the walker applies from above the start (lowest precedence first): the outer
 * rules (outer-ignore.ts), then the ancestors' `.gitignore`, `.ignore` and `.rgignore` files inside
 * the project, each kind shallowest first, re-anchored to the root. Below the start, ripgrep
 * reads them itself.
 */
export function rulesAboveStart(root: string, startRel: string, homeDir?: string): string[] {
  const lines = outerIgnoreLines(root, homeDir);
  for (const { rel, text } of ancestorIgnoreTexts(root, startRel).sort((a, b) => a.kind - b.kind)) lines.push(...reanchorIgnoreText(text, rel));
  return lines;
}

/**
 * Runs `use` with the flags for a search of `startRel` (a temporary ignore file when needed).
 * `homeDir`: the user's home directory (default: os.homedir()), see outer-ignore.ts.
 */
export async function withSelectionArgs<T>(
  root: string,
  startRel: string,
  respectIgnore: boolean,
  homeDir: string | undefined,
  use: (args: string[]) => Promise<T>,
): Promise<T> {
  const lines = respectIgnore ? rulesAboveStart(root, startRel, homeDir) : [];
  let ignoreFile: string | undefined;
  if (lines.length > 0) {
    ignoreFile = path.join(os.tmpdir(), `mewcode-search-${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}.ignore`);
    writeFileSync(ignoreFile, `${lines.join('\n')}\n`);
  }
  try {
    return await use(selectionArgs(respectIgnore, ignoreFile));
  } finally {
    if (ignoreFile) rmSync(ignoreFile, { force: true });
  }
}

/**
 * A file-name glob ripgrep can pre-filter with (`--type-add`), only when it selects a superset of
 * what picomatch selects: plain names with `*`, `?` and one level of `{a,b}`. The last segment of
 * a glob with `/` is used the same way (`src/**\/*.ts` → `*.ts`).
 */
export function typeGlobFor(glob: string): string | undefined {
  if (glob.startsWith('!')) return undefined;
  const braces = /\{[^{}]*\}/g;
  if (glob.replace(braces, '').match(/[{}]/)) return undefined; // nested or unbalanced braces
  for (const group of glob.match(braces) ?? []) if (group.includes('/')) return undefined;
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  if (last === '' || last.includes('**')) return undefined;
  return /^[A-Za-z0-9._\-*?{},]+$/.test(last) ? last : undefined;
}
