/**
 * `.mewcode/hooks.log`: one JSON line per hook run (rule, event, duration, exit, decision), so no
 * hook failure is silent, and `mewcode hooks` can count runs per rule. Reached without following a
 * link (sdk/project-state-dir.ts: a repository may plant one at `.mewcode` or at the file); when
 * that is refused the run goes on unlogged, with one warning.
 */
import { closeSync, constants, fstatSync, readSync, writeSync } from 'node:fs';
import { openProjectStateFile } from '../../sdk/project-state-dir.js';

/** `mewcode hooks` reads at most this much of the log (its newest runs count). */
const MAX_COUNTED_BYTES = 16 * 1024 * 1024;
import path from 'node:path';

export const HOOK_LOG = path.join('.mewcode', 'hooks.log');

export interface HookLogRecord {
  time: string;
  rule: string;
  event: string;
  durationMs: number;
  exit: string;
  decision: string;
  reason?: string;
  /** What of a contained hook's output was not taken (containment.ts). */
  ignored?: string;
}

export class HookLog {
  private fd: number | undefined;
  private failed = false;

  constructor(
    private readonly projectRoot: string,
    private readonly warn: (message: string) => void,
  ) {}

  get file(): string {
    return path.join(this.projectRoot, HOOK_LOG);
  }

  private open(): number | undefined {
    if (this.fd !== undefined || this.failed) return this.fd;
    try {
      // Every name from the project root down is checked (a link is refused, never followed), and
      // only a regular file is used: a FIFO planted there must not block MewCode.
      this.fd = openProjectStateFile(this.projectRoot, this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, { create: true });
    } catch (error) {
      this.failed = true;
      this.warn(`hooks: hook runs are not logged: ${(error as Error).message}`);
    }
    return this.fd;
  }

  append(record: HookLogRecord): void {
    const fd = this.open();
    if (fd === undefined) return;
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
    } catch {
      // a full disk must not stop the run
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export interface RuleCounters {
  runs: number;
  ok: number;
  blocked: number;
  failed: number;
  totalMs: number;
}

/** Counters per rule from the project's log (a line that does not parse is skipped; a linked log counts nothing). */
export function countRuns(projectRoot: string, file = path.join(projectRoot, HOOK_LOG)): Map<string, RuleCounters> {
  const counts = new Map<string, RuleCounters>();
  let text = '';
  try {
    const fd = openProjectStateFile(projectRoot, file, constants.O_RDONLY);
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return counts;
      const buffer = Buffer.alloc(Math.min(info.size, MAX_COUNTED_BYTES));
      readSync(fd, buffer, 0, buffer.length, Math.max(0, info.size - buffer.length));
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    let record: HookLogRecord;
    try {
      record = JSON.parse(line) as HookLogRecord;
    } catch {
      continue;
    }
    const entry = counts.get(record.rule) ?? { runs: 0, ok: 0, blocked: 0, failed: 0, totalMs: 0 };
    entry.runs++;
    if (record.decision === 'failed') entry.failed++;
    else if (record.decision === 'blocked' || record.decision === 'deny') entry.blocked++;
    else entry.ok++;
    entry.totalMs += record.durationMs;
    counts.set(record.rule, entry);
  }
  return counts;
}
