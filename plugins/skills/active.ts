/**
 * Active skills per session (S4): kept in first-activation order, a re-activation replaces its
 * entry in place (the block's order stays stable), shown in the per-request environment block.
 */
import type { ActiveEntry } from './render.js';

type SessionKey = { sessionId: string; agentId: string };

const keyOf = (session: SessionKey): string => `${session.sessionId}\u0000${session.agentId}`;

export class ActiveSkills {
  readonly #bySession = new Map<string, ActiveEntry[]>();

  /** `changed` is told a session's list after each activation or replacement (to save it). */
  constructor(private readonly changed: (session: SessionKey, entries: readonly ActiveEntry[]) => void = () => undefined) {}

  activate(session: SessionKey, entry: ActiveEntry): void {
    const key = keyOf(session);
    const entries = this.#bySession.get(key) ?? [];
    const index = entries.findIndex((e) => e.name === entry.name);
    if (index === -1) entries.push(entry);
    else entries[index] = entry;
    this.#bySession.set(key, entries);
    this.changed(session, entries);
  }

  list(session: SessionKey): readonly ActiveEntry[] {
    return this.#bySession.get(keyOf(session)) ?? [];
  }

  replaceAll(session: SessionKey, entries: ActiveEntry[]): void {
    this.#bySession.set(keyOf(session), entries);
    this.changed(session, entries);
  }

  /** Forget the agent's skills (a new or a different resumed session), except those of `keep`. */
  clearAgent(agentId: string, keepSessionId?: string): void {
    for (const key of [...this.#bySession.keys()]) {
      const [sessionId, agent] = key.split('\u0000');
      if (agent === agentId && sessionId !== keepSessionId) this.#bySession.delete(key);
    }
  }
}
