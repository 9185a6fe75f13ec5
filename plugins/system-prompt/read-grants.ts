/**
 * The one file outside the project whose reading is being judged right now (judged-reads.ts),
 * offered to the sandbox layer under TOKENS.ReadOnlyDirectories for that session while the
 * decision is made, and withdrawn as soon as it is: the user's own instruction files and their
 * imports from the home pass the project boundary, so that the layers after the sandbox (the
 * rules, the organisation's policies) are the ones that decide. Never a folder, never longer than
 * one decision.
 */
import type { ReadOnlyDirectories } from '../../types/services.js';

export class ReadGrants implements ReadOnlyDirectories {
  /** Per session: real paths held, with how many decisions hold each. */
  private readonly held = new Map<string, Map<string, number>>();

  directories(session: { sessionId: string; agentId: string }): readonly string[] {
    return [...(this.held.get(session.sessionId)?.keys() ?? [])];
  }

  /** Offers `real` (a file's real path) to `sessionId`'s reads until the returned release is called. */
  hold(sessionId: string, real: string): () => void {
    let files = this.held.get(sessionId);
    if (files === undefined) this.held.set(sessionId, (files = new Map()));
    files.set(real, (files.get(real) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const count = (files.get(real) ?? 1) - 1;
      if (count > 0) files.set(real, count);
      else files.delete(real);
      if (files.size === 0) this.held.delete(sessionId);
    };
  }
}
