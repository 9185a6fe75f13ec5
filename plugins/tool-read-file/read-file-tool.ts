/**
 * read_file (T2): a window of a text file as numbered lines, read incrementally so that the
 * head of a huge file costs what the head costs. A successful read is recorded in the session's
 * FileReadTracker, which write_file and edit_file consult before changing an existing file (by the
 * plugin, once the output reached the model: delivered-reads.ts).
 *
 * Containment (A15) is checked on the opened descriptor (contained-fs.ts): a symlink swapped
 * after the permission check can point the open anywhere, but what was opened is only read when
 * it lies in the project root or an allowed directory.
 *
 * Hard links: a regular file with more than one link is read like any other. Its content is what
 * its name inside the project holds — bash, grep and any editor read it the same way — and a link
 * cannot be made to a file its maker could not already open (Linux's protected_hardlinks; the OS
 * sandbox hides secrets from the commands that could make one). Refusing would break reading
 * package stores that are hard links by design (pnpm's node_modules). What A15 forbids is changing
 * such an inode: write_file and edit_file replace the name by rename, so the other links — perhaps
 * outside the project — keep their content.
 */
import type { FileReadTracker, OutputLimits } from '../../types/services.js';
import type { JsonSchema, PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { checkReadFileInput } from './input.js';
import { continuationMarker, cutLinesNote, longLineNote, messages } from './messages.js';
import { nearbyNames } from './nearby-names.js';
import type { FileHandle } from 'node:fs/promises';
import type { WorkspaceFiles } from '../../types/workspace-io.js';
import { readWindow, textSource, type WindowRequest, type WindowResult, type WindowStop } from './read-window.js';
import type { SeenText } from '../../types/file-reads.js';
import { seenText } from '../../sdk/file-tool-support/seen-text.js';
import { sniffFileHead } from '../../sdk/file-tool-support/binary-sniff.js';
import { inPackageDirectory } from '../../config/project-file.js';
import { containmentCode, fileScope, openForRead, type FileScope } from '../../sdk/file-tool-support/contained-fs.js';
import { isWithin, resolveRealSync } from '../../sdk/path-containment.js';
import type { OutsideReads } from '../../sdk/file-tool-support/outside-read.js';
import type { FileToolOptions } from '../../sdk/file-tool-support/tool-scope.js';
import { displayPath, toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';
import { readFileDefinition } from './definition.js';
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';

export interface ReadFileToolOptions extends FileToolOptions {
  /**
   * Where a successful read is reported; default: recorded in the tracker at once. The plugin
   * records it only once the output reached the model (delivered-reads.ts).
   */
  recordRead?: (absolutePath: string, mtimeMs: number, context: ToolContext, seen?: SeenText) => void;
  /** Claude Code's allow rules for a file outside the project (sdk/file-tool-support/outside-read.ts). */
  outsideReads?: OutsideReads;
}

/** Right-aligns line numbers to six columns (`%6d`). */
const PADDING = '      ';

export class ReadFileTool implements Tool {
  readonly name = 'read_file';
  readonly readOnly = true;
  readonly category = 'read' as const;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The text cutLine appends to a cut line, quoted in the note that explains it. */
  private readonly lineCutMarker: string;

  constructor(
    private readonly limits: OutputLimits,
    private readonly reads: FileReadTracker,
    private readonly options: ReadFileToolOptions = {},
  ) {
    this.lineCutMarker = limits.cutLine('ab', 1).text.slice(1);
    const definition = readFileDefinition(limits);
    this.description = definition.description;
    this.inputSchema = definition.inputSchema;
  }

  permissionTarget(input: ToolInput): PermissionTarget {
    return { kind: 'path', path: filePathOf(input) ?? '' };
  }

  async execute(input: ToolInput, context: ToolContext): Promise<ToolOutput> {
    const checked = checkReadFileInput(input, this.limits.readMaxLines);
    if (!checked.ok) return error(`read_file: ${checked.error}.`);
    const { offset, limit } = checked.value;
    const absolute = toolPathAbsolute(checked.value.filePath, context.projectRoot, context.homeDir);
    const display = displayPath(absolute, context.projectRoot);

    // The real path of the opened descriptor is the tracker's key (a read via a link counts for
    // its target) and what containment is checked on.
    let opened;
    let scope: FileScope | undefined;
    try {
      scope = fileScope(context.projectRoot, context.homeDir, [...(this.options.additionalDirectories?.() ?? []), ...(this.options.readOnlyDirectories?.(context.session) ?? [])]);
      scope = await this.withOutsideGrant(scope, absolute, context);
      opened = await openForRead(absolute, scope);
    } catch (cause) {
      return error(await describeFsError(cause, absolute, display, scope));
    }
    const { handle: file, realPath: real } = opened;
    try {
      // fstat of the handle we read from: the mtime recorded belongs to the content shown.
      const info = await file.stat();
      if (info.isDirectory()) return error(messages.directory(display));
      if (!info.isFile()) return error(messages.notRegular(display, info.isFIFO() ? 'FIFO' : info.isSocket() ? 'socket' : 'device'));
      // A hard link is the same file under another name, which may lie outside the project and
      // cannot be found cheaply: only package directories, where pnpm, bun and uv link files from
      // their stores, are read with several links (config/project-file.ts).
      if (info.nlink > 1 && !inPackageDirectory(real, scope.roots.find((root) => isWithin(root, real)))) return error(messages.hardLinked(display, info.nlink));
      // The disk path stays as it was (no extra await); the front end's path is its own branch.
      const files = this.options.workspaceFiles?.();
      let window: WindowResult;
      let seen: SeenText | undefined;
      if (files?.readText) {
        const ranged = input.offset != null || input.limit != null;
        const fromFrontEnd = await frontEndWindow(files as Required<Pick<WorkspaceFiles, 'readText'>>, file, real, display, { offset, limit, maxBytes: this.limits.readMaxBytes, ranged }, context.signal);
        if (typeof fromFrontEnd === 'string') return error(fromFrontEnd);
        ({ window, seen } = fromFrontEnd);
      } else window = await readWindow(file, { offset, limit, maxBytes: this.limits.readMaxBytes }, context.signal);
      switch (window.kind) {
        case 'empty':
          this.recordRead(real, info.mtimeMs, context, seen);
          return { content: messages.empty(display) };
        case 'binary':
          return error(messages.binary(display, window.reason));
        case 'past-end':
          return error(messages.pastEnd(display, offset, window.totalLines));
        case 'aborted':
          return error(messages.aborted(display));
        case 'lines':
          this.recordRead(real, info.mtimeMs, context, seen);
          return { content: this.render(window.firstLine, window.lines, window.stop) };
      }
    } catch (cause) {
      return error(await describeFsError(cause, absolute, display));
    } finally {
      // Not awaited: nothing depends on it, and the result need not wait for one more round trip.
      void file.close().catch(() => undefined);
    }
  }

  /**
   * A file outside the scope that an allow rule names by absolute or `~/` path (what let the call
   * past the sandbox layer, decided again now: outside-read.ts) becomes one more root, the file
   * itself: the descriptor check then accepts that very file and nothing a swapped link leads to.
   */
  private async withOutsideGrant(scope: FileScope, absolute: string, context: ToolContext): Promise<FileScope> {
    if (!this.options.outsideReads) return scope;
    let real: string;
    try {
      real = resolveRealSync(absolute);
    } catch {
      return scope;
    }
    if (scope.roots.some((root) => isWithin(root, real))) return scope;
    const grant = await this.options.outsideReads({ toolName: this.name, projectRoot: context.projectRoot, homeDir: context.homeDir, written: absolute, real });
    return grant?.ok ? { roots: [...scope.roots, real] } : scope;
  }

  private recordRead(absolutePath: string, mtimeMs: number, context: ToolContext, seen: SeenText | undefined): void {
    if (this.options.recordRead) this.options.recordRead(absolutePath, mtimeMs, context, seen);
    else this.reads.recordRead(absolutePath, mtimeMs, seen);
  }

  /**
   * `%6d\t` numbering (T2), long lines cut, then the note and marker that say how to get the
   * rest. A plain loop with string concatenation: this runs once per call, before the JIT has
   * warmed up, over up to 2000 lines.
   */
  private render(firstLine: number, lines: string[], stop: WindowStop): string {
    const maxChars = this.limits.readLineMaxChars;
    let out = '';
    let anyCut = false;
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i] as string;
      if (line.length > maxChars) {
        const cut = this.limits.cutLine(line, maxChars);
        line = cut.text;
        anyCut ||= cut.truncated;
      }
      const number = String(firstLine + i);
      out += (i === 0 ? '' : '\n') + (number.length < 6 ? PADDING.slice(number.length) : '') + number + '\t' + line;
    }
    const lastLine = firstLine + lines.length - 1;
    if (anyCut && stop === 'long-line' && lines.length === 1) return out + '\n' + longLineNote(lastLine, maxChars, this.lineCutMarker);
    if (anyCut) out += '\n' + cutLinesNote(maxChars, this.lineCutMarker);
    const marker = continuationMarker(stop, firstLine + lines.length - 1, this.limits.readMaxBytes);
    if (marker) out += '\n' + marker;
    return out;
  }
}

/**
 * The window of a file a front end holds (TOKENS.WorkspaceFiles, an editor's unsaved buffers) for
 * its real path, and what was seen of its text (the read-first rule compares it before a change).
 * Every check before this was made on the file on disk; so is the binary refusal (the disk file's
 * head), so an editor's decoding of a binary file is never shown. A string is the error to return.
 *
 * A read of some lines (`offset` / `limit` given) asks the front end for those lines only (plus
 * one, which tells "more follows" from the end, as on disk), so a large buffer is not transferred
 * whole; they are numbered from `offset`. An empty answer past line 1 (past the end, or a front end
 * that gives nothing for a range) is read again whole, so the result says what it says on disk.
 */
async function frontEndWindow(
  files: Required<Pick<WorkspaceFiles, 'readText'>>,
  file: FileHandle,
  real: string,
  display: string,
  request: WindowRequest & { ranged: boolean },
  signal: AbortSignal,
): Promise<{ window: WindowResult; seen: SeenText } | string> {
  const sniff = await sniffFileHead(file);
  if (sniff.binary) return messages.binary(display, sniff.reason);
  try {
    const { offset, limit, maxBytes } = request;
    if (request.ranged && offset > 1) {
      const range = { line: offset, limit: limit + 1 };
      const text = await files.readText(real, signal, range);
      // More lines than asked for: a front end that ignored the range and sent the whole text.
      if (moreLinesThan(text, range.limit)) return { window: await readWindow(textSource(text), request, signal), seen: seenText(text, range) };
      if (text !== '') {
        const window = await readWindow(textSource(text), { offset: 1, limit, maxBytes }, signal);
        if (window.kind === 'lines') return { window: { ...window, firstLine: window.firstLine + offset - 1 }, seen: seenText(text, range) };
        if (window.kind !== 'empty' && window.kind !== 'past-end') return { window, seen: seenText(text, range) };
      }
    } else if (request.ranged) {
      const range = { line: 1, limit: limit + 1 };
      const text = await files.readText(real, signal, range);
      return { window: await readWindow(textSource(text), { offset: 1, limit, maxBytes }, signal), seen: seenText(text, range) };
    }
    const text = await files.readText(real, signal);
    return { window: await readWindow(textSource(text), request, signal), seen: seenText(text) };
  } catch (cause) {
    return messages.failed(display, describe(cause));
  }
}

/** Whether `text` has more than `count` lines (it stops counting there). */
function moreLinesThan(text: string, count: number): boolean {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    lines += 1;
    if (lines > count || (lines === count && at < text.length - 1)) return true;
  }
  return false;
}

/** `scope`: where similar names may be looked up for a missing file (none without it). */
export async function describeFsError(cause: unknown, absolute: string, display: string, scope?: FileScope): Promise<string> {
  const contained = containmentCode(cause);
  if (contained === 'EOUTSIDE') return messages.outside(display, (cause as { realPath: string }).realPath);
  if (contained === 'ERACE') return messages.raced(display);
  const code = (cause as NodeJS.ErrnoException).code;
  // Suggestions need a directory listing, so only the not-found path pays for it.
  if (code === 'ENOENT') return messages.notFound(display, scope ? await nearbyNames(absolute, display, scope) : []);
  if (code === 'ENOTDIR') return messages.notADirectoryOnTheWay(display);
  if (code === 'EACCES' || code === 'EPERM') return messages.permission(display);
  if (code === 'EISDIR') return messages.directory(display);
  return messages.failed(display, describe(cause));
}

function error(content: string): ToolOutput {
  return { content, isError: true };
}

function describe(cause: unknown): string {
  return (cause as Error | undefined)?.message ?? String(cause);
}
