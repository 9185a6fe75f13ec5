/**
 * A server's log file (M1: stderr never reaches the terminal): the child's stderr is
 * written there directly (its fd), and MewCode adds its own lines (connects, failures, the
 * server's `notifications/message`). Under the user's home, not the project: a repository cannot
 * plant a link where MewCode writes. `~/.mewcode/logs/mcp/<project>-<hash>/<server>.log`, opened
 * with O_NOFOLLOW, mode 0600; over MAX_LOG_BYTES it is moved to `<server>.log.1` on open.
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { terminalSafe } from '../../config/terminal-safe.js';

export const MAX_LOG_BYTES = 1024 * 1024;
/** How much of the newest stderr a failure message quotes. */
export const STDERR_TAIL_CHARS = 300;

export function logDirectory(homeDir: string, projectRoot: string): string {
  const hash = nodeCrypto().createHash('sha256').update(projectRoot).digest('hex').slice(0, 8);
  const slug = path.basename(projectRoot).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'root';
  return path.join(homeDir, '.mewcode', 'logs', 'mcp', `${slug}-${hash}`);
}

export class ServerLog {
  private fd: number | undefined;
  private failed = false;
  /** Closed for good (shutdown): a late line is dropped rather than reopening the file. */
  private closed = false;
  /** Where this run's stderr begins in the file. */
  private startOffset = 0;

  constructor(readonly file: string) {}

  private open(): number | undefined {
    if (this.fd !== undefined || this.failed || this.closed) return this.fd;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      try {
        if (statSync(this.file).size > MAX_LOG_BYTES) renameSync(this.file, `${this.file}.1`);
      } catch {
        // no file yet
      }
      this.fd = openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      this.startOffset = fstatSync(this.fd).size;
    } catch {
      this.failed = true;
    }
    return this.fd;
  }

  write(line: string): void {
    const fd = this.open();
    if (fd === undefined) return;
    try {
      writeSync(fd, `${new Date().toISOString()} mewcode: ${line}\n`);
    } catch {
      // a full disk must not break the server
    }
  }

  /** For the child's stderr: the open file, or 'ignore' when the log cannot be written. */
  async stderrFd(): Promise<number | 'ignore'> {
    const fd = this.open();
    if (fd === undefined) return 'ignore';
    this.startOffset = fstatSync(fd).size;
    return fd;
  }

  /** The end of what the server wrote since the last connect started, on one line. */
  recentStderr(): string {
    if (this.fd === undefined) return '';
    let reader: number | undefined;
    try {
      reader = openSync(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
      const size = fstatSync(reader).size;
      const from = Math.max(this.startOffset, size - 4096);
      const buffer = Buffer.alloc(Math.max(0, size - from));
      readSync(reader, buffer, 0, buffer.length, from);
      const own = buffer
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^\d{4}-\d\d-\d\dT[\d:.]+Z mewcode: /.test(line));
      // A server's bytes end up in warnings on the terminal: no control characters (escapes).
      const text = terminalSafe(own.join(' | ')).trim();
      return text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text;
    } catch {
      return '';
    } finally {
      if (reader !== undefined) closeSync(reader);
    }
  }

  close(): void {
    this.closed = true;
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}
