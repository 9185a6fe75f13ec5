/**
 * The refs' listing (git-refs.ts): calls side by side with the refs where they were (a turn's bash
 * calls, each reading its state before its command) share one git process; a ref moved since is
 * listed again.
 */
import path from 'node:path';
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
