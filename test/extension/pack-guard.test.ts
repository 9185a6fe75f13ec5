/**
 * `npm pack` refuses a dist/ that would ship a broken or foreign package: one built without type
 * declarations (`npm test` builds so, while package.json's `types` and `exports` point into
 * dist/types/), one missing dist/types/index.d.ts, and one built from another commit. The check is
 * package.json's `prepack` (scripts/check-pack.mjs) reading the stamp scripts/bundle.mjs writes;
 * here it runs through a real `npm pack --dry-run` in a scratch git checkout holding this
 * repository's package.json and script, and a dist/ of each kind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let scratch: string;
let head: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'mewcode-pack-guard-'));
  mkdirSync(path.join(scratch, 'scripts'));
  copyFileSync(path.join(ROOT, 'package.json'), path.join(scratch, 'package.json'));
  copyFileSync(path.join(ROOT, 'scripts/check-pack.mjs'), path.join(scratch, 'scripts/check-pack.mjs'));
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: scratch, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'scratch');
  head = git('rev-parse', 'HEAD');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function dist(stamp: object | undefined, declarations: boolean): void {
  rmSync(path.join(scratch, 'dist'), { recursive: true, force: true });
  mkdirSync(path.join(scratch, 'dist/types'), { recursive: true });
  writeFileSync(path.join(scratch, 'dist/index.js'), 'export {};\n');
  if (declarations) writeFileSync(path.join(scratch, 'dist/types/index.d.ts'), 'export {};\n');
  if (stamp !== undefined) writeFileSync(path.join(scratch, 'dist/build-stamp.json'), JSON.stringify(stamp));
}

function pack(): { code: number | null; stderr: string; files: string } {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: scratch, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { code: result.status, stderr: result.stderr, files: result.stdout };
}

test.each([
  ['a build without declarations (npm test)', () => ({ commit: head, types: false }), false, /built without type declarations/],
  ['a stamp saying declarations, none there', () => ({ commit: head, types: true }), false, /dist\/types\/index\.d\.ts is missing/],
  ['a build from another commit', () => ({ commit: '0'.repeat(40), types: true }), true, /built from commit 0{40}, not [0-9a-f]{40}/],
  ['a dist/ no build of this checkout made', () => undefined, true, /no dist\/build-stamp\.json/],
])('npm pack refuses %s, saying to run npm run build', (_what, stamp, declarations, reason) => {
  dist(stamp(), declarations);
  const result = pack();
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).toContain('run `npm run build`');
}, 60_000);

test('npm pack packs a full build of the commit, without the stamp or the check script', () => {
  dist({ commit: head, types: true }, true);
  const result = pack();
  expect(result.stderr).not.toContain('refusing');
  expect(result.code).toBe(0);
  const files = (JSON.parse(result.files) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
  expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/types/index.d.ts']));
  expect(files.filter((file) => file.startsWith('scripts/') || file === 'dist/build-stamp.json')).toEqual([]);
}, 60_000);
