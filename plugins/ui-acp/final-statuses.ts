/**
 * A tool call's `completed` or `failed` is final: once the editor was told a call ended, no later
 * update of that call is sent (a sub-agent's result arriving after its turn failed it, a second
 * ending). A new `tool_call` announcement under the id starts it afresh (a replay, a model that
 * reuses ids across turns).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

/** Ended calls remembered at most (the oldest forgotten first): a long session does not grow it for ever. */
const MAX_REMEMBERED = 4096;

export class FinalStatuses {
  private readonly ended = new Set<string>();

  /** Whether `update` may go to the editor; notes a call that it ends. */
  admit(update: SessionUpdate): boolean {
    if (update.sessionUpdate === 'tool_call') this.ended.delete(update.toolCallId);
    else if (update.sessionUpdate !== 'tool_call_update') return true;
    else if (this.ended.has(update.toolCallId)) return false;
    if (update.status === 'completed' || update.status === 'failed') {
      if (this.ended.size >= MAX_REMEMBERED) this.ended.delete(this.ended.values().next().value as string);
      this.ended.add(update.toolCallId);
    }
    return true;
  }
}
