/**
 * Project instructions (U3): MEWCODE.md, AGENTS.md and CLAUDE.md from ~/.mewcode/ and Claude
 * Code's `~/.claude/CLAUDE.md` (the user's, first), then the project root's, its
 * `.claude/CLAUDE.md` and `CLAUDE.local.md` (Claude Code's other project memory files, read as
 * the root's are). `@path` imports are not followed: each file holding some is said once. Read once per session; each file is capped so one huge
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
  const files: { file: string; root?: string }[] = [];
  const inProject = root !== undefined ? { root } : {};
  if (sources.user) {
    for (const name of INSTRUCTION_FILES) files.push({ file: path.join(homeDir, '.mewcode', name) });
    files.push({ file: path.join(homeDir, '.claude', 'CLAUDE.md') });
  }
  if (sources.project) {
    for (const name of INSTRUCTION_FILES) files.push({ file: path.join(projectRoot, name), ...inProject });
    files.push({ file: path.join(projectRoot, '.claude', 'CLAUDE.md'), ...inProject });
    files.push({ file: path.join(projectRoot, 'CLAUDE.local.md'), ...inProject });
  }
  const found: InstructionFile[] = [];
  const seen = new Set<string>();
  for (const { file, root } of files) {
    // In the home directory, the project's .claude/CLAUDE.md is the user's: read once.
    if (seen.has(file)) continue;
    seen.add(file);
    const read = readProjectTextFile(file, { maxBytes: MAX_INSTRUCTION_BYTES, oversize: 'truncate', ...(root !== undefined ? { root } : {}) });
    if (!read.ok) {
      if (!read.missing) warn(`${file} is not used as instructions: ${read.reason}`);
      continue;
    }
    if (read.text.trim() === '') continue;
    found.push({ file, text: read.text, truncated: read.truncated });
    const imports = importsIn(read.text);
    if (imports.length > 0) warn(`${file}: @imports are not followed, so these files are not in the instructions: ${imports.join(', ')}`);
  }
  return found;
}

/**
 * Claude Code's `@path` imports in a memory file: `@` at a word's start followed by a path (one
 * holding a `/` or a `.`), outside code blocks and code spans, as Claude Code skips those.
 */
export function importsIn(text: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const match of prose.matchAll(/(?:^|\s)@([~\w./-][^\s]*)/g)) {
      const target = match[1]!.replace(/[.,;:!?)\]]+$/, '');
      if (/[./]/.test(target) && !found.includes(`@${target}`)) found.push(`@${target}`);
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
