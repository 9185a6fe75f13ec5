/**
 * The one way a configuration or settings file is read: MewCode's own config and settings
 * files, the Claude-shaped `settings.json` files, hook settings, `.mcp.json`, managed settings,
 * trust.json, `--mcp-config` files. Each is parsed whole (YAML or JSON, with positions), so a
 * file of tens of megabytes would freeze start-up for minutes: every reader goes through this
 * cap, and a file over it is refused with its name, never read or parsed. Built on the shared
 * reader of project files (project-file.ts): a regular file, never blocking on a FIFO, inside
 * the project when `root` is given.
 */
import { readProjectTextFile, readUpTo } from './project-file.js';

/** A configuration or settings file is at most this size: far more than any real one holds. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

export type ConfigFileRead =
  | { ok: true; text: string }
  /** `missing`: nothing by that name; otherwise `problem` names the file and says why it was refused. */
  | { ok: false; missing: boolean; reason: string; problem: string };

/** Reads `file` (inside `root` when given) if it is a regular file of at most MAX_CONFIG_FILE_BYTES. Never throws. */
export function readConfigFile(file: string, root?: string): ConfigFileRead {
  const read = readProjectTextFile(file, { maxBytes: MAX_CONFIG_FILE_BYTES, ...(root !== undefined ? { root } : {}) });
  if (read.ok) return { ok: true, text: read.text };
  return { ok: false, missing: read.missing, reason: read.reason, problem: `${file}: ${read.reason}` };
}

/**
 * The text of an already opened and checked descriptor (trust.json is opened with its own
 * ownership checks), under the same cap. `undefined` when it is over it.
 */
export function readConfigDescriptor(fd: number, sizeHint: number): string | undefined {
  if (sizeHint > MAX_CONFIG_FILE_BYTES) return undefined;
  const bytes = readUpTo(fd, MAX_CONFIG_FILE_BYTES + 1, sizeHint);
  return bytes.length > MAX_CONFIG_FILE_BYTES ? undefined : new TextDecoder('utf-8').decode(bytes);
}

/** The refusal of an oversized descriptor read, worded like readConfigFile's. */
export function overCapProblem(file: string): string {
  return `${file}: it is over the ${MAX_CONFIG_FILE_BYTES}-byte limit`;
}
