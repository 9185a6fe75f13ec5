/**
 * `@path` in a command's body includes that file's content (a folder: its entries), as an @-mention
 * does in Claude Code.
 * Only a project file: the path is resolved with links followed (sdk/path-containment) and must
 * stay inside the project, and the permission chain is asked as for a `read_file` call: only an
 * outright allow includes it, so a deny rule (`Read(.env)`) or a read that would ask keeps it out. A `@word` that names no file is left as written (an e-mail
 * address, a decorator); a refused one is replaced by a note saying why.
 */
import { isPrivateRecord } from '../../sdk/private-records.js';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readProjectTextFile } from '../../config/project-file.js';
import { containPath } from '../../sdk/path-containment.js';
import { withoutSlots } from '../../config/command-shell-lines.js';

/** At line start or after whitespace, as Claude Code recognises a mention. */
const MENTION = /(^|\s)@([^\s`'"]+)/g;
const MAX_INCLUDE_BYTES = 256 * 1024;
const MAX_LISTED_ENTRIES = 200;

export type Reading = { ok: true; text: string } | { ok: false; reason: string };

export interface IncludeDeps {
  projectRoot: string;
  homeDir: string;
  /**
   * Reads this (resolved) path with `read` only if the layers and hooks allow it without asking,
   * and passes what was read through postToolUse (a redaction sees it): the text to include, or
   * why nothing is (a refusal, a failed read, withheld output).
   */
  readThrough(resolved: string, read: () => Promise<Reading>): Promise<Reading>;
  /** The files a folder's listing leaves out, by absolute path: those the Read rules hide from glob too. */
  hidden?: (absolutePath: string) => boolean;
}

/** What is at `target`, links followed: a file, a folder, or nothing a mention can name. */
async function kindAt(target: string): Promise<'file' | 'folder' | undefined> {
  const info = await stat(target).catch(() => undefined);
  return info?.isFile() ? 'file' : info?.isDirectory() ? 'folder' : undefined;
}

/**
 * A folder's entries, one level, folders marked with `/`, bounded (a mention is a glance, not a
 * walk). An entry the Read rules hide is left out, name and all, as glob leaves it out.
 */
async function listing(dir: string, hidden: ((absolutePath: string) => boolean) | undefined): Promise<string> {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => !isPrivateRecord(path.join(dir, entry.name)) && !hidden?.(path.join(dir, entry.name)))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
  const shown = entries.slice(0, MAX_LISTED_ENTRIES);
  return [...shown, ...(entries.length > shown.length ? [`… ${entries.length - shown.length} more`] : [])].join('\n');
}

async function includeOne(raw: string, deps: IncludeDeps): Promise<string | undefined> {
  // Trailing punctuation of a sentence is not part of the path (`see @README.md.`).
  const candidates = [raw, raw.replace(/[.,;:!?)\]]+$/, '')].filter((c, i, all) => c && all.indexOf(c) === i);
  for (const candidate of candidates) {
    const { inside, resolved } = await containPath(deps.projectRoot, candidate, deps.homeDir);
    if (!inside) {
      if ((await kindAt(resolved)) !== undefined) return `[@${candidate}: not included: the path is outside the project]`;
      continue;
    }
    const kind = await kindAt(resolved);
    if (kind === undefined) continue;
    const folder = kind === 'folder';
    const reading = await deps.readThrough(resolved, async (): Promise<Reading> => {
      if (folder) return { ok: true, text: await listing(resolved, deps.hidden).catch((error: Error) => `(cannot be listed: ${error.message})`) };
      // The shared reader of project files: a regular file really inside the project, bounded.
      const read = readProjectTextFile(resolved, { root: deps.projectRoot, maxBytes: MAX_INCLUDE_BYTES });
      return read.ok ? { ok: true, text: read.text } : { ok: false, reason: read.missing ? 'the file is gone' : read.reason };
    });
    if (!reading.ok) return `[@${candidate}: not included: ${reading.reason}]`;
    const content = withoutSlots(reading.text);
    const rest = raw.slice(candidate.length);
    if (folder) return `@${candidate}${rest}\n<directory path="${candidate}">\n${content}\n</directory>\n`;
    return `@${candidate}${rest}\n<file path="${candidate}">\n${content.replace(/\n$/, '')}\n</file>\n`;
  }
  return undefined;
}

export async function includeFiles(body: string, deps: IncludeDeps): Promise<{ text: string; refused: string[] }> {
  const refused: string[] = [];
  const replacements: string[] = [];
  for (const match of body.matchAll(MENTION)) {
    const included = await includeOne(match[2]!, deps);
    if (included?.startsWith('[@')) refused.push(included);
    replacements.push(included === undefined ? match[0] : `${match[1]}${included}`);
  }
  let index = 0;
  return { text: body.replace(MENTION, () => replacements[index++]!), refused };
}
