/**
 * Following Claude Code's `@path` imports of instruction files. A relative path is taken from the
 * importing file's folder, `~/` from the home; imports nest up to MAX_IMPORT_DEPTH hops, and every
 * file is included once (cycles are cut). The caller places each imported file right after the
 * file that imports it, as a section of its own.
 *
 * A repository must not be able to send the user's secrets to the model, so where a file may be
 * imported from depends on who wrote the importing file:
 * - a project's file (CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md, anything it imports) imports
 *   only files inside the project, by real path (the shared reader of project files refuses a link
 *   out, a FIFO, a second hard link);
 * - the user's own file imports files in the home. A file there that lies in the project is held
 *   to the project as above (a link a repository commits pointing at `~/.ssh/id_rsa` stays out); others are
 *   the user's own and may be links (dotfile managers make them).
 * Everywhere: the read rules' denied (or asked-about) files are left out (the whole permission
 * chain, policy plugins included, then judges every file kept: judged-reads.ts), as are git's own files
 * (`.git/config` may hold a token in a remote URL), binary and non-UTF-8 files; each file is capped like an instruction file and all imports together at
 * MAX_IMPORTED_BYTES. Every refusal is a warning naming the importing file, its line and the path.
 */
import { isPrivateRecord } from '../../sdk/private-records.js';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readProjectTextFile } from '../../config/project-file.js';
import { isPathWithin } from '../../types/path-within.js';
import { candidates, importMentions, looksLikeFile } from './import-syntax.js';

/** Claude Code's limit: an import's import … five hops from the memory file. */
export const MAX_IMPORT_DEPTH = 5;
/** All imported text together, in UTF-8 bytes: two instruction files' worth. */
export const MAX_IMPORTED_BYTES = 128 * 1024;

/** Whose rules an importing file follows: the project's (held to `root`) or the user's (the home). */
export type ImportScope = { kind: 'project'; root: string } | { kind: 'user' };

export interface ImportedFile {
  file: string;
  /** Where the file really is (links followed): the permission chain judges this path too. */
  realPath: string;
  text: string;
  truncated: boolean;
  importedBy: string;
  /** The importing file's line and the path as written there (for warnings about this import). */
  importedAt: { line: number; written: string };
}

export interface ImportContext {
  homeDir: string;
  /** The project root its files are held to; undefined when the project is the home. */
  projectRoot: string | undefined;
  maxFileBytes: number;
  warn(message: string): void;
  /** True for a file the read rules deny or ask about (read_file would not read it unasked). */
  hidden?: ((absolutePath: string) => boolean) | undefined;
  /** Real paths already in the instructions: a file is included once. */
  included: Set<string>;
  /** Imported bytes so far (shared by every memory file's imports). */
  bytes: { total: number };
}

/** `dir`'s real path, or `dir` itself when it cannot be resolved. */
function realOr(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Whether `target` lies in `dir`, as written or by `dir`'s real path (a root given through a link). */
function within(dir: string, target: string): boolean {
  return isPathWithin(dir, target) || isPathWithin(realOr(dir), target);
}

/** Whether the home lies strictly inside `root` and `file` (as written or by real path) in the home. */
function inHomeBelow(root: string, file: string, homeDir: string): boolean {
  const home = realOr(homeDir);
  if (!isPathWithin(realOr(root), home) || realOr(root) === home) return false;
  return within(homeDir, file) || isPathWithin(home, realOr(file));
}

function expand(target: string, importer: string, homeDir: string): string {
  if (target === '~') return homeDir;
  if (target.startsWith('~/')) return path.join(homeDir, target.slice(2));
  return path.resolve(path.dirname(importer), target);
}

/** What is at `file`, links followed: a folder (a mention, not an import), something else, or nothing. */
function kindAt(file: string): 'folder' | 'other' | undefined {
  try {
    return statSync(file).isDirectory() ? 'folder' : 'other';
  } catch {
    return undefined;
  }
}

/** A path through a `.git` folder: git's own files (a remote URL there may hold a token). */
function inGitInternals(file: string): boolean {
  return file.split(path.sep).includes('.git');
}

/** The scope a file to import is read under, or why it may not be imported at all. */
function scopeFor(file: string, importerScope: ImportScope, context: ImportContext): ImportScope | { refused: string } {
  if (importerScope.kind === 'project') {
    if (!within(importerScope.root, file)) return { refused: "it is outside the project; a project's file may import only files inside it" };
    // A project that holds the home (one opened at / or /home) still does not own the user's files.
    if (inHomeBelow(importerScope.root, file, context.homeDir)) return { refused: "it is in your home, which the project holds but does not own; a project's file may not import from it" };
    return importerScope;
  }
  if (!within(context.homeDir, file)) return { refused: 'it is outside your home; your instruction files may import only files in it' };
  if (context.projectRoot !== undefined && within(context.projectRoot, file)) return { kind: 'project', root: context.projectRoot };
  return { kind: 'user' };
}

/**
 * The files `text` (the content of `importer`, at `depth` hops from a memory file) imports, each
 * followed by its own imports, in the order they are mentioned.
 */
export function followImports(importer: string, text: string, scope: ImportScope, depth: number, context: ImportContext): ImportedFile[] {
  const out: ImportedFile[] = [];
  for (const mention of importMentions(text)) {
    const where = `${importer}:${mention.line}`;
    const options = candidates(mention.target);
    const named = options[options.length - 1]!;
    // The first reading of the mention that names a file is the one meant.
    // A folder is left alone (`@src/` is a mention); a FIFO or device is named, and the reader refuses it.
    const chosen = options.map((written) => ({ written, file: expand(written, importer, context.homeDir) })).find(({ file }) => kindAt(file) === 'other');
    if (chosen === undefined) {
      const folder = options.some((written) => kindAt(expand(written, importer, context.homeDir)) === 'folder');
      if (!folder && looksLikeFile(named)) {
        const file = expand(named, importer, context.homeDir);
        const place = scopeFor(file, scope, context);
        context.warn(`${where}: @${named} is not imported: ${'refused' in place ? place.refused : 'it does not exist'}`);
      }
      continue;
    }
    const { written, file } = chosen;
    const refuse = (reason: string): void => context.warn(`${where}: @${written} is not imported: ${reason}`);
    const place = scopeFor(file, scope, context);
    if ('refused' in place) {
      refuse(place.refused);
      continue;
    }
    // Already in the instructions (a cycle, or a file two files import): quietly once.
    if (context.included.has(realOr(file))) continue;
    if (depth + 1 > MAX_IMPORT_DEPTH) {
      refuse(`imports are followed at most ${MAX_IMPORT_DEPTH} deep`);
      continue;
    }
    if (inGitInternals(file) || inGitInternals(realOr(file))) {
      refuse("it is one of git's own files, which are not instructions");
      continue;
    }
    if (isPrivateRecord(file)) {
      refuse("it is one of MewCode's session records, which no tool or import may read");
      continue;
    }
    if (context.hidden?.(file)) {
      refuse('the read rules (Read(…) deny or ask) cover it');
      continue;
    }
    const read = readProjectTextFile(file, {
      maxBytes: context.maxFileBytes,
      oversize: 'truncate',
      strictText: true,
      ...(place.kind === 'project' ? { root: place.root } : {}),
    });
    if (!read.ok) {
      refuse(read.reason);
      continue;
    }
    if (context.included.has(read.realPath)) continue;
    // The rules are checked on where the file really is too (a link's target may be denied).
    if (read.realPath !== file && isPrivateRecord(read.realPath)) {
      refuse("it leads into MewCode's session records, which no tool or import may read");
      continue;
    }
    if (read.realPath !== file && context.hidden?.(read.realPath)) {
      refuse('the read rules (Read(…) deny or ask) cover it');
      continue;
    }
    const bytes = Buffer.byteLength(read.text, 'utf8');
    if (context.bytes.total + bytes > MAX_IMPORTED_BYTES) {
      refuse(`imported files may total at most ${MAX_IMPORTED_BYTES} bytes, and this one (${bytes} bytes) would make ${context.bytes.total + bytes}`);
      continue;
    }
    context.included.add(read.realPath);
    if (read.text.trim() === '') continue;
    context.bytes.total += bytes;
    out.push({ file, realPath: read.realPath, text: read.text, truncated: read.truncated, importedBy: importer, importedAt: { line: mention.line, written } });
    out.push(...followImports(file, read.text, place, depth + 1, context));
  }
  return out;
}
