/**
 * What else git prints from a repository as it is, through the real sandbox on a real repository
 * (git-refs.ts, git-reflogs.ts, git-mailmap.ts): a note (`git log` prints it under the commit),
 * a reflog line (`git reflog`), a git-ignored `.mailmap` (`git log` prints the mapped author), a
 * tag naming a tag whose message holds an escape (`git show`). Each is undone or set aside; the
 * ordinary forms of each say nothing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { commitProject, gitIn, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ID = 'GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e';
const OSC = "$(printf '\\033]52;c;Y3VybA==\\007')";

let fx: SandboxFixture;
const git = gitIn(() => fx, [], 'latin1');

beforeEach(async () => {
  fx = await sandboxFixture();
  commitProject(fx, git, { 'a.txt': 'base\n', '.gitignore': '.mewcode/\n.mailmap\n' }, 'base');
});

const said = (): string => fx.warnings.join('\n');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\u00c2[\u0080-\u009f]/;

test('a note holding OSC 52 on an existing commit: the notes ref is removed, git log prints no control', async () => {
  if (skipWithoutSandbox(tally, 'notes', fx.status)) return;
  await fx.run(`${ID} git notes add -m "reviewed ${OSC} ok" HEAD`);
  expect(git('for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  expect(git('log')).not.toMatch(CONTROL);
  expect(said()).toMatch(/the command made the ref "refs\/notes\/commits" .*it adds the note [0-9a-f]{40}, which holds a terminal control character.*MewCode removed it/);
}, 30_000);

test('a note added to notes that existed: the notes ref is set back to the user\'s', async () => {
  if (skipWithoutSandbox(tally, 'notes moved', fx.status)) return;
  git('notes', 'add', '-m', 'mine', 'HEAD');
  const mine = git('rev-parse', 'refs/notes/commits').trim();
  await fx.run(`echo b >> a.txt && ${ID} git commit -qam second && ${ID} git notes add -m "x ${OSC}" HEAD`);
  expect(git('rev-parse', 'refs/notes/commits').trim()).toBe(mine);
  expect(said()).toMatch(new RegExp(`the command moved the ref "refs/notes/commits" .*it adds the note .*MewCode set it back to ${mine}`));
}, 30_000);

test('reflog lines with escapes (update-ref -m, a line appended to logs/HEAD): cut off, the reflog from before kept', async () => {
  if (skipWithoutSandbox(tally, 'reflog', fx.status)) return;
  const headLog = path.join(fx.root, '.git', 'logs', 'HEAD');
  const mainLog = path.join(fx.root, '.git', 'logs', 'refs', 'heads', 'main');
  const before = readFileSync(headLog, 'latin1');
  const beforeMain = readFileSync(mainLog, 'latin1');
  await fx.run(
    `echo b >> a.txt && ${ID} git commit -qam second && ${ID} git update-ref -m "rl ${OSC}" refs/heads/main HEAD~1 && h=$(git rev-parse HEAD) && printf '%s %s x <x@e> 1700000000 +0000\\tcheckout: \\033]0;T\\007\\n' $h $h >> .git/logs/HEAD`,
  );
  expect(readFileSync(headLog, 'latin1')).toBe(before);
  expect(readFileSync(mainLog, 'latin1')).toBe(beforeMain);
  expect(git('reflog')).not.toMatch(CONTROL);
  expect(said()).toMatch(/reflog lines holding a terminal control character to "[^"]*\.git\/logs\/HEAD" .*MewCode cut them off/);
  expect(said()).toMatch(/reflog lines holding a terminal control character to "[^"]*\.git\/logs\/refs\/heads\/main" .*MewCode cut them off/);
}, 30_000);

test('a reflog the command made (a new branch) holding an escape, or one rewritten in place: set aside', async () => {
  if (skipWithoutSandbox(tally, 'reflog made', fx.status)) return;
  const mainLog = path.join(fx.root, '.git', 'logs', 'refs', 'heads', 'main');
  const size = statSync(mainLog).size;
  await fx.run(
    `${ID} git update-ref -m "new ${OSC}" refs/heads/topic HEAD && ` +
      `f=.git/logs/refs/heads/main && head -c ${size - 6} $f > /tmp/l && printf '\\033]0;x\\n' >> /tmp/l && cat /tmp/l > $f`,
  );
  expect(statSync(`${mainLog}.quarantined-by-mewcode`).size).toBe(size); // rewritten in place, not grown
  expect(said()).toMatch(/the command (made|rewrote) the reflog "[^"]*logs\/refs\/heads\/topic" .*holds a terminal control character.*MewCode set it aside/);
  expect(said()).toMatch(/the command rewrote the reflog "[^"]*logs\/refs\/heads\/main" .*MewCode set it aside/);
  expect(git('reflog', 'show', 'main')).not.toMatch(CONTROL);
}, 30_000);

test('a git-ignored .mailmap mapping an author to OSC 52: set aside, git log prints no control', async () => {
  if (skipWithoutSandbox(tally, 'mailmap', fx.status)) return;
  await fx.run(`printf '%s <t@t>\\n' "Tom${OSC}" > .mailmap && git status --short`);
  expect(existsSync(path.join(fx.root, '.mailmap'))).toBe(false);
  expect(git('log', '-1')).not.toMatch(CONTROL);
  expect(said()).toMatch(/the command left the mailmap "[^"]*\.mailmap" in "[^"]+" holding a terminal control character.*MewCode set it aside/);
}, 30_000);

test('a tag naming a tag whose message holds an escape (the outer one clean): the tag ref is removed', async () => {
  if (skipWithoutSandbox(tally, 'tag of a tag', fx.status)) return;
  await fx.run(
    `${ID} git tag -a inner -m "in ${OSC}" HEAD && i=$(git rev-parse refs/tags/inner) && git update-ref -d refs/tags/inner && ` +
      `printf 'object %s\\ntype tag\\ntag v1.0\\ntagger Dev <dev@e> 1700000000 -0000\\n\\nrelease\\n' $i > t.txt && o=$(git hash-object -t tag -w t.txt) && git update-ref refs/tags/v1.0 $o && rm t.txt`,
  );
  expect(git('for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  expect(said()).toMatch(/the command made the ref "refs\/tags\/v1.0" .*it names the tag [0-9a-f]{40}, which leads to the tag [0-9a-f]{40}, whose name or message holds a terminal control character.*MewCode removed it/);
}, 30_000);

test('a file whose name holds C1 controls (git status prints it raw under core.quotePath=false): named with escapes', async () => {
  if (skipWithoutSandbox(tally, 'C1 name', fx.status)) return;
  await fx.run(`echo hi > "$(printf 'notes\\302\\2350;T\\302\\234.md')"`);
  expect(said()).toMatch(/the command made a file whose name holds a terminal control character: "[^"]*\/notes\\x9d0;T\\x9c\.md"; `git status` with core.quotePath=false/);
  expect(said()).not.toMatch(/[\u0080-\u009f\u001b]/);
}, 30_000);

test('control: notes, commits and checkouts (reflog lines), a clean .mailmap, a tag of a tag: nothing said, nothing undone', async () => {
  if (skipWithoutSandbox(tally, 'ordinary', fx.status)) return;
  git('notes', 'add', '-m', 'mine', 'HEAD');
  await fx.run(
    `${ID} git notes append -m 'Café — “ok”' HEAD && git checkout -q -b 'café' && echo t >> a.txt && ${ID} git commit -qam 'Ünïcödé' && git checkout -q main && ${ID} git merge -q --no-ff -m merge café && ` +
      `printf 'Tom Ünï <t@t>\\n' > .mailmap && echo x > 'ő café “q”.md' && ${ID} git tag -a inner -m inner HEAD && ${ID} git tag -a outer -m 'outer ő' inner && ${ID} git stash list && git reflog | wc -l`,
  );
  expect(fx.warnings).toEqual([]);
  expect(existsSync(path.join(fx.root, '.mailmap'))).toBe(true);
  expect(git('for-each-ref', '--format=%(refname)').split('\n').filter(Boolean).length).toBe(5);
  expect(git('notes', 'show', 'main~1')).toMatch(/mine\n\nCaf/);
}, 30_000);
