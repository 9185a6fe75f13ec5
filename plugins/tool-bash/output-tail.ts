/**
 * The last lines of a running command's output, reported through `ToolContext.progress` at most
 * every `intervalMs`, so a UI can show what a long command is doing (the result still comes at
 * the end, cut by the output limits). Chunks arrive as UTF-8-safe pieces (utf8.ts).
 */
import type { ToolContext } from '../../types/tools.js';

/** Lines and characters kept for the tail (a UI shows a few). */
export const TAIL_LINES = 5;
const TAIL_CHARS = 2000;
/** Reports per second at most: a command writing fast must not flood the event stream. */
export const TAIL_INTERVAL_MS = 200;

export class OutputTail {
  private tail = '';
  private bytes = 0;
  private lastReport = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: ToolContext['progress'],
    private readonly intervalMs = TAIL_INTERVAL_MS,
  ) {}

  write(chunk: Buffer): void {
    if (!this.report) return;
    this.bytes += chunk.length;
    this.tail = (this.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    const wait = this.lastReport + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  /** The command ended: no report after this. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.timer = undefined;
    this.lastReport = Date.now();
    const lines = this.tail.replace(/\n+$/, '').split('\n');
    this.report?.({ progress: this.bytes, message: lines.slice(-TAIL_LINES).join('\n') });
  }
}
