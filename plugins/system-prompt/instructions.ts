/**
 * Project instructions (U3): MEWCODE.md, AGENTS.md and CLAUDE.md from ~/.mewcode/ and Claude
 * Code's `~/.claude/CLAUDE.md` (the user's, first), then the project root's, its
 * `.claude/CLAUDE.md` and `CLAUDE.local.md` (Claude Code's other project memory files, read as
 * the root's are). Their `@path` imports are followed (imports.ts): each imported file is its
 * own section right after the file importing it, so a reader sees where every text comes from.
 * Read once per session; each file is capped so one huge file cannot crowd out the conversation. The project's files go through the shared reader of
 * project-supplied files (config/project-file.ts): a repository's `CLAUDE.md -> ~/.ssh/id_rsa`
 * or a FIFO named `CLAUDE.md` is skipped with a warning instead of reaching the model or hanging
 * the start. The user's own files may be links anywhere (dotfile managers make them).
 */
import path from 'node:path';
import { projectBoundary, readProjectTextFile } from '../../config/project-file.js';
import { followImports, type ImportContext } from './imports.js';
import type { InstructionMemoryType } from '../../types/instruction-loads.js';

export { MAX_IMPORT_DEPTH, MAX_IMPORTED_BYTES } from './imports.js';

export const INSTRUCTION_FILES = ['MEWCODE.md', 'AGENTS.md', 'CLAUDE.md'] as const;
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

export interface InstructionFile {
  file: string;
  text: string;
  truncated: boolean;
  /** Where the file really is (links followed): the permission chain judges this path too. */
  realPath?: string;
  /** Set on a file an `@path` import brought in: the file that imports it. */
  importedBy?: string;
  /** With `importedBy`: the importing file's line and the path as written there. */
  importedAt?: { line: number; written: string };
  /** Whose it is (an imported file is its instruction file's): the user's, the project's, the local one. */
  memoryType?: InstructionMemoryType;
}

/** Whose files to read: the user's (`~/.mewcode/`) and the project's (default both). */
export interface InstructionSources {
  user: boolean;
  project: boolean;
}

export interface ReadInstructionOptions {
  /** True for a file the read rules deny or ask about: such a file is never imported. */
  hidden?: ((absolutePath: string) => boolean) | undefined;
  /**
   * Filled with the real paths read and the imported bytes counted, so that files loaded later in
   * the session (a subfolder's, nested-instructions.ts) are not read twice and share the import budget.
   */
  included?: Set<string>;
  bytes?: { total: number };
}

/** A project folder's instruction files, in reading order (the root's, and a subfolder's: nested-instructions.ts). */
export function folderInstructionFiles(dir: string): string[] {
  return [...INSTRUCTION_FILES.map((name) => path.join(dir, name)), path.join(dir, '.claude', 'CLAUDE.md'), path.join(dir, 'CLAUDE.local.md')];
}

/** Claude Code's memory types: CLAUDE.local.md is the project's local file; the rest of the project's are the project's. */
export function memoryTypeOf(file: string, user: boolean): InstructionMemoryType {
  if (user) return 'User';
  return path.basename(file) === 'CLAUDE.local.md' ? 'Local' : 'Project';
}

/** `warn` is told each file that exists but is not used, and why. */
export function readInstructionFiles(
  homeDir: string,
  projectRoot: string,
  warn: (message: string) => void = () => undefined,
  sources: InstructionSources = { user: true, project: true },
  options: ReadInstructionOptions = {},
): InstructionFile[] {
  // A project that is the home directory has no files of its own: ~/CLAUDE.md is the user's.
  const root = projectBoundary(projectRoot, homeDir);
  const files: { file: string; root?: string; user?: true }[] = [];
  const inProject = root !== undefined ? { root } : {};
  if (sources.user) {
    for (const name of INSTRUCTION_FILES) files.push({ file: path.join(homeDir, '.mewcode', name), user: true });
    files.push({ file: path.join(homeDir, '.claude', 'CLAUDE.md'), user: true });
  }
  if (sources.project) {
    for (const file of folderInstructionFiles(projectRoot)) files.push({ file, ...inProject });
  }
  const found: InstructionFile[] = [];
  const seen = new Set<string>();
  const imports: ImportContext = {
    homeDir,
    projectRoot: root,
    maxFileBytes: MAX_INSTRUCTION_BYTES,
    warn,
    hidden: options.hidden,
    included: options.included ?? new Set(),
    bytes: options.bytes ?? { total: 0 },
  };
  for (const { file, root, user } of files) {
    // In the home directory, the project's .claude/CLAUDE.md is the user's: read once.
    if (seen.has(file)) continue;
    seen.add(file);
    const read = readProjectTextFile(file, { maxBytes: MAX_INSTRUCTION_BYTES, oversize: 'truncate', ...(root !== undefined ? { root } : {}) });
    if (!read.ok) {
      if (!read.missing) warn(`${file} is not used as instructions: ${read.reason}`);
      continue;
    }
    // Imported already (AGENTS.md importing @CLAUDE.md): included once, where it was imported.
    if (imports.included.has(read.realPath)) continue;
    imports.included.add(read.realPath);
    if (read.text.trim() === '') continue;
    const memoryType = memoryTypeOf(file, user === true);
    found.push({ file, realPath: read.realPath, text: read.text, truncated: read.truncated, memoryType });
    for (const imported of followImports(file, read.text, root !== undefined ? { kind: 'project', root } : { kind: 'user' }, 0, imports)) found.push({ ...imported, memoryType });
  }
  return found;
}

export function renderInstructions(files: readonly InstructionFile[]): string {
  if (files.length === 0) return '';
  const sections = files.map((f) => {
    const note = f.truncated ? `\n[truncated: only the first ${MAX_INSTRUCTION_BYTES} bytes of ${f.file} are included]` : '';
    const heading = f.importedBy !== undefined ? `${f.file} (imported by ${f.importedBy})` : f.file;
    return `## ${heading}\n${f.text.trimEnd()}${note}`;
  });
  return `# Project instructions\nFollow these instructions from the user and the project; they override the defaults above.\n\n${sections.join('\n\n')}`;
}
