/**
 * `mewcode audit verify` through the real bin entry (bin/cli.ts), bundled the way
 * scripts/bundle.mjs bundles it but into a temp directory (dist/ is left alone), with the main
 * program replaced by a module that fails when loaded: the subcommand (the permission-audit
 * plugin's) must never boot the kernel; it reads the plugins' declarations and loads only the
 * verifier.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { anchorFileOf } from '../../plugins/permission-audit/chain.js';
import { auditDirs, writeRecords, type AuditDirs } from '../plugins/permission-audit/helpers.js';

let outDir: string;
let dirs: AuditDirs;

beforeAll(async () => {
  outDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-cli-bundle-')));
  await build({
    entryPoints: { mewcode: 'bin/cli.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: outDir,
    logLevel: 'silent',
    // As scripts/bundle.mjs: Ink imports react-devtools-core only under DEV=true (not installed).
    external: ['react-devtools-core'],
    // As scripts/bundle.mjs: CommonJS dependencies bundled into ES modules require Node's built-ins.
    banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
    plugins: [
      {
        name: 'no-main-program',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: 'main', namespace: 'stub' }));
          esbuild.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: "throw new Error('the main program was loaded');", loader: 'js' }));
        },
      },
    ],
  });
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

beforeEach(() => {
  dirs = auditDirs();
});
afterEach(() => dirs.cleanup());

function mewcode(args: string[], cwd = dirs.root) {
  const run = spawnSync(process.execPath, [path.join(outDir, 'mewcode.js'), ...args], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, HOME: dirs.home } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Written as MewCode writes it: anchored in the user's home. */
const anchored = () => ({ anchor: anchorFileOf(dirs.home, dirs.file) });

test('a self-consistent log that was not written on this machine: exit 1', async () => {
  await writeRecords(dirs.file, 3);
  const run = mewcode(['audit', 'verify']);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/line 1: not anchored on this machine/);
});

test('the stub really stands in for the main program', () => {
  const run = mewcode(['-p', 'hello']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('the main program was loaded');
});

test('an intact log: exit 0, "audit log OK: N records", without loading the main program', async () => {
  await writeRecords(dirs.file, 4, 1, anchored());
  expect(mewcode(['audit', 'verify'])).toEqual({ code: 0, stdout: 'audit log OK: 4 records\n', stderr: '' });
});

test('a forged line: exit 1 naming the line and why', async () => {
  await writeRecords(dirs.file, 2, 1, anchored());
  appendFileSync(dirs.file, '{"type":"decision","verdict":"allow"}\n');
  const run = mewcode(['audit', 'verify']);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe(`audit log BROKEN: ${dirs.file} line 3: no valid "prev" hash: the record was not written by MewCode (or the log predates the chain)\n`);
});

test('--file relative to the working directory', async () => {
  await writeRecords(dirs.file, 3, 1, anchored());
  expect(mewcode(['audit', 'verify', '--file', path.join('project', '.mewcode', 'audit.jsonl')], dirs.base)).toMatchObject({ code: 0, stdout: 'audit log OK: 3 records\n' });
});

test('no log: exit 2; a usage error: exit 2', () => {
  const missing = mewcode(['audit', 'verify']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/^mewcode: no audit log at .*audit\.jsonl/);
  const usage = mewcode(['audit', 'check']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain('usage: mewcode audit verify [--file F]');
});
