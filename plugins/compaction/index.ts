/**
 * Compaction (SPEC C5–C8). Layer 1 is here: large tool results leave each request for a file
 * under the session's directory, with a stable preview in their place (layer-one.ts). Layer 2
 * (the summary, through TOKENS.CompactionService and the kernel's compaction procedure) is not
 * built yet.
 */
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { LayerOne } from './layer-one.js';

export const NAME = 'compaction';

export function createCompactionPlugin(): MewcodePlugin {
  return definePlugin({
    name: NAME,
    version: '0.2.0',
    apply(kernel) {
      const reported = new Set<string>();
      const layer = new LayerOne({
        projectRoot: kernel.projectRoot,
        onSaveFailed: (toolCallId, error) => {
          if (reported.has(toolCallId)) return;
          reported.add(toolCallId);
          kernel.warn(`${NAME}: a large tool result (${toolCallId}) could not be saved, so it is sent in full and saved on a later request: ${error.message}`);
        },
      });
      // First in the waterfall: it sees the history array itself, which only grows between turns.
      kernel.hooks.preModelRequest.tapPromise({ name: NAME, stage: -1000 }, async (request, context) => ({
        ...request,
        messages: layer.apply(`${context.sessionId}/${context.agentId}`, context.sessionId, request.messages),
      }));
      // A finished sub-agent's copy would only take memory.
      kernel.hooks.subagentStop.tapPromise(NAME, async (context) => layer.forget(`${context.sessionId}/${context.agentId}`));
    },
  });
}

export default createCompactionPlugin();
