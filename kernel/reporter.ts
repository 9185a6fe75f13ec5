/** The default Reporter: warnings and notices to stderr, never stdout (stdout may carry JSON). */
import type { Reporter } from '../types/services.js';

export class StderrReporter implements Reporter {
  constructor(private readonly debugEnabled = false) {}
  warn(message: string): void {
    process.stderr.write(`mewcode: warning: ${message}\n`);
  }
  notice(message: string): void {
    process.stderr.write(`mewcode: ${message}\n`);
  }
  debug(message: string): void {
    if (this.debugEnabled) process.stderr.write(`mewcode: debug: ${message}\n`);
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
