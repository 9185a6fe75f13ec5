/**
 * Claude Code's nested CLAUDE.md: a subfolder's instruction files (the names the project root's
 * are read under, instructions.ts) join the context when a file tool first touches a file below
 * that folder, not at the start. They go with that tool's result, as a reminder, never into the
 * stable system prompt (its prefix must stay byte-identical for the cache). Each is read under the
 * root files' rules: a project file really inside the project, capped like them, its `@path`
 * imports followed under the same rules and budget (imports.ts); a file the read rules deny or ask
 * about is not loaded, nor git's own folder. Each file once per session and agent; after a
 * compaction (whose summary may have dropped them) they may load again.
 */
import path from 'node:path';
import { projectBoundary, readProjectTextFile } from '../../config/project-file.js';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { followImports, type ImportContext } from './imports.js';
import { folderInstructionFiles, MAX_INSTRUCTION_BYTES, memoryTypeOf, type InstructionFile } from './instructions.js';

/** The folders strictly between the project root and `file`, the file's own included, outermost first. */
export function foldersBetween(projectRoot: string, file: string): string[] {
  const folders: string[] = [];
  for (let dir = path.dirname(file); isPathStrictlyWithin(projectRoot, dir); dir = path.dirname(dir)) folders.unshift(dir);
  return folders;
}

/** One session's (and agent's) nested loads: what is in its context already. */
export class NestedInstructions {
  /** Real paths in the context (the root's files and imports first), so nothing is read twice. */
  private included: Set<string>;
  private readonly bytes: { total: number };
  /** Folders already looked at (a folder with no file is looked at once too). */
  private readonly visited = new Set<string>();
  /** The project root the files are held to; undefined when the project is the home directory (resolved once). */
  private boundary: string | undefined | null = null;

  constructor(
    private readonly homeDir: string,
    private readonly projectRoot: string,
    private readonly root: { included: ReadonlySet<string>; bytes: number },
    private readonly warn: (message: string) => void,
    private readonly hidden: ((absolutePath: string) => boolean) | undefined,
  ) {
    this.included = new Set(root.included);
    this.bytes = { total: root.bytes };
  }

  /** The files `file` (absolute, a file tool's) brings into the context now, imports right after their importer. */
  load(file: string): InstructionFile[] {
    // A project that is the home directory has no subfolders of its own to read instructions from.
    if (this.boundary === null) this.boundary = projectBoundary(this.projectRoot, this.homeDir);
    const boundary = this.boundary;
    if (boundary === undefined) return [];
    const found: InstructionFile[] = [];
    for (const folder of foldersBetween(this.projectRoot, file)) {
      if (this.visited.has(folder)) continue;
      this.visited.add(folder);
      // git's own files are no instructions (and a file tool reading .git/ brings none).
      if (folder.split(path.sep).includes('.git')) continue;
      for (const candidate of folderInstructionFiles(folder)) found.push(...this.read(candidate, boundary));
    }
    return found;
  }

  private read(file: string, root: string): InstructionFile[] {
    if (this.hidden?.(file)) return [];
    const read = readProjectTextFile(file, { maxBytes: MAX_INSTRUCTION_BYTES, oversize: 'truncate', root });
    if (!read.ok) {
      if (!read.missing) this.warn(`${file} is not used as instructions: ${read.reason}`);
      return [];
    }
    // Quietly: what read_file would not read unasked never reaches the model this way (a link's target included).
    if (read.realPath !== file && this.hidden?.(read.realPath)) return [];
    if (this.included.has(read.realPath)) return [];
    this.included.add(read.realPath);
    if (read.text.trim() === '') return [];
    if (read.truncated) this.warn(`${file} is larger than the instruction limit; only its start is used`);
    const memoryType = memoryTypeOf(file, false);
    const context: ImportContext = { homeDir: this.homeDir, projectRoot: root, maxFileBytes: MAX_INSTRUCTION_BYTES, warn: this.warn, hidden: this.hidden, included: this.included, bytes: this.bytes };
    return [{ file, realPath: read.realPath, text: read.text, truncated: read.truncated, memoryType }, ...followImports(file, read.text, { kind: 'project', root }, 0, context).map((imported) => ({ ...imported, memoryType }))];
  }
}

/** The reminder that goes with the tool's result: each file a section headed by its path, as in the system prompt. */
export function renderNested(files: readonly InstructionFile[], trigger: string): string {
  const sections = files.map((f) => {
    const note = f.truncated ? `\n[truncated: only the first ${MAX_INSTRUCTION_BYTES} bytes of ${f.file} are included]` : '';
    const heading = f.importedBy !== undefined ? `${f.file} (imported by ${f.importedBy})` : f.file;
    return `## ${heading}\n${f.text.trimEnd()}${note}`;
  });
  return [
    '<system-reminder>',
    `Instruction files of the folders above ${trigger}, loaded as a file there was first touched: they apply to the files in those folders, as the project instructions do.`,
    '',
    sections.join('\n\n'),
    '</system-reminder>',
  ].join('\n');
}
