/**
 * The names of commits git's state files hold (what a later --continue, --abort, reset or bisect
 * reset takes) and the paths a `git am` patch could write, as git-planted-commits.ts reads them.
 */
import { patchedPaths, reflogNames, stateNames } from '../../../plugins/sandbox-os/git-planted-commits.js';

test('a todo list: the commit each picking line names (required), a merge\'s -C commit, labels as names and as refs/rewritten/; not exec lines, comments or subjects', () => {
  const todo = ['pick 1a2b3c4 first', 'p 5d6e7f8 short verb', 'fixup -C 9a8b7c6 amend message', 'merge -C abcdef0 feature # Merge branch', 'reset onto', 'exec make test', 'x echo hi', '# pick 0000000 commented', 'drop 1111111 dropped', 'label onto', 'break', 'pick :/tighten'].join('\n');
  expect(stateNames('rebase-merge/git-rebase-todo', todo)).toEqual({
    names: ['1a2b3c4', '5d6e7f8', '9a8b7c6', 'abcdef0', ':/tighten', 'feature', 'refs/rewritten/feature', 'onto', 'refs/rewritten/onto'],
    required: ['1a2b3c4', '5d6e7f8', '9a8b7c6', 'abcdef0', ':/tighten'],
  });
  expect(stateNames('sequencer/todo', 'revert 2222222 undo\npick 3333333 again\n')).toEqual({ names: ['2222222', '3333333'], required: ['2222222', '3333333'] });
});

test('a pseudo-ref or state file: the first word of each line (MERGE_HEAD holds one per merged commit), none required', () => {
  expect(stateNames('MERGE_HEAD', 'a'.repeat(40) + '\n' + 'b'.repeat(40) + '\n')).toEqual({ names: ['a'.repeat(40), 'b'.repeat(40)], required: [] });
  expect(stateNames('BISECT_START', 'main\n').names).toEqual(['main']);
  expect(stateNames('ORIG_HEAD', '').names).toEqual([]);
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

test('a pseudo-ref written as a symbolic ref: the ref it names', () => {
  expect(stateNames('ORIG_HEAD', 'ref: refs/notes/ci\n').names).toEqual(['refs/notes/ci']);
  expect(stateNames('FETCH_HEAD', `${'c'.repeat(40)}\t\tbranch 'x' of https://example.com/app\n`).names).toEqual(['c'.repeat(40)]);
});

test("a reflog's lines: both objects of each line, and the names a checkout's message gives (`git checkout -`)", () => {
  const [a, b, c] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(64)];
  const log = `${a} ${b} Dev <d@e> 1700000000 +0000\tcommit: x\n${b} ${c} Dev <d@e> 1700000001 +0000\tcheckout: moving from main to ${c}\nnot a line\n`;
  expect(reflogNames(log)).toEqual([a, b, b, c, 'main', c]);
});

test("a todo's option attached to its commit (`fixup -C<commit>`), and a reflog checkout line read as git reads `@{-1}` (up to the first \" to \")", () => {
  expect(stateNames('rebase-merge/git-rebase-todo', 'fixup -Cabc1234 subject\nfixup -c def5678\n').required).toEqual(['abc1234', 'def5678']);
  const h = 'a'.repeat(40);
  expect(reflogNames(`${h} ${h} a <a@a> 1 +0000\tcheckout: moving from PREV_HEAD to main \n`)).toEqual([h, h, 'PREV_HEAD', 'main']);
});

test('a state file other than a todo: an object name anywhere in it too (update-refs, rewritten-list)', () => {
  const [a, b] = ['a'.repeat(40), 'b'.repeat(40)];
  expect(stateNames('rebase-merge/update-refs', `refs/heads/x\n${a}\n${b}\n`).names).toEqual(['refs/heads/x', a, b]);
  expect(stateNames('rebase-merge/rewritten-list', `${a} ${b}\n`).names).toEqual([a, b]);
});
