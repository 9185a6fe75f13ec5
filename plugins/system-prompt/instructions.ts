/**
 * Project instructions (SPEC U3): MEWCODE.md, AGENTS.md and CLAUDE.md from ~/.mewcode/ (the
 * user's, first) and the project root. Read once per session; each file is capped so one huge
 * file cannot crowd out the conversation.
 */
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import path from 'node:path';

export const INSTRUCTION_FILES = ['MEWCODE.md', 'AGENTS.md', 'CLAUDE.md'] as const;
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

export interface InstructionFile {
  file: string;
  text: string;
  truncated: boolean;
}

export function readInstructionFiles(homeDir: string, projectRoot: string): InstructionFile[] {
  const dirs = [path.join(homeDir, '.mewcode'), projectRoot];
  const found: InstructionFile[] = [];
  for (const dir of dirs) {
    for (const name of INSTRUCTION_FILES) {
      const file = path.join(dir, name);
      const read = readCapped(file);
      if (read && read.text.trim() !== '') found.push({ file, ...read });
    }
  }
  return found;
}

function readCapped(file: string): { text: string; truncated: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_INSTRUCTION_BYTES + 1);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const truncated = length > MAX_INSTRUCTION_BYTES;
    // `stream: true` holds back an incomplete trailing sequence, so the cut never splits a character.
    const text = new TextDecoder('utf-8').decode(buffer.subarray(0, Math.min(length, MAX_INSTRUCTION_BYTES)), { stream: true });
    return { text, truncated };
  } finally {
    closeSync(fd);
  }
}

export function renderInstructions(files: readonly InstructionFile[]): string {
  if (files.length === 0) return '';
  const sections = files.map((f) => {
    const note = f.truncated ? `\n[truncated: only the first ${MAX_INSTRUCTION_BYTES} bytes of ${f.file} are included]` : '';
    return `## ${f.file}\n${f.text.trimEnd()}${note}`;
  });
  return `# Project instructions\nFollow these instructions from the user and the project; they override the defaults above.\n\n${sections.join('\n\n')}`;
}
