/**
 * A real repository with a real submodule, through the real bash tool in the sandbox: git still
 * works inside it, while the submodule's config and hooks stay as they were.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { securityTally } from '../../security/attempts.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = securityTally('sandbox-os-submodules');
afterAll(() => tally.save());

let fx: SandboxFixture;
let subConfig: string;
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'protocol.file.allow=always', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  fx = await sandboxFixture();
  const lib = path.join(fx.outside, 'lib');
  execFileSync('mkdir', ['-p', lib]);
  git(lib, 'init', '-q');
  git(lib, 'commit', '-q', '--allow-empty', '-m', 'lib');
  // The fixture's .git is a stub: make it a real repository, then add the submodule.
  execFileSync('rm', ['-rf', path.join(fx.root, '.git')]);
  git(fx.root, 'init', '-q');
  git(fx.root, 'submodule', '--quiet', 'add', lib, 'vendor/lib');
  git(fx.root, 'commit', '-q', '-m', 'add lib');
  subConfig = readFileSync(path.join(fx.root, '.git', 'modules', 'vendor', 'lib', 'config'), 'utf8');
});

test('git status, submodule status and log inside the submodule work in the sandbox', async () => {
  if (skipWithoutSandbox(tally, 'git with a submodule', fx.status)) return;
  const result = await fx.run('git status --short && git submodule status && git -C vendor/lib log --oneline && echo ok');
  expect(result.content).toMatch(/vendor\/lib/);
  expect(result.content).toMatch(/lib\nok$/);
});

test("the submodule's config and hooks cannot be changed from the sandbox", async () => {
  if (skipWithoutSandbox(tally, 'submodule config', fx.status)) return;
  const moduleDir = path.join(fx.root, '.git', 'modules', 'vendor', 'lib');
  await fx.run('git -C vendor/lib config core.fsmonitor "touch /tmp/pwned"; echo x > .git/modules/vendor/lib/hooks/post-checkout');
  const escaped = readFileSync(path.join(moduleDir, 'config'), 'utf8') !== subConfig || existsSync(path.join(moduleDir, 'hooks', 'post-checkout'));
  tally.attempt('submodule config via git -C <submodule> config', escaped);
  expect(escaped).toBe(false);
  // The host's git sees a clean submodule, and no mount point is left behind.
  expect(git(fx.root, 'status', '--short')).not.toContain('vendor');
  expect(existsSync(path.join(moduleDir, 'config.worktree'))).toBe(false);
});
