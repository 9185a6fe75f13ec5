/**
 * The current catalog and its reloads. A reload scans into a new catalog and swaps it in with one
 * assignment; reloads that overlap are coalesced so the last one to start is the one that wins
 * (an older scan finishing late never replaces a newer catalog).
 */
import { emptyCatalog, loadCatalog, type CatalogOptions, type SkillCatalog, type SkillProblem } from './catalog.js';
import path from 'node:path';
import type { SkillRoot } from './skill.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export class CatalogStore {
  #current: SkillCatalog;
  #generation = 0;
  #reported = new Set<string>();
  #latest: Promise<SkillCatalog> | undefined;

  constructor(
    private readonly roots: () => readonly SkillRoot[],
    private readonly options: () => CatalogOptions,
    /** Told, after each scan, the problems not told before (K2: said once, not at every scan). */
    private readonly report: (problems: readonly SkillProblem[]) => void = () => undefined,
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
    const fresh: SkillProblem[] = [];
    for (const problem of next.problems) {
      const key = `${problem.file}\u0000${problem.message}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      fresh.push(problem);
    }
    if (fresh.length > 0) this.report(fresh);
    return next;
  }
}

/** `skills: <file>: <message>`, the one wording of a problem for warnings and listings. */
export function describeProblem(problem: SkillProblem): string {
  return `skills: ${terminalSafe(problem.file)}: ${problem.skipped ? 'skipped: ' : ''}${problem.message}`;
}

/** How many skipped skills a summary names. */
const NAMED_IN_SUMMARY = 5;

/**
 * One notice for a scan's problems: a single problem in full (it names its file); several as a
 * count, the skipped ones by name, and where the details are (`mewcode skills` lists each one).
 */
export function summarizeProblems(problems: readonly SkillProblem[]): string {
  if (problems.length === 1) return describeProblem(problems[0]!);
  const skipped = problems.filter((problem) => problem.skipped);
  const warned = new Set(problems.filter((problem) => !problem.skipped).map((problem) => problem.file));
  const nameOf = (problem: SkillProblem): string => problem.name ?? path.basename(path.dirname(problem.file));
  const parts: string[] = [];
  if (skipped.length > 0) {
    const names = skipped.slice(0, NAMED_IN_SUMMARY).map(nameOf).join(', ') + (skipped.length > NAMED_IN_SUMMARY ? `, … (${skipped.length} in all)` : '');
    parts.push(`${skipped.length} not loaded (${names})`);
  }
  if (warned.size > 0) parts.push(`${warned.size} loaded with ${warned.size === 1 ? 'a warning' : 'warnings'}`);
  const trust = skipped.some((problem) => problem.message.includes('--trust-project')) ? '; a project skill that carries scripts loads once you trust the project (--trust-project)' : '';
  return `skills: ${parts.join(', ')}${trust}. Details: mewcode skills`;
}
