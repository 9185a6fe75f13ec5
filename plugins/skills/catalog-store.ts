/**
 * The current catalog and its reloads. A reload scans into a new catalog and swaps it in with one
 * assignment; reloads that overlap are coalesced so the last one to start is the one that wins
 * (an older scan finishing late never replaces a newer catalog).
 */
import { emptyCatalog, loadCatalog, type CatalogOptions, type SkillCatalog, type SkillProblem } from './catalog.js';
import type { SkillRoot } from './skill.js';

export class CatalogStore {
  #current: SkillCatalog;
  #generation = 0;
  #reported = new Set<string>();
  #latest: Promise<SkillCatalog> | undefined;

  constructor(
    private readonly roots: () => readonly SkillRoot[],
    private readonly options: () => CatalogOptions,
    /** Told each problem once (K2: skipped folders and fixed-up values are said, naming the file). */
    private readonly report: (problem: SkillProblem) => void = () => undefined,
  ) {
    this.#current = emptyCatalog();
  }

  get current(): SkillCatalog {
    return this.#current;
  }

  /** Scan again; resolves to the catalog in place afterwards. */
  reload(): Promise<SkillCatalog> {
    const generation = ++this.#generation;
    const scan = this.scan(generation);
    this.#latest = scan;
    return scan;
  }

  private async scan(generation: number): Promise<SkillCatalog> {
    const next = await loadCatalog(this.roots(), this.options());
    // A newer reload started while this one scanned: its result wins, and this caller gets it too.
    if (generation !== this.#generation) return this.#latest ?? this.#current;
    this.#current = next;
    for (const problem of next.problems) {
      const key = `${problem.file}\u0000${problem.message}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      this.report(problem);
    }
    return next;
  }
}

/** `skills: <file>: <message>`, the one wording of a problem for warnings and listings. */
export function describeProblem(problem: SkillProblem): string {
  return `skills: ${problem.file}: ${problem.skipped ? 'skipped: ' : ''}${problem.message}`;
}
