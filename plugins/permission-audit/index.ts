/**
 * The permission audit log (A11, A16): every permission decision of a tool call, every
 * executed call and the workspace-trust decision, as hash-chained JSON lines in
 * `<root>/.mewcode/audit.jsonl` (format: chain.ts; writer: audit-log.ts; `mewcode audit verify`:
 * verify.ts). Every record also carries `prev`, the hash of the line before it.
 *
 * Decision (permissionDecided: rule and mode verdicts, PreToolUse blocks, approvals, plan-mode
 * refusals — the tool may be unknown or not offered, so nothing here looks it up):
 *   {type:"decision", time, session, agent?, tool, tool_call_id, target, real?, target_chars?, target_sha256?,
 *    input, input_chars?, input_sha256?, layer, decided_by, verdict, reason,
 *    approval?: {choice, answered_by, reason?}, allowed, mode}
 * Execution (postToolUse, tapped last so it sees the final result):
 *   {type:"executed", time, session, agent?, tool, tool_call_id, duration_ms, result_bytes, is_error, made_by?}
 * Trust (trustDecided, once at boot):
 *   {type:"trust", time, project_root, trusted, source, skipped}
 *
 * Every record is written through, synchronously, as its decision is made (audit-recorder.ts
 * says which one record waits, and until when). The chain is anchored in the user's own
 * `~/.mewcode/audit/` (chain.ts), which the project cannot write, so `mewcode audit verify`
 * rejects a log the repository brought or rewrote.
 *
 * No working log, no tools: a `checkPermission` tap ahead of every layer denies each call while
 * the log cannot be written (a committed `.mewcode` link, a link or FIFO at `audit.jsonl`, an
 * unwritable directory), with the reason the model and the user see. Sizes and rotation come from
 * OutputLimits (every cap in one place); a build without the output-limits plugin uses the same
 * values, built in below.
 */
import path from 'node:path';
import type { PermissionDecidedContext, PostToolUseContext, TrustDecidedContext } from '../../types/hooks.js';
import type { ToolResult } from '../../types/messages.js';
import type { OutputLimits } from '../../types/output-limits.js';
import { boundedLimit } from '../../types/output-limit-ranges.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { cutUtf16 } from '../../sdk/text-cuts.js';
import { AuditLog } from './audit-log.js';
import { AuditRecorder } from './audit-recorder.js';
import { targetFields } from './audit-target.js';
import { anchorFileOf } from './chain.js';

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
  auditTargetMaxChars: 20_000,
  auditReasonMaxChars: 2000,
};

/** Ahead of every permission layer (the blacklist is PermissionStage.Blacklist, 100): a deny here ends the chain. */
export const AUDIT_GATE_STAGE = 10;

export function auditFile(projectRoot: string): string {
  return path.join(projectRoot, '.mewcode', 'audit.jsonl');
}

/**
 * The caps, copied once (at apply): every record of the run is cut to the same sizes, whatever the
 * OutputLimits service says later. Each is held to the floor and ceiling no plugin can pass
 * (types/output-limit-ranges.ts): OutputLimits is replaceable, and a cap of 1 byte or 1 character
 * would rotate every record away or cut it to nothing while the hash chain still verifies. The
 * container already hands out a clamped view; this clamps again, so the log never depends on it.
 */
export function auditCaps(kernel: Pick<KernelApi, 'container'>, warn: (message: string) => void = () => undefined): AuditCaps {
  if (!kernel.container.isBound(TOKENS.OutputLimits)) return AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS;
  const limits = kernel.container.get<OutputLimits>(TOKENS.OutputLimits);
  const caps: { -readonly [K in keyof AuditCaps]: number } = { ...AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS };
  for (const key of Object.keys(caps) as (keyof AuditCaps)[]) {
    caps[key] = boundedLimit(key, limits[key], (message) => warn(`${NAME}: ${message} for the audit log`));
  }
  return Object.freeze(caps);
}

export function createPermissionAuditPlugin(): MewcodePlugin {
  const open = new Set<AuditRecorder>();
  return definePlugin({
    name: NAME,
    safety: true,
    version: '0.3.0',
    subcommands: [
      {
        name: 'audit',
        usage: 'audit verify [--file F]',
        summary: 'check the permission audit log\'s hash chain (default .mewcode/audit.jsonl): exit 0 intact, 1 broken (first bad line named), 2 no log or bad usage',
        run: async (context) => (await import('./audit-subcommand.js')).runAuditCommand(context),
      },
    ],
    doctorChecks: [{ name: 'audit', run: async (context) => (await import('./doctor-check.js')).checkAudit(context) }],
    apply(kernel) {
      const caps = auditCaps(kernel, (message) => kernel.warn(message));
      const file = auditFile(kernel.projectRoot);
      const log = new AuditRecorder(
        new AuditLog(file, {
          maxBytes: caps.auditMaxBytes,
          keep: caps.auditKeepFiles,
          onProblem: (_kind, message) => kernel.warn(`${NAME}: ${message}`),
          // Named at the first write (hashing the path loads node:crypto, which boot does not).
          anchor: () => anchorFileOf(kernel.homeDir, file),
        }),
      );
      open.add(log);
      kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: AUDIT_GATE_STAGE }, async (request) => {
        const problem = log.problem();
        if (problem === undefined) return undefined;
        return {
          decision: 'deny',
          layer: NAME,
          reason:
            `the permission audit log cannot be written (${problem}), and no tool runs unrecorded. ` +
            `Tell the user: ${request.toolName} was not run; fix or remove what is in the way of ${file}, then try again`,
        };
      });
      kernel.hooks.permissionDecided.tapPromise(NAME, async (decided) => {
        log.append(decisionRecord(decided, caps, kernel.homeDir));
      });
      kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 1000 }, async (result, context) => {
        log.append(executedRecord(result, context));
        return result;
      });
      kernel.hooks.trustDecided.tapPromise(NAME, async (decision) => {
        // Held until the warm-up or the first check (audit-recorder.ts): not while the first request is prepared.
        log.hold(trustRecord(decision));
      });
      kernel.hooks.sessionEnd.tapPromise(NAME, async () => log.release());
    },
    // While the first request waits for the model: write the trust record (loading node:crypto).
    async warm() {
      for (const log of open) log.release();
    },
    async dispose() {
      const logs = [...open];
      open.clear();
      for (const log of logs) log.release();
    },
  });
}

export default createPermissionAuditPlugin();

/** `homeDir`: to resolve a `~/` path for `real` (audit-target.ts); without it no `real` is recorded. */
export function decisionRecord(decided: PermissionDecidedContext, caps: AuditCaps = AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS, homeDir?: string): Record<string, unknown> {
  const { request, verdict, approval } = decided;
  const reasonMax = caps.auditReasonMaxChars;
  return {
    type: 'decision',
    time: new Date().toISOString(),
    session: request.sessionId,
    ...agentOf(decided),
    tool: request.toolName,
    tool_call_id: decided.toolCallId,
    // The whole target and input, or past the cap their cut text, length and SHA-256 (audit-target.ts).
    // `real`: where a path led, when elsewhere (what the layers judged for a write through a link).
    ...targetFields(request.target, request.input, caps.auditTargetMaxChars, homeDir !== undefined ? { projectRoot: request.projectRoot, homeDir } : undefined),
    layer: verdict.layer,
    // Who decided as the kernel knows it (a plugin cannot write this; `layer` it can).
    ...(decided.decidedBy !== undefined ? { decided_by: decided.decidedBy } : {}),
    verdict: verdict.decision,
    reason: cut(verdict.reason ?? '', reasonMax),
    ...(approval
      ? { approval: { choice: approval.choice, answered_by: approval.answeredBy, ...(approval.reason ? { reason: cut(approval.reason, reasonMax) } : {}) } }
      : {}),
    allowed: decided.allowed,
    mode: request.mode,
    // A plugin's own call (a custom command's `!` line), not the model's.
    ...(request.madeBy !== undefined ? { made_by: request.madeBy } : {}),
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
    // A plugin's own call, named by the kernel as in its decision record.
    ...(typeof context.madeBy === 'string' ? { made_by: context.madeBy } : {}),
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

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${cutUtf16(text, max)}…`;
}
