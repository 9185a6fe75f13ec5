/**
 * Refs and commits a sandboxed command made that git prints into the user's terminal as they are
 * (git-refs.ts), through the real sandbox on a real repository: a branch named with C1 controls
 * (git allows them; `git branch` and `git log --decorate` print them), a commit whose subject or
 * author holds an escape sequence on a branch the command moved, an annotated tag whose message
 * holds one. Made refs are removed, moved ones set back; UTF-8 names and subjects are left alone.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { commitProject, gitIn, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ID = '-c user.email=t@example.com -c user.name=t';
/** OSC 52 by C1 bytes (U+009D … U+009C, in UTF-8), which git allows in a ref name. */
const C1_OSC = '\\302\\23552;c;Y3VybA==\\302\\234';

let fx: SandboxFixture;
const git = gitIn(() => fx, [], 'latin1');

let base: string;
beforeEach(async () => {
  fx = await sandboxFixture();
  commitProject(fx, git, { 'a.txt': 'base\n', '.gitignore': '.mewcode/\n' }, 'base');
  base = git('rev-parse', 'HEAD').trim();
});

const said = (): string => fx.warnings.join('\n');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\u00c2[\u0080-\u009f]/;

test('a branch whose name holds C1 controls (OSC 52), made by the command: removed, named with escapes', async () => {
  if (skipWithoutSandbox(tally, 'ref name', fx.status)) return;
  const out = await fx.run(`git branch "x$(printf '${C1_OSC}')" && git branch | wc -l`);
  expect(String(out.content)).toMatch(/^2\s*$/m); // git took the name
  expect(git('for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  expect(said()).toMatch(new RegExp(`the command made the ref "refs/heads/x\\\\x9d52;c;Y3VybA==\\\\x9c" in "[^"]+" \\(→ ${base}\\), and its name holds a terminal control character.*MewCode removed it`));
  expect(said()).not.toMatch(/[\u0080-\u009f\u001b]/);
}, 30_000);

test('a commit with an escape sequence in its subject, on the branch the command moved: the branch is set back, git log prints no control', async () => {
  if (skipWithoutSandbox(tally, 'commit subject', fx.status)) return;
  await fx.run(`echo more >> a.txt && git ${ID} commit -qam "$(printf 'fix \\033]52;c;Y3VybA==\\007')" && echo again >> a.txt && git ${ID} commit -qam 'clean on top'`);
  expect(git('rev-parse', 'main').trim()).toBe(base);
  expect(git('log', '--all', '--format=%s%n%an')).not.toMatch(CONTROL);
  expect(said()).toMatch(new RegExp(`the command moved the ref "refs/heads/main" in "[^"]+" \\(→ [0-9a-f]{40}\\), and it leads to the commit [0-9a-f]{40}, whose message or author holds a terminal control character.*MewCode set it back to ${base}`));
}, 30_000);

test('an author name with a C1 control, and an annotated tag whose message holds one: set back and removed', async () => {
  if (skipWithoutSandbox(tally, 'author and tag', fx.status)) return;
  await fx.run(
    `git ${ID} tag -a v1 -m "$(printf 'release \\302\\233 2J')" && git checkout -q -b topic && echo t >> a.txt && git -c user.email=t@e -c "user.name=$(printf 'x\\302\\2330m')" commit -qam topic`,
  );
  expect(git('for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  expect(said()).toMatch(/the command made the ref "refs\/tags\/v1" .*it names the tag [0-9a-f]{40}, whose name or message holds a terminal control character.*MewCode removed it/);
  expect(said()).toMatch(/the command made the ref "refs\/heads\/topic" .*whose message or author holds a terminal control character.*MewCode removed it/);
}, 30_000);

test('control: UTF-8 branch names and subjects, a merge, a tag: left as they are, nothing said', async () => {
  if (skipWithoutSandbox(tally, 'ordinary refs', fx.status)) return;
  await fx.run(
    `git checkout -q -b 'café-ü' && echo t >> a.txt && git ${ID} commit -qam 'Café → “topic” — ő' && git checkout -q main && git ${ID} merge -q --no-ff -m 'Merge ‘café’' 'café-ü' && git ${ID} tag -a v1 -m 'Ünïcödé release' && git log --oneline --decorate | wc -l`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2600)); // a listing kept from before (nothing changed): still nothing said
  await fx.run('git status --short');
  expect(git('for-each-ref', '--format=%(refname)').split('\n').filter(Boolean).length).toBe(3);
  expect(fx.warnings).toEqual([]);
}, 30_000);

test('a reftable repository (which this git cannot read): what the command changed there is reported as not checked, never taken for clean', async () => {
  if (skipWithoutSandbox(tally, 'reftable', fx.status)) return;
  // git 2.39 cannot make one: the extension is declared by hand, as a newer git would (the config is read-only to commands).
  git('config', 'core.repositoryformatversion', '1');
  git('config', 'extensions.refStorage', 'reftable');
  execFileSync('mkdir', ['-p', path.join(fx.root, '.git', 'reftable')]);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  await fx.run(`printf 'tables\\n' > .git/reftable/tables.list`);
  expect(said()).toMatch(/the refs of "[^"]+" \(a reftable, which this git may not read\) could not be listed \(it exited with \d+\), so the names and commits the command made there were not checked for terminal control characters/);
}, 30_000);
