/**
 * What SessionStart hooks said, until it joins the session's history. Claude Code keeps that
 * context for the whole session (output-style plugins depend on it), so it is not a one-request
 * reminder: it rides with the next prompt of the main session, is saved with it, and a continued
 * session finds it in its history.
 */
export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';

export class SessionStartContext {
  private readonly pending = new Map<string, string[]>();
  private readonly resumedIds = new Set<string>();

  keep(sessionId: string, texts: readonly string[]): void {
    const kept = texts.filter((text) => text.trim() !== '');
    if (kept.length > 0) this.pending.set(sessionId, [...(this.pending.get(sessionId) ?? []), ...kept]);
  }

  /** The texts not yet in the history of `sessionId`; they are in it once the caller adds them. */
  take(sessionId: string): string[] {
    const texts = this.pending.get(sessionId) ?? [];
    this.pending.delete(sessionId);
    return texts;
  }

  markResumed(sessionId: string): void {
    this.resumedIds.add(sessionId);
  }

  resumed(sessionId: string): boolean {
    return this.resumedIds.has(sessionId);
  }
}
