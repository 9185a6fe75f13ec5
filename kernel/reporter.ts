/**
 * The default Reporter: warnings and notices to stderr, never stdout (stdout may carry JSON),
 * through the terminal-safe filter (messages quote files, servers and hooks), later lines indented
 * so a name holding a line break cannot start a `mewcode:` line of its own (types/notice-line.ts).
 */
import { terminal } from '../config/terminal-safe.js';
import { messageLines } from '../types/notice-line.js';
import type { Reporter } from '../types/services.js';

export class StderrReporter implements Reporter {
  constructor(private readonly debugEnabled = false) {}
  warn(message: string): void {
    terminal.err(messageLines('mewcode: warning: ', message));
  }
  notice(message: string): void {
    terminal.err(messageLines('mewcode: ', message));
  }
  debug(message: string): void {
    if (this.debugEnabled) terminal.err(messageLines('mewcode: debug: ', message));
  }
}

/** Collects messages; used by tests and by UIs that render warnings themselves. */
export class MemoryReporter implements Reporter {
  readonly warnings: string[] = [];
  readonly notices: string[] = [];
  readonly debugs: string[] = [];
  warn(message: string): void {
    this.warnings.push(message);
  }
  notice(message: string): void {
    this.notices.push(message);
  }
  debug(message: string): void {
    this.debugs.push(message);
  }
}
