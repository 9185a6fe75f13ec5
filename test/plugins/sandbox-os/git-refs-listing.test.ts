/**
 * The refs' listing (git-refs.ts): calls side by side with the refs where they were (a turn's bash
 * calls, each reading its state before its command) share one git process; a ref moved since is
 * listed again, and what is listed within a tick of the file system's clock (file-clock.ts) is not
 * kept: the next listing asks git again.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FINE_TICK_MS, onFineClockFileSystem } from '../../../plugins/sandbox-os/file-clock.js';
import { listRefs } from '../../../plugins/sandbox-os/git-refs.js';
import { loggedGitRepo } from './logged-git.js';

test('four listings asked at once start one git; after a commit the next listing sees it', async () => {
  const repo = await loggedGitRepo();
  const gitDir = path.join(repo.project, '.git');
  const restorePath = repo.onPath();
  try {
    const four = await Promise.all([0, 1, 2, 3].map(() => listRefs(gitDir, gitDir, repo.project)));
    expect(repo.count('for-each-ref')).toBe(1);
    const head = repo.git('rev-parse', 'HEAD').trim();
    for (const listed of four) expect('refs' in listed && listed.refs.get('refs/heads/main')).toBe(head);

    repo.reset();
    repo.git('commit', '-q', '--no-verify', '--allow-empty', '-m', 'b');
    const after = await listRefs(gitDir, gitDir, repo.project);
    expect(repo.count('for-each-ref')).toBe(1);
    expect('refs' in after && after.refs.get('refs/heads/main')).toBe(repo.git('rev-parse', 'HEAD').trim());
  } finally {
    restorePath();
    await repo.remove();
  }
});

/** The newest ctime or mtime of where git keeps the refs (as git-refs.ts stamps them). */
function newestRefTime(gitDir: string): number {
  let newest = -Infinity;
  const visit = (file: string): void => {
    const info = lstatSync(file, { throwIfNoEntry: false });
    if (!info) return;
    newest = Math.max(newest, info.ctimeMs, info.mtimeMs);
    if (info.isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name));
  };
  for (const name of ['refs', 'reftable', 'packed-refs', 'HEAD']) visit(path.join(gitDir, name));
  return newest;
}

test('refs moved within a tick of the file system clock are listed again; a tick later the listing is kept and reused', async () => {
  const repo = await loggedGitRepo();
  const gitDir = path.join(repo.project, '.git');
  const restorePath = repo.onPath();
  try {
    repo.git('commit', '-q', '--no-verify', '--allow-empty', '-m', 'b');
    repo.reset();
    // This machine's temporary directory has nanosecond times: the tick is FINE_TICK_MS (file-clock.ts).
    expect(onFineClockFileSystem(gitDir)).toBe(true);
    const newest = newestRefTime(gitDir);
    const within = (): number => newest + FINE_TICK_MS - 1;
    // 1 ms short of a tick: listed, and not kept (a change in the same tick could leave the times as they are).
    await listRefs(gitDir, gitDir, repo.project, within);
    await listRefs(gitDir, gitDir, repo.project, within);
    expect(repo.count('for-each-ref')).toBe(2);
    const past = (): number => newest + FINE_TICK_MS;
    const kept = await listRefs(gitDir, gitDir, repo.project, past);
    expect(repo.count('for-each-ref')).toBe(3);
    const reused = await listRefs(gitDir, gitDir, repo.project, past);
    expect(repo.count('for-each-ref')).toBe(3);
    expect(reused).toBe(kept);
    expect('refs' in reused && reused.refs.get('refs/heads/main')).toBe(repo.git('rev-parse', 'HEAD').trim());
  } finally {
    restorePath();
    await repo.remove();
  }
});
