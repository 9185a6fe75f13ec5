/**
 * The default Reporter: warnings and notices to stderr, never stdout (stdout may carry JSON),
 * through the terminal-safe filter (messages quote files, servers and hooks).
 */
import { terminal } from '../config/terminal-safe.js';
import type { Reporter } from '../types/services.js';

export class StderrReporter implements Reporter {
  constructor(private readonly debugEnabled = false) {}
  warn(message: string): void {
    terminal.err(`mewcode: warning: ${message}\n`);
  }
  notice(message: string): void {
    terminal.err(`mewcode: ${message}\n`);
  }
  debug(message: string): void {
    if (this.debugEnabled) terminal.err(`mewcode: debug: ${message}\n`);
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
