/**
 * Which credential paths exist is read from one listing per directory (most of the ≈ 150 built-in
 * names are missing); a user's deny_read paths are resolved as given. What a path-by-path
 * resolution hid must still be hidden: a credential directory that is a link, a credential made
 * on the host after an earlier command (listings are read again at every command), and a
 * deny_read file in a directory that can be passed through but not listed.
 */
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { securityTally } from '../../security/attempts.js';
import { SECRET, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = securityTally('sandbox-deny-read-existing');
afterAll(() => tally.save());

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await sandboxFixture({ sandboxYaml: '\n  deny_read: ["~/locked/secret.txt"]' });
  await mkdir(path.join(fx.home, 'locked'));
  await writeFile(path.join(fx.home, 'locked', 'secret.txt'), `${SECRET}\n`);
  await chmod(path.join(fx.home, 'locked'), 0o311); // can be passed through, cannot be listed
  await mkdir(path.join(fx.outside, 'docker-config'));
  await writeFile(path.join(fx.outside, 'docker-config', 'config.json'), JSON.stringify({ auths: SECRET }));
  await symlink(path.join(fx.outside, 'docker-config'), path.join(fx.home, '.docker'));
});
afterAll(async () => {
  await chmod(path.join(fx.home, 'locked'), 0o755).catch(() => undefined);
  await fx.sandbox.dispose();
});

test('a deny_read file in a directory that cannot be listed (but can be passed through) stays hidden', async () => {
  if (skipWithoutSandbox(tally, 'deny_read file in an unlistable directory', fx.status)) return;
  if (process.getuid?.() === 0) {
    // Directory modes do not bind root: the listing succeeds (listed-paths.test.ts covers a refused one).
    tally.skip(1, 'deny_read file in an unlistable directory: running as root, which can list any directory');
    return;
  }
  const locked = await fx.run(`cat ${path.join(fx.home, 'locked', 'secret.txt')}; echo end`);
  tally.attempt('deny_read file in an unlistable directory', locked.content.includes(SECRET));
  expect(locked.content).toContain('end');
  expect(locked.content).not.toContain(SECRET);
});

test('a credential directory that is a link stays hidden, at its link and at its target', async () => {
  if (skipWithoutSandbox(tally, 'credential directory that is a link', fx.status)) return;
  const linked = await fx.run(`cat ~/.docker/config.json ${path.join(fx.outside, 'docker-config', 'config.json')}; echo end`);
  tally.attempt('credential directory that is a link', linked.content.includes(SECRET));
  expect(linked.content).toContain('end');
  expect(linked.content).not.toContain(SECRET);
});

test('a credential file made on the host after a command is hidden from the next command', async () => {
  if (skipWithoutSandbox(tally, 'credential made between commands', fx.status)) return;
  const kube = path.join(fx.home, '.kube', 'config');
  expect((await fx.run(`cat ${kube} 2>&1; echo end`)).content).toMatch(/No such file[\s\S]*end/);
  await mkdir(path.dirname(kube));
  await writeFile(kube, `token: ${SECRET}\n`);
  const after = await fx.run(`cat ${kube}; echo end`);
  tally.attempt('credential made on the host between commands', after.content.includes(SECRET));
  expect(after.content).toContain('end');
  expect(after.content).not.toContain(SECRET);
});
