/**
 * The adversarial suite's tally (issue 8): each security test file records how many attempts it
 * made and which escaped; jest's global teardown prints `N attempts, 0 escapes` for the whole run.
 * A test that lets an attempt escape must also fail on its own — this file only counts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Tally {
  attempts: number;
  escapes: string[];
  skipped: { count: number; reason: string }[];
}

/** Create a tally for one suite; its result is written when the suite ends (call in afterAll). */
export function securityTally(suite: string): Tally & { attempt(name: string, escaped: boolean): void; skip(count: number, reason: string): void; save(): void } {
  const tally: Tally = { attempts: 0, escapes: [], skipped: [] };
  return {
    get attempts() {
      return tally.attempts;
    },
    get escapes() {
      return tally.escapes;
    },
    get skipped() {
      return tally.skipped;
    },
    attempt(name: string, escaped: boolean) {
      tally.attempts++;
      if (escaped) tally.escapes.push(name);
    },
    skip(count: number, reason: string) {
      tally.skipped.push({ count, reason });
    },
    save() {
      const dir = process.env.MEWCODE_SECURITY_RESULTS;
      if (!dir) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${suite.replace(/[^a-z0-9-]/gi, '_')}.json`), JSON.stringify({ suite, ...tally }));
    },
  };
}
