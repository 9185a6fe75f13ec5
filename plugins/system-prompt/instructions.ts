/**
 * Project instructions (U3): MEWCODE.md, AGENTS.md and CLAUDE.md from ~/.mewcode/ (the
 * user's, first) and the project root. Read once per session; each file is capped so one huge
 * file cannot crowd out the conversation. The project's files go through the shared reader of
 * project-supplied files (config/project-file.ts): a repository's `CLAUDE.md -> ~/.ssh/id_rsa`
 * or a FIFO named `CLAUDE.md` is skipped with a warning instead of reaching the model or hanging
 * the start. The user's own files may be links anywhere (dotfile managers make them).
 */
import path from 'node:path';
import { projectBoundary, readProjectTextFile } from '../../config/project-file.js';

export const INSTRUCTION_FILES = ['MEWCODE.md', 'AGENTS.md', 'CLAUDE.md'] as const;
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

export interface InstructionFile {
  file: string;
  text: string;
  truncated: boolean;
}

/** Whose files to read: the user's (`~/.mewcode/`) and the project's (default both). */
export interface InstructionSources {
  user: boolean;
  project: boolean;
}

/** `warn` is told each file that exists but is not used, and why. */
export function readInstructionFiles(
  homeDir: string,
  projectRoot: string,
  warn: (message: string) => void = () => undefined,
  sources: InstructionSources = { user: true, project: true },
): InstructionFile[] {
  // A project that is the home directory has no files of its own: ~/CLAUDE.md is the user's.
  const root = projectBoundary(projectRoot, homeDir);
  const dirs: { dir: string; root?: string }[] = [];
  if (sources.user) dirs.push({ dir: path.join(homeDir, '.mewcode') });
  if (sources.project) dirs.push({ dir: projectRoot, ...(root !== undefined ? { root } : {}) });
  const found: InstructionFile[] = [];
  for (const { dir, root } of dirs) {
    for (const name of INSTRUCTION_FILES) {
      const file = path.join(dir, name);
      const read = readProjectTextFile(file, { maxBytes: MAX_INSTRUCTION_BYTES, oversize: 'truncate', ...(root !== undefined ? { root } : {}) });
      if (!read.ok) {
        if (!read.missing) warn(`${file} is not used as instructions: ${read.reason}`);
        continue;
      }
      if (read.text.trim() !== '') found.push({ file, text: read.text, truncated: read.truncated });
    }
  }
  return found;
}

export function renderInstructions(files: readonly InstructionFile[]): string {
  if (files.length === 0) return '';
  const sections = files.map((f) => {
    const note = f.truncated ? `\n[truncated: only the first ${MAX_INSTRUCTION_BYTES} bytes of ${f.file} are included]` : '';
    return `## ${f.file}\n${f.text.trimEnd()}${note}`;
  });
  return `# Project instructions\nFollow these instructions from the user and the project; they override the defaults above.\n\n${sections.join('\n\n')}`;
}
