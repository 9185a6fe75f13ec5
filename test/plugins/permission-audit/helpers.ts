/** Temp projects and small helpers for the audit log's chain tests. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuditLog, type AuditProblem } from '../../../plugins/permission-audit/audit-log.js';
import { hashLine } from '../../../plugins/permission-audit/chain.js';

export interface AuditDirs {
  base: string;
  root: string;
  /** `<root>/.mewcode/audit.jsonl` */
  file: string;
  /** A directory outside the project, for canaries. */
  outside: string;
  /** The user's home (its `.mewcode/audit/` keeps the anchors). */
  home: string;
  cleanup(): void;
}

export function auditDirs(): AuditDirs {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-audit-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const home = path.join(base, 'home');
  mkdirSync(home);
  return { base, root, outside, home, file: path.join(root, '.mewcode', 'audit.jsonl'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface OpenedLog {
  log: AuditLog;
  problems: { kind: AuditProblem; message: string }[];
}

export function openLog(file: string, caps: { maxBytes?: number; keep?: number; anchor?: string } = {}): OpenedLog {
  const problems: OpenedLog['problems'] = [];
  const log = new AuditLog(file, {
    maxBytes: caps.maxBytes ?? 5 * 1024 * 1024,
    keep: caps.keep ?? 3,
    onProblem: (kind, message) => problems.push({ kind, message }),
    ...(caps.anchor ? { anchor: caps.anchor } : {}),
  });
  return { log, problems };
}

/** Appends `count` records `{type:"test", n}` starting at `from`, and waits for them. */
export async function writeRecords(file: string, count: number, from = 1, caps?: { maxBytes?: number; keep?: number; anchor?: string }): Promise<OpenedLog> {
  const opened = openLog(file, caps);
  for (let n = from; n < from + count; n++) opened.log.append({ type: 'test', n, text: `record ${n}` });
  await opened.log.flush();
  return opened;
}

export function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
}

export function records(file: string): Record<string, unknown>[] {
  return lines(file).map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function writeLines(file: string, content: string[]): void {
  writeFileSync(file, content.map((l) => `${l}\n`).join(''));
}

/** A record chained correctly after `previousLine`, as a forger who knows the format would write it. */
export function chainedAfter(previousLine: string, record: object): string {
  return JSON.stringify({ ...record, prev: hashLine(previousLine) });
}
