/**
 * edit_file (T4): replace an exact string in a file the model has read. Exactly one match
 * unless replace_all; zero or several matches are errors that say how to fix the call. The file
 * keeps its mode and its line endings, the write is atomic, and the result carries a short
 * unified diff so the model can check its change without reading the file again.
 *
 * An empty old_string creates the file when it does not exist (as Claude Code does), or fills an
 * existing empty file; on any other file it is refused, since "insert where?" has no answer.
 *
 * Race-free (A15, sdk/file-tool-support/contained-fs.ts): the file's directory is opened and
 * verified inside the project (or an allowed directory) on the descriptor; the file is read from
 * a descriptor opened through it without following links, and the result is written to a
 * temporary file there and renamed over the name. A file with other hard links is replaced by the
 * rename, so an inode that also has a name outside the project never changes.
 */

/** Where the edited file lives: its verified directory, its name there, and the tracker's key. */
interface Destination {
  target: ToolPath;
  dir: ContainedDir;
  name: string;
  key: string;
}
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import { freshForChange, seenText } from '../../sdk/file-tool-support/seen-text.js';
import type { PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { containmentCode, fileScope, insideScope, openDirectory, openEntry, replaceEntry, type ContainedDir } from '../../sdk/file-tool-support/contained-fs.js';
import type { FileToolOptions } from '../../sdk/file-tool-support/tool-scope.js';
import { editDiff, replaceAt } from './edit-diff.js';
import { checkEditFileInput, type EditFileInput } from './input.js';
import { matchText, stringVariants, toDisk } from './line-endings.js';
import { listLines, messages } from './messages.js';
import { noMatchMessage } from './no-match.js';
import { findOccurrences, LineIndex } from './text-index.js';
import { resolveToolPath, type ToolPath } from '../../sdk/file-tool-support/tool-path.js';
import { judgedPathTarget, ledElsewhere } from '../../sdk/file-tool-support/judged-path.js';
import { EDIT_FILE_DEFINITION } from './definition.js';
import type { WorkspaceFiles } from '../../types/workspace-io.js';
import { writeThrough } from '../../sdk/file-tool-support/write-through.js';
import { sniffFileHead } from '../../sdk/file-tool-support/binary-sniff.js';


export class EditFileTool implements Tool {
  readonly name = EDIT_FILE_DEFINITION.name;
  readonly readOnly = EDIT_FILE_DEFINITION.readOnly;
  readonly category = EDIT_FILE_DEFINITION.category;
  readonly description = EDIT_FILE_DEFINITION.description;
  readonly inputSchema = EDIT_FILE_DEFINITION.inputSchema;

  constructor(
    private readonly limits: OutputLimits,
    private readonly reads: FileReadTracker,
    private readonly options: FileToolOptions = {},
  ) {}

  permissionTarget(input: ToolInput): Promise<PermissionTarget> {
    return judgedPathTarget(input, this.options.roots);
  }

  async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
    const checked = checkEditFileInput(input);
    if (!checked.ok) return error(`edit_file: ${checked.error}.`);
    const edit = checked.value;
    if (edit.oldString === edit.newString) return error(messages.identical());
    const target = await resolveToolPath(edit.filePath, context.projectRoot, context.homeDir);
    const name = path.basename(target.real);
    if (ledElsewhere(context, target.real)) return error(messages.raced(target.display));

    let dir: ContainedDir;
    try {
      const scope = fileScope(context.projectRoot, context.homeDir, this.options.additionalDirectories?.());
      // The project root (or an allowed directory) itself: a directory, whose parent is outside.
      if (scope.roots.includes(target.real)) return error(messages.directory(target.display));
      // Named here by the file's own real path (a link, maybe dangling, leads there); the
      // descriptor checks that follow catch what changes after this point.
      if (!insideScope(scope, target.real)) return error(messages.outside(target.display, target.real));
      dir = await openDirectory(path.dirname(target.real), scope, { create: edit.oldString === '' });
    } catch (cause) {
      return error(describeFsError(cause, target));
    }
    // Opened where the path was resolved (and judged): a folder on the way swapped for a link since
    // leads the descriptor elsewhere, inside the project or not.
    if (dir.realPath !== path.dirname(target.real)) {
      await dir.close();
      return error(messages.raced(target.display));
    }
    try {
      return await this.editIn({ target, dir, name, key: path.join(dir.realPath, name) }, edit, context.signal);
    } finally {
      await dir.close();
    }
  }

  private async editIn(at: Destination, edit: EditFileInput, signal: AbortSignal): Promise<ToolOutput> {
    const { target } = at;
    let entry;
    try {
      entry = await openEntry(at.dir, at.name);
    } catch (cause) {
      return error(describeFsError(cause, target));
    }
    if (!entry) return edit.oldString === '' ? this.write(at, undefined, edit.newString, `Created ${target.display} with ${describeSize(edit.newString)}.`, signal) : error(messages.notFound(target.display));
    const { handle, stats: info } = entry;
    const files = this.options.workspaceFiles?.();
    let bytes: Buffer | undefined;
    try {
      if (info.isDirectory()) return error(messages.directory(target.display));
      if (!info.isFile()) return error(messages.notRegular(target.display));
      // The mtime first; an editor's buffer is compared once its text is here (below).
      const fresh = this.reads.checkFresh(at.key, info.mtimeMs);
      if (!fresh.ok) return error(fresh.reason === 'not-read' ? messages.notRead(target.display) : messages.changedSinceRead(target.display));
      if (info.size > this.limits.editMaxFileBytes) return error(messages.tooLarge(target.display, info.size, this.limits.editMaxFileBytes));
      if (files?.readText) {
        // The text comes from the front end's buffer; the binary refusal stays on the disk file's head.
        if ((await sniffFileHead(handle)).binary) return error(messages.notUtf8(target.display));
      } else bytes = await handle.readFile();
    } catch (cause) {
      return error(describeFsError(cause, target));
    } finally {
      await handle.close().catch(() => undefined);
    }
    let raw: string;
    if (bytes === undefined) {
      try {
        raw = await (files as Required<WorkspaceFiles>).readText(at.key, signal);
      } catch (cause) {
        return error(messages.failed(target.display, (cause as Error | undefined)?.message ?? String(cause)));
      }
      const size = Buffer.byteLength(raw, 'utf8');
      if (size > this.limits.editMaxFileBytes) return error(messages.tooLarge(target.display, size, this.limits.editMaxFileBytes));
      // An unsaved edit in the buffer changes no mtime: the text the model saw decides.
      let fresh;
      try {
        fresh = await freshForChange(this.reads, at.key, info.mtimeMs, files, signal, raw);
      } catch (cause) {
        return error(messages.failed(target.display, (cause as Error | undefined)?.message ?? String(cause)));
      }
      if (!fresh.ok) return error(messages.textChanged(target.display));
    } else {
      try {
        // fatal: a file that is not UTF-8 would be silently corrupted by a decode/encode round trip.
        raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        return error(messages.notUtf8(target.display));
      }
    }
    if (signal.aborted) return error(messages.aborted(target.display));
    return this.replace(at, info, raw, edit, signal);
  }

  private async replace(at: Destination, info: Stats, raw: string, edit: EditFileInput, signal: AbortSignal): Promise<ToolOutput> {
    const { target } = at;
    if (edit.oldString === '') {
      if (raw !== '') return error(messages.emptyOldOnNonEmpty(target.display));
      return this.write(at, info, edit.newString, `Wrote ${describeSize(edit.newString)} into the empty file ${target.display}.`, signal);
    }
    const { text, endings } = matchText(raw);
    let oldString = edit.oldString;
    let newString = edit.newString;
    let matches: number[] = [];
    for (const [oldVariant, newVariant] of stringVariants(edit.oldString, edit.newString, endings)) {
      matches = findOccurrences(text, oldVariant);
      [oldString, newString] = [oldVariant, newVariant];
      if (matches.length > 0) break;
    }
    const index = new LineIndex(text);
    if (matches.length === 0) return error(noMatchMessage(target.display, index, edit.oldString, { maxLines: this.limits.editHintMaxLines, lineMaxChars: this.limits.editHintLineMaxChars }, (line, max) => this.limits.cutLine(line, max).text));
    const lines = matches.map((m) => index.lineOf(m));
    if (matches.length > 1 && !edit.replaceAll) return error(messages.multiple(target.display, matches.length, lines));

    const updated = replaceAt(text, matches, oldString.length, newString);
    const diffLimits = { context: this.limits.editDiffContextLines, maxLines: this.limits.editDiffMaxLines, lineMaxChars: this.limits.editDiffLineMaxChars };
    const diff = editDiff(index, matches, oldString, newString, diffLimits, (line) => this.limits.cutLine(line, this.limits.editDiffLineMaxChars).text);
    const count = matches.length === 1 ? '1 occurrence' : `${matches.length} occurrences`;
    const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${listLines(lines)}`;
    const summary = [`Edited ${target.display}: replaced ${count} (${where}).`];
    if (endings === 'crlf') summary.push('CRLF line endings kept.');
    const body = [summary.join(' '), diff.text];
    if (!diff.complete) body.push(`[… diff cut at ${this.limits.editDiffMaxLines} lines; call read_file on ${target.display} with offset=${diff.resumeLine} to check the rest of the change.]`);
    return this.write(at, info, toDisk(updated, endings), body.filter((part) => part !== '').join('\n'), signal);
  }

  /** Write, then record the write: the model knows what the file now contains. */
  private async write(at: Destination, info: Stats | undefined, content: string, result: string, signal: AbortSignal): Promise<ToolOutput> {
    try {
      const files = this.options.workspaceFiles?.();
      if (files?.writeText) this.reads.recordWrite(at.key, await writeThrough(files.writeText.bind(files), at.dir, at.name, at.key, content, info, signal), seenText(content));
      else this.reads.recordWrite(at.key, (await replaceEntry(at.dir, at.name, content, info)).mtimeMs);
    } catch (cause) {
      return error(describeFsError(cause, at.target));
    }
    return { content: result };
  }
}

function describeSize(content: string): string {
  const bytes = Buffer.byteLength(content, 'utf8');
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return `${bytes} byte${bytes === 1 ? '' : 's'} (${lines} line${lines === 1 ? '' : 's'})`;
}

function describeFsError(cause: unknown, target: ToolPath): string {
  const contained = containmentCode(cause);
  if (contained === 'EOUTSIDE') return messages.outside(target.display, (cause as { realPath: string }).realPath);
  if (contained === 'ERACE') return messages.raced(target.display);
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return messages.notFound(target.display);
  if (code === 'ENOTDIR') return `${messages.notFound(target.display)} (A part of the path is a file, not a directory.)`;
  if (code === 'EACCES' || code === 'EPERM') return messages.permission(target.display);
  if (code === 'EISDIR') return messages.directory(target.display);
  return messages.failed(target.display, (cause as Error | undefined)?.message ?? String(cause));
}

function error(content: string): ToolOutput {
  return { content, isError: true };
}
