// The build's patches of third-party code (scripts/patches.mjs) are checked before anything is
// built: a patched package bumped to a version whose patched code differs fails `npm run build`
// with a message naming the patch and the version found. Each case builds a copy of the project
// whose node_modules is the real one except for that package, copied and changed as a new
// release would change it.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error a build script without declarations
import { PATCHES, packageDirectory, verifyPatches } from '../../scripts/patches.mjs';

interface Patch {
  name: string;
  package: string;
  from: string[];
  version: string;
  files: Record<string, string>;
}

const REPO = path.resolve('.');
const patches = PATCHES as Patch[];
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-patches-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A project at `root` that sees the repository's files and node_modules through links, except
 * the directory `replaced` (inside node_modules), which is a real copy: every directory on the
 * way to it is a real directory of links.
 */
function projectWithCopyOf(root: string, replaced: string): string {
  mkdirSync(root);
  for (const entry of readdirSync(REPO)) if (entry !== 'node_modules' && entry !== 'dist') symlinkSync(path.join(REPO, entry), path.join(root, entry));
  const parts = path.relative(REPO, replaced).split(path.sep);
  let real = REPO;
  let copy = root;
  for (const [index, part] of parts.entries()) {
    real = path.join(real, part);
    copy = path.join(copy, part);
    if (index === parts.length - 1) {
      cpSync(real, copy, { recursive: true });
      break;
    }
    mkdirSync(copy);
    const next = parts[index + 1];
    for (const entry of readdirSync(real)) if (entry !== next) symlinkSync(path.join(real, entry), path.join(copy, entry));
  }
  return copy;
}

function npmBuild(cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build'], { cwd, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

test('the patches fit the installed packages, each at the version it was written for', () => {
  expect(() => verifyPatches(REPO)).not.toThrow();
  for (const patch of patches) {
    const manifest = JSON.parse(readFileSync(path.join(packageDirectory(REPO, patch.from, patch.package), 'package.json'), 'utf8')) as { version: string };
    expect(`${patch.package}@${manifest.version}`).toBe(`${patch.package}@${patch.version}`);
  }
});

test.each(patches.map((patch, index) => [`${patch.name} (${patch.package})`, index] as const))(
  'a new release of the package behind patch %s whose patched code differs fails `npm run build`, naming the patch',
  async (_label, index) => {
    const patch = patches[index]!;
    const root = path.join(work, `bumped-${index}`);
    const copy = projectWithCopyOf(root, packageDirectory(REPO, patch.from, patch.package));
    const manifestFile = path.join(copy, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { version: string };
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: `${patch.version}-next` }));
    const [file] = Object.keys(patch.files);
    appendFileSync(path.join(copy, file!), '\n// changed in the next release\n');
    const result = await npmBuild(root);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`patch ${patch.name}: ${patch.package}@${patch.version}-next ${file} differs`);
    expect(lstatSync(root).isDirectory()).toBe(true);
    expect(readdirSync(root)).not.toContain('dist'); // it stopped before building anything
  },
  60_000,
);

test('a new release whose patched files are unchanged passes the check', () => {
  const patch = patches[0]!;
  const root = path.join(work, 'same-code');
  const copy = projectWithCopyOf(root, packageDirectory(REPO, patch.from, patch.package));
  const manifestFile = path.join(copy, 'package.json');
  writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), version: `${patch.version}-next` }));
  expect(() => verifyPatches(root)).not.toThrow();
});
