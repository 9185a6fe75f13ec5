/**
 * What sub-agents are doing, as progress lines in the live region: one line per running
 * sub-agent (foreground or background task) naming it and its latest tool call, gone when it
 * ends. A background task outlives the run that started it, so its line stays while the user
 * types the next prompt. The role comes from configuration and the description from the model:
 * both are made terminal-safe.
 */
import { terminalSafe } from '../../../config/terminal-safe.js';
import type { ToolCall } from '../../../types/messages.js';
import type { SubagentEvent, SubagentRunner } from '../../../types/subagents.js';
import type { UiStore } from './ui-store.js';

/** A description longer than this is cut (the line also names the role and the call). */
const DESCRIPTION_WIDTH = 40;

export function followSubagents(runner: SubagentRunner | undefined, store: UiStore, describeCall: (call: ToolCall) => string): () => void {
  if (!runner?.subscribe) return () => undefined;
  return runner.subscribe((sub) => {
    const id = `subagent:${sub.agentId}`;
    switch (sub.event.type) {
      case 'iteration':
        if (sub.event.iteration === 1) store.startProgress(id, `${who(sub)}: working…`);
        return;
      case 'tool_start':
        store.startProgress(id, `${who(sub)}: ${describeCall(sub.event.call)}`);
        return;
      case 'done':
        store.endProgress(id);
        return;
      default:
        return;
    }
  });
}

function who(sub: SubagentEvent): string {
  const description = sub.description === undefined ? '' : terminalSafe(sub.description).replace(/\s+/g, ' ').trim();
  const cut = description.length > DESCRIPTION_WIDTH ? `${description.slice(0, DESCRIPTION_WIDTH - 1)}…` : description;
  return `${sub.taskId === undefined ? 'Sub-agent' : 'Background task'} ${terminalSafe(sub.role)}${cut ? ` (${cut})` : ''}`;
}
