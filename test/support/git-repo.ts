/**
 * Makes a directory a git repository (no commits, an empty index). A personal `*.local.*` settings file counts as
 * the user's only inside a repository that does not track it; outside any repository MewCode
 * cannot tell it from one that came in an archive, so tests of personal files use a repository.
 */
import { execFileSync } from 'node:child_process';

export function initRepo(dir: string): void {
  execFileSync('git', ['init', '-q', dir], { stdio: 'ignore' });
  // An (empty) index: without one MewCode cannot tell a personal file from one an archive brought.
  execFileSync('git', ['read-tree', '--empty'], { cwd: dir, stdio: 'ignore' });
}
