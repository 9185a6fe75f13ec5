/**
 * The permission audit log (SPEC A11, A16): every permission decision of a tool call, every
 * executed call and the workspace-trust decision, as hash-chained JSON lines in
 * `<root>/.mewcode/audit.jsonl` (format: chain.ts; writer: audit-log.ts; `mewcode audit verify`:
 * verify.ts). Every record also carries `prev`, the hash of the line before it.
 *
 * Decision (permissionDecided: rule and mode verdicts, PreToolUse blocks, approvals, plan-mode
 * refusals — the tool may be unknown or not offered, so nothing here looks it up):
 *   {type:"decision", time, session, agent?, tool, tool_call_id, target, layer, verdict, reason,
 *    approval?: {choice, answered_by, reason?}, allowed, mode}
 * Execution (postToolUse, tapped last so it sees the final result):
 *   {type:"executed", time, session, agent?, tool, tool_call_id, duration_ms, result_bytes, is_error}
 * Trust (trustDecided, once at boot):
 *   {type:"trust", time, project_root, trusted, source, skipped}
 *
 * Writing never blocks the loop: records are queued and appended in order in the background,
 * flushed at session end and on dispose. Sizes and rotation come from OutputLimits (every cap in
 * one place); a build without the output-limits plugin uses the same values, built in below.
 */
import path from 'node:path';
import type { PermissionDecidedContext, PostToolUseContext, TrustDecidedContext } from '../../types/hooks.js';
import type { ToolResult } from '../../types/messages.js';
import type { OutputLimits } from '../../types/output-limits.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { PermissionTarget } from '../../types/tools.js';
import { cutUtf16 } from '../../sdk/text-cuts.js';
import { DeferredAuditLog } from './deferred-log.js';

export const NAME = 'permission-audit';

export type AuditCaps = Pick<OutputLimits, 'auditMaxBytes' | 'auditKeepFiles' | 'auditTargetMaxChars' | 'auditReasonMaxChars'>;

/**
 * Used only when no OutputLimits service is bound (a custom build without output-limits): the
 * audit is a safety record and must not disappear with an unrelated plugin. Kept equal to
 * plugins/output-limits/limits.ts by a test.
 */
export const AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS: AuditCaps = {
  auditMaxBytes: 5 * 1024 * 1024,
  auditKeepFiles: 3,
  auditTargetMaxChars: 500,
  auditReasonMaxChars: 2000,
};

/** How long records may wait for the writer to load (deferred-log.ts), from the boot's trust record on. */
export const TRUST_RECORD_DELAY_MS = 500;

export function auditFile(projectRoot: string): string {
  return path.join(projectRoot, '.mewcode', 'audit.jsonl');
}

export function auditCaps(kernel: Pick<KernelApi, 'container'>): AuditCaps {
  return kernel.container.isBound(TOKENS.OutputLimits) ? kernel.container.get<OutputLimits>(TOKENS.OutputLimits) : AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS;
}

export function createPermissionAuditPlugin(): MewcodePlugin {
  const open = new Set<DeferredAuditLog>();
  return definePlugin({
    name: NAME,
    safety: true,
    version: '0.2.0',
    apply(kernel) {
      const caps = auditCaps(kernel);
      const file = auditFile(kernel.projectRoot);
      const log = new DeferredAuditLog(
        async () =>
          new (await import('./audit-log.js')).AuditLog(file, {
            maxBytes: caps.auditMaxBytes,
            keep: caps.auditKeepFiles,
            onProblem: (_kind, message) => kernel.warn(`${NAME}: ${message}`),
          }),
        (message) => kernel.warn(`${NAME}: ${message}`),
        TRUST_RECORD_DELAY_MS,
      );
      open.add(log);
      kernel.hooks.permissionDecided.tapPromise(NAME, async (decided) => {
        log.append(decisionRecord(decided, caps));
      });
      kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 1000 }, async (result, context) => {
        log.append(executedRecord(result, context));
        return result;
      });
      kernel.hooks.trustDecided.tapPromise(NAME, async (decision) => {
        // Held with any record before the writer loads (deferred-log.ts): at the idle warm-up, at
        // session end, or TRUST_RECORD_DELAY_MS after boot, not while the first request is prepared.
        log.append(trustRecord(decision));
      });
      kernel.hooks.sessionEnd.tapPromise(NAME, () => log.flush());
    },
    // While the first request waits: load the writer and write the trust record, which is due
    // within TRUST_RECORD_DELAY_MS anyway, so the first decision's record does not pay for both.
    async warm() {
      await Promise.all([...open].map((log) => log.warm()));
    },
    async dispose() {
      const logs = [...open];
      open.clear();
      await Promise.all(logs.map((log) => log.flush()));
    },
  });
}

export default createPermissionAuditPlugin();

export function decisionRecord(decided: PermissionDecidedContext, caps: AuditCaps = AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS): Record<string, unknown> {
  const { request, verdict, approval } = decided;
  const reasonMax = caps.auditReasonMaxChars;
  return {
    type: 'decision',
    time: new Date().toISOString(),
    session: request.sessionId,
    ...agentOf(decided),
    tool: request.toolName,
    tool_call_id: decided.toolCallId,
    target: targetText(request.target, caps.auditTargetMaxChars),
    layer: verdict.layer,
    verdict: verdict.decision,
    reason: cut(verdict.reason ?? '', reasonMax),
    ...(approval
      ? { approval: { choice: approval.choice, answered_by: approval.answeredBy, ...(approval.reason ? { reason: cut(approval.reason, reasonMax) } : {}) } }
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
    ...agentOf(context),
    tool: context.call.name,
    tool_call_id: result.toolCallId,
    duration_ms: Math.round(context.durationMs * 10) / 10,
    result_bytes: Buffer.byteLength(result.content, 'utf8'),
    is_error: result.isError === true,
  };
}

export function trustRecord(decision: TrustDecidedContext): Record<string, unknown> {
  return {
    type: 'trust',
    time: new Date().toISOString(),
    project_root: decision.projectRoot,
    trusted: decision.trusted,
    source: decision.source,
    skipped: [...decision.skipped],
  };
}

/** Sub-agents and background sessions are named; the main session (agent `main`) is not. */
function agentOf(context: { agentId?: string; parentAgentId?: string }): Record<string, string> {
  if (context.agentId === undefined || context.agentId === 'main') return {};
  return { agent: context.agentId, ...(context.parentAgentId ? { parent_agent: context.parentAgentId } : {}) };
}

/** A refusal may come before any target was computed: tolerate a missing one. */
function targetText(target: PermissionTarget | undefined, max: number): string | null {
  if (target?.kind === 'path') return cut(target.path, max);
  if (target?.kind === 'command') return cut(target.command, max);
  return null;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${cutUtf16(text, max)}…`;
}
