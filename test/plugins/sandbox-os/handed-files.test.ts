/**
 * A hook's transcript handed to a sandboxed command (SandboxCommand.readable, handed-files.ts):
 * readable there although `.mewcode/sessions` is hidden; the other sessions' records stay hidden,
 * and nothing else handed — a file outside the records, a link in them leading elsewhere, a
 * credential — is bound.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { handedFiles } from '../../../plugins/sandbox-os/handed-files.js';
import { SECRET, sandboxFixture, skipWithoutSandbox } from './fixture.js';

const tally = { skip: (): void => undefined };

test('the handed transcript is readable, read-only; the other records and anything else handed stay hidden', async () => {
  const fx = await sandboxFixture();
  if (skipWithoutSandbox(tally, 'handed-files', fx.status)) return;
  const sessions = path.join(fx.root, '.mewcode', 'sessions');
  const mine = path.join(sessions, '20261207-120000-aaaa', 'claude-transcript.jsonl');
  const other = path.join(sessions, '20261201-120000-bbbb', 'claude-transcript.jsonl');
  const linked = path.join(sessions, '20261207-120000-aaaa', 'linked.jsonl');
  for (const [file, text] of [[mine, '{"type":"user"}\n'], [other, 'OTHER-SESSION\n']] as const) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await symlink(path.join(fx.home, '.ssh', 'id_rsa'), linked);
  const ssh = path.join(fx.home, '.ssh', 'id_rsa');
  const script = `cat ${mine}; echo; cat ${other} 2>&1; cat ${ssh} 2>&1; echo x >> ${mine} 2>&1; echo`;
  const wrapped = await fx.sandbox.wrap({ argv: ['/bin/sh', '-c', script], cwd: fx.root, projectRoot: fx.root, homeDir: fx.home, readable: [mine, linked, ssh, other.replace('claude-transcript.jsonl', '')] });
  if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
  try {
    const run = spawnSync(wrapped.launch.file, wrapped.launch.args, { cwd: fx.root, encoding: 'utf8', timeout: 20_000 });
    expect(run.stdout).toContain('{"type":"user"}');
    expect(run.stdout).not.toContain('OTHER-SESSION');
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stderr).toContain(`${mine}: Read-only file system`);
  } finally {
    await wrapped.launch.release();
  }
});

test('only regular files among a writable root\'s session records are handed', async () => {
  const fx = await sandboxFixture();
  const sessions = path.join(fx.root, '.mewcode', 'sessions', 's1');
  await mkdir(sessions, { recursive: true });
  const mine = path.join(sessions, 't.jsonl');
  await writeFile(mine, 'x');
  await symlink(path.join(fx.home, '.netrc'), path.join(sessions, 'l.jsonl'));
  await writeFile(path.join(fx.root, 'plain.txt'), 'p');
  expect(await handedFiles([mine, path.join(sessions, 'l.jsonl'), sessions, path.join(fx.root, 'plain.txt'), path.join(fx.home, '.netrc'), 'relative.jsonl'], [fx.root])).toEqual([mine]);
});
