/**
 * Compaction (C5–C8), bound under TOKENS.CompactionService for the kernel's compaction
 * procedure. Layer 1: large tool results leave each request for a file under the session's
 * directory, with a stable preview in their place (layer-one.ts). The one token estimate counts
 * what layer 1 sends. Layer 2: past the threshold of the active provider's window, the older
 * history becomes a summary with a recovery attachment (service.ts); what it dropped is told to
 * the user and kept in the session file (the session plugin writes `state.report`).
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import type { FileReadTracker } from '../../types/file-reads.js';
import type { CompactionContext } from '../../types/hooks.js';
import type { AgentSession, CompactionService } from '../../types/session.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { LayerOne } from './layer-one.js';
import { SummaryCompaction, sessionKey } from './service.js';

export const NAME = 'compaction';

/**
 * This plugin's own instance, so its taps and the kernel's procedure share one layer 1 ledger: a
 * symbol of this module's, which no other plugin can name (its breaker and ledger are no one else's to change).
 */
const SERVICE: ServiceIdentifier<SummaryCompaction> = Symbol('compaction/summary-compaction');

export function createCompactionPlugin(): MewcodePlugin {
  return definePlugin({
    name: NAME,
    version: '0.3.0',
    bindings: new ContainerModule(({ bind }) => {
      bind<SummaryCompaction>(SERVICE)
        .toDynamicValue((context) => createService(context.get<KernelApi>(TOKENS.Kernel)))
        .inSingletonScope();
      // The contract only, the same three functions for every caller (the kernel's procedure).
      bind(TOKENS.CompactionService)
        .toDynamicValue((context): CompactionService => {
          const service = context.get(SERVICE);
          return Object.freeze({
            estimateTokens: (messages, anchor) => service.estimateTokens(messages, anchor),
            shouldCompact: (state, session, messages) => service.shouldCompact(state, session, messages),
            compact: (messages, request) => service.compact(messages, request),
          } satisfies CompactionService);
        })
        .inSingletonScope();
    }),
    apply(kernel) {
      const service = kernel.container.get<SummaryCompaction>(SERVICE);
      const layer = service.layer;
      // First in the waterfall: it sees the history array itself, which only grows between turns.
      // A summary or sampling request is not the session's history (its own copy would be lost).
      kernel.hooks.preModelRequest.tapPromise({ name: NAME, stage: -1000 }, async (request, context) =>
        context.reason !== undefined && context.reason !== 'turn' ? request : { ...request, messages: layer.apply(sessionKey(context), context.sessionId, request.messages) },
      );
      // What a summary dropped, told where the user looks (the session file keeps it too).
      kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
        if (state.report) kernel.notify('notice', state.report.notice, context);
      });
      // A finished sub-agent's copy and breaker would only take memory.
      kernel.hooks.subagentStop.tapPromise(NAME, async (context) => {
        layer.forget(sessionKey(context));
        service.breaker.forget(sessionKey(context));
      });
    },
  });
}

function createService(kernel: KernelApi): SummaryCompaction {
  const reported = new Set<string>();
  const layer = new LayerOne({
    projectRoot: kernel.projectRoot,
    onSaveFailed: (toolCallId, error) => {
      if (reported.has(toolCallId)) return;
      reported.add(toolCallId);
      kernel.warn(`${NAME}: a large tool result (${toolCallId}) could not be saved, so it is sent in full and saved on a later request: ${error.message}`);
    },
  });
  let reads = 0;
  const files = kernel.container.isBound(TOKENS.FileReads) ? kernel.container.get<FileReadTracker>(TOKENS.FileReads) : undefined;
  return new SummaryCompaction({
    projectRoot: kernel.projectRoot,
    layer,
    recentFiles: (limit) => files?.recent(limit) ?? [],
    // Each recovered file as the compacted session's own read_file call, nobody asked (kernel.callTool).
    readThroughGate: (file, perform, session, signal) =>
      kernel.callTool
        ? kernel.callTool({ toolName: 'read_file', input: { file_path: file }, callId: `compaction-recovery-${++reads}`, session: sessionOf(kernel, session), mode: session.mode, signal, perform })
        : Promise.resolve({ allowed: false, content: "this build cannot check compaction's own reads", isError: true }),
    warn: (message) => kernel.warn(message),
    send: (request, options) => kernel.sendModelRequest(request, options),
  });
}

export default createCompactionPlugin();

/**
 * The session a recovery read is made for. The main session is at hand; a sub-agent's is not
 * (the kernel API finds no session by id), so it is named by its identity only. With `perform`
 * the kernel's callTool uses nothing of the session but its identity; anything else would throw.
 */
function sessionOf(kernel: KernelApi, context: CompactionContext): AgentSession {
  const main = kernel.session;
  if (main.sessionId === context.sessionId && main.agentId === context.agentId) return main;
  const unavailable = (what: string) => (): never => {
    throw new Error(`compaction: ${what} of sub-agent ${context.agentId} is not available to its recovery read`);
  };
  return {
    sessionId: context.sessionId,
    agentId: context.agentId,
    ...(context.parentAgentId ? { parentAgentId: context.parentAgentId } : {}),
    ...(context.agentType ? { agentType: context.agentType } : {}),
    projectRoot: context.projectRoot,
    homeDir: context.homeDir,
    get conversation(): never {
      return unavailable('the conversation')();
    },
    running: true,
    run: unavailable('run'),
    compact: unavailable('compact'),
    fork: unavailable('fork'),
    injectReminder: unavailable('injectReminder'),
    currentProvider: () => context.provider,
    switchModel: unavailable('switchModel'),
  };
}
