/**
 * Shared by write_file and edit_file (a library folder, not a plugin).
 * Replace a file's content so that a crash or a concurrent reader never sees it half-written:
 * write a temporary file in the same directory (same filesystem, so rename is atomic), give it
 * the old file's mode, fsync it, rename it over the target. A new file gets the default mode
 * (0o666 minus the umask), as any editor would create it.
 *
 * Renaming makes a new inode, which would lose what belongs to the old one. So the file is
 * written in place instead (truncate + write: same inode, mode and owner) when it has other
 * hard links (they would keep the old content), when it belongs to another user (we would
 * become its owner), or when the directory does not let us create the temporary file.
 * A read-only file stays protected: renaming over it needs only the directory's permission, so
 * its own write permission is checked first (EACCES, as a plain write would fail).
 * `target` must be the real path (symlinks resolved), or the rename would replace the link.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, open, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomic(target: string, data: string, existing: Stats | undefined): Promise<void> {
  if (existing) await access(target, constants.W_OK);
  if (existing && !ownInodeReplaceable(existing)) return writeFile(target, data);
  const temp = temporaryName(target);
  let handle;
  try {
    handle = await open(temp, 'wx', existing ? 0o600 : 0o666);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (existing && (code === 'EACCES' || code === 'EPERM')) return writeFile(target, data);
    throw cause;
  }
  try {
    await handle.writeFile(data);
    if (existing) await handle.chmod(existing.mode & 0o7777);
    await handle.sync();
    await handle.close();
    await rename(temp, target);
  } catch (cause) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw cause;
  }
}

function ownInodeReplaceable(info: Stats): boolean {
  if (info.nlink > 1) return false;
  const uid = process.getuid?.();
  return uid === undefined || uid === info.uid;
}

/** Hidden, unique, and short enough for NAME_MAX even when the target's own name is long. */
function temporaryName(target: string): string {
  const base = path.basename(target).slice(0, 100);
  return path.join(path.dirname(target), `.${base}.${process.pid}.${randomBytes(4).toString('hex')}.mewcode-tmp`);
}
