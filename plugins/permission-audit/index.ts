/**
 * The permission audit log (SPEC A11): every permission decision of a tool call, and every
 * executed call, as one JSON line in `<root>/.mewcode/audit.jsonl`.
 *
 * Decision (permissionDecided, also PreToolUse blocks and approvals):
 *   {type:"decision", time, session, tool, tool_call_id, target, layer, verdict, reason,
 *    approval?: {choice, answered_by, reason?}, allowed, mode}
 * Execution (postToolUse, tapped last so it sees the final result):
 *   {type:"executed", time, session, tool, tool_call_id, duration_ms, result_bytes, is_error}
 *
 * Writing never blocks the loop: records are queued and appended in order in the background,
 * flushed at session end and on dispose. The file is rotated at 5 MiB keeping 3 old files.
 */
import path from 'node:path';
import type { PermissionDecidedContext, PostToolUseContext } from '../../types/hooks.js';
import type { ToolResult } from '../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import type { PermissionTarget } from '../../types/tools.js';
import { AuditLog, DEFAULT_KEEP, DEFAULT_MAX_BYTES } from './audit-log.js';

export const NAME = 'permission-audit';
/** Characters of a path or command kept in a record. */
export const TARGET_MAX_CHARS = 500;
const REASON_MAX_CHARS = 2000;

export interface PermissionAuditOptions {
  /** Rotate before the file would exceed this many bytes (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept (default 3). */
  keep?: number;
}

export function auditFile(projectRoot: string): string {
  return path.join(projectRoot, '.mewcode', 'audit.jsonl');
}

export function createPermissionAuditPlugin(options: PermissionAuditOptions = {}): MewcodePlugin {
  const open = new Set<AuditLog>();
  return definePlugin({
    name: NAME,
    version: '0.1.0',
    apply(kernel) {
      const file = auditFile(kernel.session.projectRoot);
      const log = new AuditLog(file, {
        maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
        keep: options.keep ?? DEFAULT_KEEP,
        onError: (error) => kernel.warn(`${NAME}: cannot write the audit log ${file}: ${error.message} (further audit errors are not reported)`),
      });
      open.add(log);
      kernel.hooks.permissionDecided.tapPromise(NAME, async (decided) => {
        log.append(decisionRecord(decided));
      });
      kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 1000 }, async (result, context) => {
        log.append(executedRecord(result, context));
        return result;
      });
      kernel.hooks.sessionEnd.tapPromise(NAME, () => log.flush());
    },
    async dispose() {
      const logs = [...open];
      open.clear();
      await Promise.all(logs.map((log) => log.flush()));
    },
  });
}

export default createPermissionAuditPlugin();

export function decisionRecord(decided: PermissionDecidedContext): Record<string, unknown> {
  const { request, verdict, approval } = decided;
  return {
    type: 'decision',
    time: new Date().toISOString(),
    session: request.sessionId,
    tool: request.toolName,
    tool_call_id: decided.toolCallId,
    target: targetText(request.target),
    layer: verdict.layer,
    verdict: verdict.decision,
    reason: cut(verdict.reason ?? '', REASON_MAX_CHARS),
    ...(approval
      ? { approval: { choice: approval.choice, answered_by: approval.answeredBy, ...(approval.reason ? { reason: cut(approval.reason, REASON_MAX_CHARS) } : {}) } }
      : {}),
    allowed: decided.allowed,
    mode: request.mode,
  };
}

export function executedRecord(result: ToolResult, context: PostToolUseContext): Record<string, unknown> {
  return {
    type: 'executed',
    time: new Date().toISOString(),
    session: context.sessionId,
    tool: context.call.name,
    tool_call_id: result.toolCallId,
    duration_ms: Math.round(context.durationMs * 10) / 10,
    result_bytes: Buffer.byteLength(result.content, 'utf8'),
    is_error: result.isError === true,
  };
}

function targetText(target: PermissionTarget): string | null {
  if (target.kind === 'path') return cut(target.path, TARGET_MAX_CHARS);
  if (target.kind === 'command') return cut(target.command, TARGET_MAX_CHARS);
  return null;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max; // never split a surrogate pair
  return `${text.slice(0, end)}…`;
}
