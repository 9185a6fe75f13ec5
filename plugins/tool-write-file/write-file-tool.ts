/**
 * write_file (T3): create a file, or replace one the model has read. Parent directories are
 * created; an existing file keeps its mode; the write is atomic; the result says how many bytes
 * and lines were written. The new mtime is recorded as a write: the model knows the content it
 * just wrote, so a follow-up edit needs no re-read.
 *
 * Race-free (A15, sdk/file-tool-support/contained-fs.ts): the model's path is resolved
 * (links followed, as A3 does), its directory is opened and verified inside the project or an
 * allowed directory on the descriptor, and everything after that — the read-first check, the
 * temporary file, the rename — names the file through that descriptor, never through a link. A
 * file with other hard links is replaced by the rename, so no inode outside the project changes.
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { FileReadTracker } from '../../types/services.js';
import type { PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { containmentCode, fileScope, insideScope, openDirectory, openEntry, replaceEntry, type ContainedDir } from '../../sdk/file-tool-support/contained-fs.js';
import { writeThrough } from '../../sdk/file-tool-support/write-through.js';
import { freshForChange, seenText } from '../../sdk/file-tool-support/seen-text.js';
import type { FileToolOptions } from '../../sdk/file-tool-support/tool-scope.js';
import { checkWriteFileInput } from './input.js';
import { messages } from './messages.js';
import { resolveToolPath, type ToolPath } from '../../sdk/file-tool-support/tool-path.js';
import { judgedPathTarget, ledElsewhere } from '../../sdk/file-tool-support/judged-path.js';
import { WRITE_FILE_DEFINITION } from './definition.js';

export class WriteFileTool implements Tool {
  readonly name = WRITE_FILE_DEFINITION.name;
  readonly readOnly = WRITE_FILE_DEFINITION.readOnly;
  readonly category = WRITE_FILE_DEFINITION.category;
  readonly description = WRITE_FILE_DEFINITION.description;
  readonly inputSchema = WRITE_FILE_DEFINITION.inputSchema;

  constructor(
    private readonly reads: FileReadTracker,
    private readonly options: FileToolOptions = {},
  ) {}

  permissionTarget(input: ToolInput): Promise<PermissionTarget> {
    return judgedPathTarget(input, this.options.roots);
  }

  async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
    const checked = checkWriteFileInput(input);
    if (!checked.ok) return error(`write_file: ${checked.error}.`);
    const { content } = checked.value;
    const target = await resolveToolPath(checked.value.filePath, context.projectRoot, context.homeDir);
    const name = path.basename(target.real);
    if (context.signal.aborted) return error(messages.aborted(target.display));
    if (ledElsewhere(context, target.real)) return error(messages.raced(target.display));

    let dir: ContainedDir;
    try {
      const scope = fileScope(context.projectRoot, context.homeDir, this.options.additionalDirectories?.());
      // The project root (or an allowed directory) itself: a directory, whose parent is outside.
      if (scope.roots.includes(target.real)) return error(messages.directory(target.display));
      // Named here by the file's own real path (a link, maybe dangling, leads there); the
      // descriptor checks that follow catch what changes after this point.
      if (!insideScope(scope, target.real)) return error(messages.outside(target.display, target.real));
      dir = await openDirectory(path.dirname(target.real), scope, { create: true });
    } catch (cause) {
      return error(describeFsError(cause, target, 'write'));
    }
    // Opened where the path was resolved (and judged): a folder on the way swapped for a link since
    // leads the descriptor elsewhere, inside the project or not.
    if (dir.realPath !== path.dirname(target.real)) {
      await dir.close();
      return error(messages.raced(target.display));
    }
    let existing: Stats | undefined;
    const files = this.options.workspaceFiles?.();
    try {
      const key = path.join(dir.realPath, name);
      try {
        const entry = await openEntry(dir, name);
        existing = entry?.stats;
        await entry?.handle.close();
      } catch (cause) {
        return error(describeFsError(cause, target, 'inspect'));
      }
      if (existing) {
        if (existing.isDirectory()) return error(messages.directory(target.display));
        if (!existing.isFile()) return error(messages.notRegular(target.display));
        // An editor's buffer: its text decides too (an unsaved edit changes no mtime).
        let fresh;
        try {
          fresh = await freshForChange(this.reads, key, existing.mtimeMs, files, context.signal);
        } catch (cause) {
          return error(`Could not check ${target.display} before writing it: the editor did not give its text (${(cause as Error | undefined)?.message ?? String(cause)}). Nothing was written.`);
        }
        if (!fresh.ok) return error(fresh.reason === 'not-read' ? messages.notRead(target.display) : fresh.reason === 'text-changed' ? messages.textChanged(target.display) : messages.changedSinceRead(target.display));
      }
      if (context.signal.aborted) return error(messages.aborted(target.display));
      try {
        if (files?.writeText) this.reads.recordWrite(key, await writeThrough(files.writeText.bind(files), dir, name, key, content, existing, context.signal), seenText(content));
        else this.reads.recordWrite(key, (await replaceEntry(dir, name, content, existing)).mtimeMs);
      } catch (cause) {
        return error(describeFsError(cause, target, 'write'));
      }
    } finally {
      await dir.close();
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

export function describeFsError(cause: unknown, target: ToolPath, action: 'inspect' | 'write'): string {
  const contained = containmentCode(cause);
  if (contained === 'EOUTSIDE') return messages.outside(target.display, (cause as { realPath: string }).realPath);
  if (contained === 'ERACE') return messages.raced(target.display);
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
