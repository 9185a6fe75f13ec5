/**
 * write_file (SPEC T3): create a file, or replace one the model has read. Parent directories are
 * created; an existing file keeps its mode; the write is atomic (see atomic-write.ts); the result
 * says how many bytes and lines were written. The new mtime is recorded as read: the model knows
 * the content it just wrote, so a follow-up edit needs no re-read.
 */
import type { Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileReadTracker } from '../../types/services.js';
import type { JsonSchema, PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { writeFileAtomic } from '../../sdk/file-tool-support/atomic-write.js';
import { checkWriteFileInput } from './input.js';
import { readFirstProblem } from './read-first.js';
import { resolveToolPath, type ToolPath } from '../../sdk/file-tool-support/tool-path.js';

export class WriteFileTool implements Tool {
  readonly name = 'write_file';
  readonly readOnly = false;
  readonly category = 'write' as const;
  readonly description = [
    'Write a file: create a new file, or replace the whole content of an existing one. Parent directories are created as needed; an existing file keeps its permissions.',
    'To change part of an existing file, use edit_file instead: it is cheaper and cannot lose the parts you did not mean to touch.',
    'An existing file must have been read with read_file in this session (and not changed since) before it can be overwritten; otherwise the call is refused.',
    'content is written exactly as given (UTF-8, no line-number prefixes). Relative paths are relative to the project root; ~ is the home directory.',
  ].join(' ');
  readonly inputSchema: JsonSchema = {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file to write: relative to the project root, absolute, or starting with ~.' },
      content: { type: 'string', description: 'The complete content of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  };

  constructor(private readonly reads: FileReadTracker) {}

  permissionTarget(input: ToolInput): PermissionTarget {
    return { kind: 'path', path: typeof input.path === 'string' ? input.path : '' };
  }

  async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
    const checked = checkWriteFileInput(input);
    if (!checked.ok) return error(checked.error);
    const { content } = checked.value;
    const target = await resolveToolPath(checked.value.path, context.projectRoot, context.homeDir);

    const found = await statIfExists(target.real);
    if (!found.ok) return error(describeFsError(found.error, target, 'inspect'));
    const existing = found.stats;
    if (existing) {
      if (existing.isDirectory()) return error(`${target.display} is a directory; write_file writes files. Choose a file path inside it, e.g. ${target.display}/<name>.`);
      if (!existing.isFile()) return error(`${target.display} is not a regular file; write_file only writes regular files.`);
      const problem = readFirstProblem(this.reads, target.real, existing.mtimeMs, target.display);
      if (problem) return error(problem);
    }
    if (context.signal.aborted) return error(`write_file of ${target.display} was cancelled before anything was written.`);

    try {
      if (!existing) await mkdir(path.dirname(target.real), { recursive: true });
      await writeFileAtomic(target.real, content, existing);
      this.reads.recordRead(target.real, (await stat(target.real)).mtimeMs);
    } catch (cause) {
      return error(describeFsError(cause, target, 'write'));
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    const lines = countLines(content);
    return {
      content: `Wrote ${bytes} byte${bytes === 1 ? '' : 's'} (${lines} line${lines === 1 ? '' : 's'}) to ${target.display}${existing ? '' : ' (new file)'}.`,
    };
  }
}

/** Lines as an editor counts them: a final newline ends the last line rather than starting one. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** A result, not `instanceof Error`: errors from node:fs may come from another realm (vm contexts). */
async function statIfExists(file: string): Promise<{ ok: true; stats: Stats | undefined } | { ok: false; error: unknown }> {
  try {
    return { ok: true, stats: await stat(file) };
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'ENOENT' ? { ok: true, stats: undefined } : { ok: false, error: cause };
  }
}

export function describeFsError(cause: unknown, target: ToolPath, action: 'inspect' | 'write'): string {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    return `Permission denied: ${target.display} (or its directory) cannot be written by this process. Do not retry; ask the user to change the permissions, or write somewhere else.`;
  }
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return `Cannot write ${target.display}: a part of its directory path exists as a file, not a directory. Check the path.`;
  }
  if (code === 'EROFS') return `Cannot write ${target.display}: the filesystem is read-only.`;
  if (code === 'ENOSPC') return `Cannot write ${target.display}: no space left on the device. Nothing was changed.`;
  const reason = (cause as Error | undefined)?.message ?? String(cause);
  return `Could not ${action} ${target.display}: ${reason}.`;
}

function error(content: string): ToolOutput {
  return { content, isError: true };
}
