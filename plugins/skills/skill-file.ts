/**
 * Reading a SKILL.md, the one way the catalog and every load do it. A hostile repository controls
 * its project skills' folders, so: a project skill's file must resolve inside the project (a
 * `SKILL.md` or a skill folder linked to `~/.ssh/…` would otherwise be read into the prompt);
 * only a regular file is read (opened non-blocking, so a FIFO cannot hang the load; a device such
 * as /dev/zero is refused by fstat); and never more than MAX_SKILL_FILE_BYTES — the size is checked
 * on the open file and the read is capped, so a file that grew after the catalog's scan, or lies,
 * cannot blow memory.
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isInside } from './roots.js';
import { MAX_SKILL_FILE_BYTES, type SkillRoot } from './skill.js';

export type SkillFileRead = { ok: true; text: string } | { ok: false; message: string };

export async function readSkillFile(file: string, root: SkillRoot, maxBytes = MAX_SKILL_FILE_BYTES): Promise<SkillFileRead> {
  try {
    if (root.scope === 'project') {
      const boundary = await realpath(root.project ?? root.dir);
      const real = await realpath(file);
      if (!isInside(real, boundary)) return { ok: false, message: `SKILL.md resolves to ${real}, outside the project (${boundary}); a project's skill may not link outside it` };
    }
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { ok: false, message: 'SKILL.md is not a regular file' };
      if (info.size > maxBytes) return { ok: false, message: `SKILL.md is ${info.size} bytes, over the ${maxBytes}-byte limit` };
      // One byte more than allowed is asked for: a file that grew since fstat is caught too.
      const buffer = Buffer.alloc(maxBytes + 1);
      let length = 0;
      while (length < buffer.length) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (length > maxBytes) return { ok: false, message: `SKILL.md is over the ${maxBytes}-byte limit` };
      return { ok: true, text: buffer.subarray(0, length).toString('utf8') };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, message: `cannot read it: ${(error as Error).message}` };
  }
}
