/**
 * Files a caller hands a sandboxed command to read although the sandbox hides them
 * (SandboxCommand.readable): a hook's `transcript_path`, which MewCode writes for that hook in the
 * project's `.mewcode/sessions/<id>/` — hidden from commands whole (session-transcripts.ts). Only
 * regular files in a writable root's `.mewcode/sessions` are honoured (the session records of the
 * project the command runs in, which no command can change: `.mewcode` is read-only to them);
 * anything else handed is ignored, so no caller can open a credential this way. Each is bound
 * read-only where it lies, after the hiding tmpfs (bwrap-args.ts), by its real path.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';

export async function handedFiles(readable: readonly string[] | undefined, writableRoots: readonly string[]): Promise<string[]> {
  if (!readable || readable.length === 0) return [];
  const out = new Set<string>();
  for (const file of readable) {
    if (typeof file !== 'string' || !path.isAbsolute(file) || file.includes('\0')) continue;
    try {
      const real = await realpath(file);
      const info = await lstat(real);
      if (!info.isFile()) continue;
      if (writableRoots.some((root) => isPathWithin(path.join(root, '.mewcode', 'sessions'), real) && real !== path.join(root, '.mewcode', 'sessions'))) out.add(real);
    } catch {
      // missing or unreadable: nothing to hand
    }
  }
  return [...out];
}
