/**
 * Saved tool outputs (`<project>/.mewcode/tool-output/`) in the sandbox: an earlier session's
 * (a command the user approved printed a credential) and the legacy flat files are hidden from
 * commands; the current session's own folder (SandboxCommand.sessionId) is bound back read-only,
 * as long as it is a plain folder of this project's.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SECRET, sandboxFixture, skipWithoutSandbox } from './fixture.js';

const tally = { skip: (): void => undefined };
const OWN = '20261207-120000-aaaa';
const OTHER = '20261201-120000-bbbb';

test("an earlier session's and the legacy saved outputs are hidden; this session's own are readable, read-only", async () => {
  const fx = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'own-spill-folder', fx.status)) return;
  const spill = path.join(fx.root, '.mewcode', 'tool-output');
  for (const [rel, text] of [[`${OWN}/1-own.log`, 'OWN-OUTPUT\n'], [`${OTHER}/1-other.log`, 'OTHER-SESSION-TOKEN\n'], ['1-legacy.log', 'LEGACY-FLAT-TOKEN\n']] as const) {
    await mkdir(path.dirname(path.join(spill, rel)), { recursive: true });
    await writeFile(path.join(spill, rel), text);
  }
  const script = `cat ${spill}/${OWN}/1-own.log; cat .mewcode/tool-output/*/* .mewcode/tool-output/* 2>/dev/null; grep -r TOKEN .mewcode 2>/dev/null; echo x >> ${spill}/${OWN}/1-own.log; echo end`;
  const wrapped = await fx.sandbox.wrap({ argv: ['/bin/sh', '-c', script], cwd: fx.root, projectRoot: fx.root, homeDir: fx.home, sessionId: OWN });
  if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
  try {
    const run = spawnSync(wrapped.launch.file, wrapped.launch.args, { cwd: fx.root, encoding: 'utf8', timeout: 20_000 });
    expect(run.stdout).toContain('OWN-OUTPUT');
    expect(run.stdout).toContain('end');
    expect(run.stdout).not.toMatch(/OTHER-SESSION-TOKEN|LEGACY-FLAT-TOKEN/);
    expect(run.stderr).toContain('Read-only file system');
  } finally {
    await wrapped.launch.release();
  }
});

test('without a session id, or with one whose folder is a link or a path, nothing of tool-output is readable', async () => {
  const fx = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'own-spill-folder', fx.status)) return;
  const spill = path.join(fx.root, '.mewcode', 'tool-output');
  await mkdir(path.join(spill, OTHER), { recursive: true });
  await writeFile(path.join(spill, OTHER, '1-other.log'), 'OTHER-SESSION-TOKEN\n');
  await symlink(path.join(fx.home, '.ssh'), path.join(spill, 'linked'));
  for (const sessionId of [undefined, OTHER.replace('bbbb', 'cccc'), 'linked', `../tool-output/${OTHER}`, '..']) {
    const script = `cat .mewcode/tool-output/*/* ${spill}/linked/id_rsa 2>/dev/null; echo end`;
    const wrapped = await fx.sandbox.wrap({ argv: ['/bin/sh', '-c', script], cwd: fx.root, projectRoot: fx.root, homeDir: fx.home, ...(sessionId !== undefined ? { sessionId } : {}) });
    if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
    try {
      const run = spawnSync(wrapped.launch.file, wrapped.launch.args, { cwd: fx.root, encoding: 'utf8', timeout: 20_000 });
      expect([sessionId, run.stdout]).toEqual([sessionId, 'end\n']);
      expect(run.stdout).not.toContain(SECRET);
    } finally {
      await wrapped.launch.release();
    }
  }
});
