/**
 * Claude Code's `duration_api_ms`: the time a run spent waiting on model requests, its sub-agents'
 * included (so, as there, it may exceed `duration_ms` when they run in parallel). A request is
 * timed from its turn's `iteration` event to its `usage`, `error` or `done`: what lies between is
 * the request (and a compaction's request before it), never a tool call, which starts after.
 */
import type { AgentEvent } from '../../types/events.js';
import { monotonicMs } from '../monotonic-clock.js';

export class ApiTime {
  readonly #open = new Map<string, number>();
  #totalMs = 0;

  /** One agent's event (`agentId`: main's or a sub-agent's). */
  see(agentId: string, event: AgentEvent): void {
    if (event.type === 'iteration') {
      this.#close(agentId);
      this.#open.set(agentId, monotonicMs());
    } else if (event.type === 'usage' || event.type === 'error' || event.type === 'done') this.#close(agentId);
  }

  /** The whole milliseconds so far (a request still open counts up to now). */
  totalMs(): number {
    const now = monotonicMs();
    let open = 0;
    for (const started of this.#open.values()) open += now - started;
    return Math.round(this.#totalMs + open);
  }

  #close(agentId: string): void {
    const started = this.#open.get(agentId);
    if (started === undefined) return;
    this.#totalMs += monotonicMs() - started;
    this.#open.delete(agentId);
  }
}
