/**
 * The rules layer's Read deny (and ask) rules, made unreadable inside the sandbox (A13):
 * `deny: ["Read(./secrets/**)"]` must hold for `cat secrets/key` in bash too, which runs
 * without asking because it is sandboxed.
 *
 * permission-rules exposes its read rules only as a predicate (TOKENS.SearchPolicy, what glob
 * and grep leave out), with its own anchors, layer precedence and link resolution, which this
 * file does not repeat. A predicate cannot list paths, so at each call candidates are offered
 * to it, breadth first (shallow paths like `./.env` before deep ones like node_modules):
 * - with `prefixes` (the rules' literal prefixes): each prefix and everything below it;
 * - without (today): everything below each writable root, and the home directory's entries one
 *   level deep (`Read(~/.netrc)`, `Read(~/private/**)`). Deeper paths outside the writable roots
 *   (`Read(~/.config/app/token)`, `Read(//etc/app/key)`) are not found: the Read tool obeys
 *   those rules, commands do not, until the rules layer can list its prefixes.
 * A directory the predicate covers is hidden whole and not entered, so files the host adds to it
 * later are hidden too. A path that is or holds a writable root is never hidden whole (no command
 * could run); it is entered instead. `objects` below a `.git` is skipped: no rule names loose
 * objects, and there are many.
 *
 * Bounds, per call: MAX_RULE_HIDDEN hidden paths (each is one mount; bubblewrap takes about a
 * second for 1000, 20 ms for 100) and MAX_RULE_VISITED entries offered (≈ 0.3 s for 20 000,
 * most of it the predicate resolving links; only with Read rules, which most users have not).
 * Beyond either the walk stops, what it found is hidden, and `truncated` says so (the service
 * warns once). `prefixes` would make the walk as small as the rules' own directories.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxReadRules } from '../../types/sandbox.js';
import { isPathWithin } from '../../types/path-within.js';

export const MAX_RULE_HIDDEN = 1000;
export const MAX_RULE_VISITED = 20_000;

export interface RuleHidden {
  /** Absolute paths (links resolved) to make unreadable. */
  paths: string[];
  truncated: boolean;
}

export async function ruleHiddenPaths(rules: SandboxReadRules, writableRoots: readonly string[], homeDir: string): Promise<RuleHidden> {
  const covered: string[] = [];
  const queue: string[] = [];
  const queued = new Set<string>();
  let visited = 0;
  const holdsRoot = (target: string): boolean => writableRoots.some((root) => isPathWithin(target, root));
  const enter = (dir: string): void => {
    if (queued.has(dir)) return;
    queued.add(dir);
    queue.push(dir);
  };
  const judge = (target: string): boolean => {
    try {
      return rules.hidden(target);
    } catch {
      return true; // the rule could not be evaluated: fail closed
    }
  };
  /** Judges one candidate; false once a bound is reached. Synchronous: it runs for every entry. */
  const offer = (candidate: string, isDir: boolean, mayEnter: boolean): boolean => {
    if (++visited > MAX_RULE_VISITED || covered.length >= MAX_RULE_HIDDEN) return false;
    if (judge(candidate)) {
      if (!holdsRoot(candidate)) covered.push(candidate);
      else if (isDir) enter(candidate); // hide what it holds besides the root
    } else if (isDir && mayEnter) enter(candidate);
    return true;
  };
  const done = async (truncated: boolean): Promise<RuleHidden> => {
    // The mount lands on what a read reaches: a link in the project to a secret hides the secret.
    const reals = await Promise.all(covered.map((target) => realpath(target).catch(() => target)));
    return { paths: [...new Set(reals.filter((real) => !holdsRoot(real)))], truncated };
  };

  if (rules.prefixes) {
    for (const prefix of rules.prefixes) {
      const kind = await kindOf(prefix);
      if (kind !== 'missing' && !offer(prefix, kind === 'dir', true)) return done(true);
    }
  } else {
    // Roots inside another root are walked with it.
    for (const root of writableRoots) if (!writableRoots.some((other) => other !== root && isPathWithin(other, root))) enter(root);
    if (!writableRoots.some((root) => isPathWithin(root, homeDir))) {
      for (const entry of await list(homeDir)) if (!offer(path.join(homeDir, entry.name), entry.isDirectory(), false)) return done(true);
    }
  }
  // One level at a time, its directories listed together: one by one, the round trips to the
  // thread pool cost more than the listing (≈ 150 ms for 2000 directories).
  while (queue.length > 0) {
    const level = queue.splice(0);
    const listings = await Promise.all(level.map((dir) => list(dir)));
    for (const [index, dir] of level.entries()) {
      for (const entry of listings[index]!) {
        if (entry.name === 'objects' && path.basename(dir) === '.git') continue;
        // Links are judged (the predicate follows them) but never entered: no loops, no way out of the tree.
        if (!offer(path.join(dir, entry.name), entry.isDirectory(), true)) return done(true);
      }
    }
  }
  return done(false);
}

async function list(dir: string): Promise<{ name: string; isDirectory(): boolean }[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // gone, or not readable by MewCode either
  }
}

async function kindOf(target: string): Promise<'dir' | 'other' | 'missing'> {
  try {
    return (await lstat(target)).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}
