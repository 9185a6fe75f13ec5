/**
 * The text of a file before an allowed write_file / edit_file changes it, so the editor is shown
 * the whole change (`{type: 'diff', path, oldText, newText}`) instead of only the replaced lines.
 * Taken when the permission chain has allowed the call (permissionDecided), never for a call the
 * layers refused; bounded to small regular UTF-8 files (anything else shows the call's own input).
 * How the text is read is a parameter, so a session whose files live in the editor's buffers can
 * read those instead of the disk.
 */
import { lstat, readFile } from 'node:fs/promises';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { absolutePath } from './tool-calls.js';

export const SNAPSHOT_PLUGIN = 'ui-acp-edit-snapshots';
const MAX_SNAPSHOT_BYTES = 1024 * 1024;
/** Snapshots kept at once (each at most MAX_SNAPSHOT_BYTES). */
const MAX_KEPT = 32;
const EDIT_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

export type ReadBefore = (absolutePath: string) => Promise<string | undefined>;

/** The file's text when it is a regular file of at most 1 MiB that decodes as UTF-8; undefined otherwise (a new file included). */
export const readBeforeFromDisk: ReadBefore = async (file) => {
  try {
    const info = await lstat(file);
    if (!info.isFile() || info.size > MAX_SNAPSHOT_BYTES) return undefined;
    const bytes = await readFile(file);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text;
  } catch {
    return undefined;
  }
};

/** How long the snapshot waits for the editor's buffer before showing the file on disk. */
const EDITOR_SNAPSHOT_WAIT_MS = 5_000;

/**
 * The editor's buffer (unsaved changes included), which is what the edit will apply to, for a file
 * that passes readBeforeFromDisk's bounds on disk; the disk text when the editor does not answer.
 */
export function readBeforeFromEditor(readText: (file: string, signal: AbortSignal) => Promise<string>): ReadBefore {
  return async (file) => {
    const onDisk = await readBeforeFromDisk(file);
    if (onDisk === undefined) return undefined;
    try {
      const text = await readText(file, AbortSignal.timeout(EDITOR_SNAPSHOT_WAIT_MS));
      return Buffer.byteLength(text, 'utf8') <= MAX_SNAPSHOT_BYTES ? text : undefined;
    } catch {
      return onDisk;
    }
  };
}

export class EditSnapshots {
  private readonly texts = new Map<string, string | undefined>();
  constructor(readonly readBefore: ReadBefore = readBeforeFromDisk) {}

  async take(toolCallId: string, file: string): Promise<void> {
    this.texts.set(toolCallId, await this.readBefore(file));
    // A sub-agent's calls end outside the turn's events, so nobody takes theirs out: the oldest go.
    while (this.texts.size > MAX_KEPT) this.texts.delete(this.texts.keys().next().value!);
  }

  /** The text before the call, once (undefined when none was taken or the file did not exist). */
  takeOut(toolCallId: string): string | undefined {
    const text = this.texts.get(toolCallId);
    this.texts.delete(toolCallId);
    return text;
  }
}

export function editSnapshotPlugin(snapshots: EditSnapshots): MewcodePlugin {
  return definePlugin({
    name: SNAPSHOT_PLUGIN,
    apply(kernel) {
      kernel.hooks.permissionDecided.tapPromise(SNAPSHOT_PLUGIN, async ({ request, allowed, toolCallId }) => {
        if (!allowed || !EDIT_TOOLS.has(request.toolName) || request.target.kind !== 'path' || request.target.path === '') return;
        await snapshots.take(toolCallId, absolutePath(request.target.path, kernel.projectRoot, kernel.homeDir));
      });
    },
  });
}
