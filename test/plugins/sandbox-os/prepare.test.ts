/**
 * prepare(): the probe and the project's git baseline taken while the model is still answering,
 * so the first command does not walk the tree. It must not weaken the check after a command: a
 * git directory the first command plants is still set aside, and what was there before is not.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxFixture, type SandboxFixture } from './fixture.js';

let fixture: SandboxFixture;
beforeAll(async () => {
  fixture = await sandboxFixture();
  if (!fixture.status.active && process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error(`the OS sandbox must run here: ${fixture.status.reason}`);
});

const HOSTILE = '[core]\\n\\tfsmonitor = touch /tmp/mewcode-prepare-canary\\n';

test('after prepare(), the first command still has a planted repository set aside, and an older one is left', async () => {
  if (!fixture.status.active) return; // no sandbox here: the check after a command never runs (tallied by the security suites)
  // A nested repository of the user's, from before anything ran, with a setting that runs a program.
  mkdirSync(path.join(fixture.root, 'mine', '.git'), { recursive: true });
  writeFileSync(path.join(fixture.root, 'mine', '.git', 'config'), '[core]\n\tpager = less -R\n');
  await new Promise((resolve) => setTimeout(resolve, 2300)); // older than the sweep's allowance for coarse file times
  await fixture.sandbox.prepare(fixture.root);

  const result = await fixture.run(`mkdir -p planted/.git && printf '${HOSTILE}' > planted/.git/config && echo done`);
  expect(result.content).toContain('done');
  expect(existsSync(path.join(fixture.root, 'planted', '.git', 'config.quarantined-by-mewcode'))).toBe(true);
  expect(existsSync(path.join(fixture.root, 'mine', '.git', 'config'))).toBe(true);
  expect(fixture.warnings.join('\n')).toMatch(/planted\/\.git\/config/);
});
