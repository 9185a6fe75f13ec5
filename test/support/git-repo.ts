/**
 * Makes a directory a git repository (no commits, an empty index), for tests of what git
 * tracks (sessions committed to a repository are not resumed).
 */
import { execFileSync } from 'node:child_process';

export function initRepo(dir: string): void {
  execFileSync('git', ['init', '-q', dir], { stdio: 'ignore' });
  // An (empty) index: without one a reader cannot tell an untracked file from an unreadable index.
  execFileSync('git', ['read-tree', '--empty'], { cwd: dir, stdio: 'ignore' });
}
