/**
 * The names of commits git's state files hold (what a later --continue, --abort, reset or bisect
 * reset takes) and the paths a `git am` patch could write, as git-planted-commits.ts reads them.
 */
import { patchedPaths, stateNames } from '../../../plugins/sandbox-os/git-planted-commits.js';

test('a todo list: the commits every picking verb names, not exec lines, comments or options', () => {
  const todo = ['pick 1a2b3c4 first', 'p 5d6e7f8 short verb', 'fixup -C 9a8b7c6 amend message', 'merge -C abcdef0 feature # Merge branch', 'reset onto', 'exec make test', 'x echo hi', '# pick 0000000 commented', 'drop 1111111 dropped', 'label onto', 'break'].join('\n');
  expect(stateNames('rebase-merge/git-rebase-todo', todo)).toEqual(['1a2b3c4', 'first', '5d6e7f8', 'short', 'verb', '9a8b7c6', 'amend', 'message', 'abcdef0', 'feature', 'onto']);
  expect(stateNames('sequencer/todo', 'revert 2222222 undo\npick 3333333 again\n')).toEqual(['2222222', 'undo', '3333333', 'again']);
});

test('a pseudo-ref or state file: the first word of each line (MERGE_HEAD holds one per merged commit)', () => {
  expect(stateNames('MERGE_HEAD', 'a'.repeat(40) + '\n' + 'b'.repeat(40) + '\n')).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
  expect(stateNames('BISECT_START', 'main\n')).toEqual(['main']);
  expect(stateNames('ORIG_HEAD', '')).toEqual([]);
});

test("a patch's paths: each header, quoted names unescaped, leading folders stripped as -p would, under --directory", () => {
  const patch = ['diff --git a/src/x.ts b/.githooks/pre-commit', '--- a/src/x.ts', '+++ b/.githooks/pre-commit', '@@ -1 +1 @@', '-a', '+b', 'diff --git "a/\\303\\251t\\303\\251" "b/.vscode/tasks.json"', 'rename to .idea/workspace.xml'].join('\n');
  const paths = patchedPaths(patch);
  expect(paths).toEqual(expect.arrayContaining(['.githooks/pre-commit', 'src/x.ts', 'été', '.vscode/tasks.json', '.idea/workspace.xml']));
  // A -p0 patch (no a/ b/ prefix) and a deeper -p3 one both reach the hook.
  expect(patchedPaths('+++ .githooks/pre-commit\n')).toContain('.githooks/pre-commit');
  expect(patchedPaths('+++ x/y/z/.githooks/pre-commit\n')).toContain('.githooks/pre-commit');
  expect(patchedPaths('+++ b/pre-commit\n', '.githooks')).toContain('.githooks/pre-commit');
  expect(patchedPaths('no headers here\n+++not a header\n')).toEqual([]);
});
