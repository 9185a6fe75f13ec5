/**
 * Reading a SKILL.md, the one way the catalog and every load do it, through the shared reader of
 * project-supplied files (config/project-file.ts). A hostile repository controls its project
 * skills' folders, so a project skill's file must really lie inside the project (a `SKILL.md` or
 * a skill folder linked to `~/.ssh/…` would otherwise be read into the prompt), have one hard
 * link, and be a regular file (opened non-blocking, so a FIFO cannot hang the load; a device such
 * as /dev/zero is refused) — and never more than MAX_SKILL_FILE_BYTES is read, so a file that
 * grew after the catalog's scan, or lies, cannot blow memory. The user's own skills may be links.
 */
import { readProjectTextFile, refusalOf } from '../../config/project-file.js';
import { MAX_SKILL_FILE_BYTES, type SkillRoot } from './skill.js';

export type SkillFileRead = { ok: true; text: string } | { ok: false; message: string };

export async function readSkillFile(file: string, root: SkillRoot, maxBytes = MAX_SKILL_FILE_BYTES): Promise<SkillFileRead> {
  const read = readProjectTextFile(file, { maxBytes, ...(root.scope === 'project' ? { root: root.project ?? root.dir } : {}) });
  if (read.ok) return { ok: true, text: read.text };
  return { ok: false, message: refusalOf('SKILL.md', read.reason) };
}
