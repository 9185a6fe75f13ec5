/**
 * Claude Code's CLAUDE_ENV_FILE: a SessionStart command hook is given the path of a file it may
 * append `export NAME=value` lines to; once the SessionStart hooks have run, those variables apply
 * to the session's later bash commands (TOKENS.CommandEnvironment, which tool-bash adds over its
 * allow-listed environment).
 *
 * Claude Code sources the file in the shell before each command. MewCode reads it instead, line by
 * line: `export NAME=value` or `NAME=value`, the value as written or in one pair of quotes, with
 * nothing expanded (no `$VAR`, no `$(…)`); any other line is skipped with a warning. Only the
 * user's own hooks that run on the host get the file (dispatcher.ts): a project's hook, or the
 * user's run contained in an untrusted project, could otherwise set PATH or LD_PRELOAD for every
 * later command, approved or auto-allowed, on the host.
 */
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
const MAX_BYTES = 256 * 1024;

/** The variables of an env file's text, and what could not be read (for a warning). */
export function parseEnvFile(text: string): { variables: Record<string, string>; skipped: string[] } {
  const variables: Record<string, string> = {};
  const skipped: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    const value = match ? unquote(match[2]!) : undefined;
    if (!match || value === undefined) skipped.push(line.slice(0, 80));
    else variables[match[1]!] = value;
  }
  return { variables, skipped };
}

/** The value as written, or inside one pair of quotes; undefined when the shell would expand or split it. */
function unquote(value: string): string | undefined {
  if (/^'[^']*'$/.test(value)) return value.slice(1, -1);
  if (/^"[^"$`\\]*"$/.test(value)) return value.slice(1, -1);
  return /^[^\s'"$`\\;&|<>()]*$/.test(value) ? value : undefined;
}

/** One file per run, emptied after each SessionStart. */
export class SessionEnvFile {
  private dir: string | undefined;

  /** The path SessionStart hooks are given (created empty). */
  path(): string {
    this.dir ??= mkdtempSync(path.join(os.tmpdir(), 'mewcode-env-'));
    const file = path.join(this.dir, 'session.env');
    writeFileSync(file, '', { mode: 0o600 });
    return file;
  }

  /** What the hooks wrote, and the file emptied. */
  take(): { variables: Record<string, string>; skipped: string[] } {
    if (this.dir === undefined) return { variables: {}, skipped: [] };
    const file = path.join(this.dir, 'session.env');
    let text = '';
    try {
      // At most MAX_BYTES of it, whatever size a hook made it (nothing past that is read into memory).
      const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        const buffer = Buffer.alloc(MAX_BYTES);
        text = buffer.subarray(0, readSync(fd, buffer, 0, MAX_BYTES, 0)).toString('utf8');
      } finally {
        closeSync(fd);
      }
    } catch {
      return { variables: {}, skipped: [] };
    }
    writeFileSync(file, '');
    return parseEnvFile(text);
  }

  close(): void {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}
