// `mewcode doctor` through the built launcher, in a temp project with a temp HOME: exit 0 when no
// check fails, 1 when one does; stdout is one line per check.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, runCli, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

// The plugins' own checks come in plugin order (sandbox-os, tool-grep, permission-audit), after MewCode's.
const CHECKS = ['node', 'managed', 'config', 'trust', 'provider', 'proxy', 'sandbox', 'ripgrep', 'audit', 'installed-plugins', 'plugins'];

test.concurrent('a good setup: exit 0, every check on its own line, the key never printed', async () => {
  const cwd = tempDir('mewcode-doctor-cwd-');
  const home = tempDir('mewcode-doctor-home-');
  const r = await runCli(['doctor'], { cwd, env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'sk-cli-secret', MEWCODE_MODEL: 'claude-test' } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines[0]).toBe(`mewcode doctor 0.2.0: ${cwd}`);
  expect(lines.slice(1, -1).map((l) => l.split(/\s+/)[1])).toEqual(CHECKS);
  expect(lines.slice(1, -1).every((l) => /^(ok|warn) /.test(l))).toBe(true);
  expect(r.stdout).toContain('ok    provider  anthropic (anthropic), model claude-test; API key from ANTHROPIC_API_KEY (set)\n');
  expect(lines.at(-1)).toMatch(/^\d+ ok, \d+ warn, 0 fail$/);
  expect(r.stdout).not.toContain('sk-cli-secret');
});

test.concurrent('a bad setup: a broken project config and no provider: exit 1, fail lines naming the file and what to set', async () => {
  const cwd = tempDir('mewcode-doctor-cwd-');
  const home = tempDir('mewcode-doctor-home-');
  mkdirSync(join(cwd, '.mewcode'));
  writeFileSync(join(cwd, '.mewcode', 'config.local.yaml'), 'model: [unclosed\n');
  const r = await runCli(['doctor'], { cwd, env: { PATH: process.env.PATH, HOME: home } });
  expect(r.code).toBe(1);
  // A local file is the project's for trust (whatever git says of it): reported as a project file.
  expect(r.stdout).toMatch(/^fail {2}config {4}project file \.mewcode\/config\.local\.yaml:\d+:\d+ cannot be used: /m);
  expect(r.stdout).toMatch(/^fail {2}provider  No provider configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY/m);
  expect(r.stdout).toMatch(/^ok {4}plugins {3}31 loaded \(checked with a stand-in provider/m);
});

test.concurrent('bad usage: exit 2 with the usage', async () => {
  const cwd = tempDir('mewcode-doctor-cwd-');
  const r = await runCli(['doctor', '--bogus'], { cwd, env: { PATH: process.env.PATH, HOME: cwd } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('usage: mewcode doctor');
});
