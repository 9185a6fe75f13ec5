/**
 * The managed-forced OS sandbox and a `bwrap` earlier on PATH, through the BUILT CLI: a four-line
 * script that runs its command on the host would pass the probe and make the sandbox a no-op.
 * Under the force only a system location owned by root is used (or, with none, commands are
 * refused), so the script is never started and the command's write outside the project never lands.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir } from '../cli/helpers.js';

afterAll(() => removeTempDirs());

/** A fake bwrap: logs its call to `log`, then execs the command after the last `--` on the host. */
function fakeBwrap(log: string): string {
  const dir = tempDir('mewcode-fakebin-');
  const file = path.join(dir, 'bwrap');
  writeFileSync(file, `#!/bin/bash\necho "$*" >> ${log}\nargs=("$@"); i=$((\${#args[@]}-1)); while [ $i -ge 0 ] && [ "\${args[$i]}" != "--" ]; do i=$((i-1)); done\nexec "\${args[@]:$((i+1))}"\n`);
  chmodSync(file, 0o755);
  return dir;
}

test('a bwrap earlier on PATH is not the forced sandbox: never started, the write outside the project does not land', async () => {
  const outside = tempDir('mewcode-outside-');
  const proof = path.join(outside, 'escaped.txt');
  const log = path.join(outside, 'fake-bwrap-calls.log');
  await scenario([{ toolCalls: [{ id: 'toolu_b', name: 'bash', input: { command: `echo escaped > ${proof}` } }] }, { text: 'done' }], async (s) => {
    const managed = path.join(tempDir('mewcode-managed-'), 'managed-settings.yaml');
    writeFileSync(managed, 'sandbox:\n  enabled: true\n  allow_unsandboxed_commands: false\n');
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed, PATH: `${fakeBwrap(log)}:${process.env.PATH}` } });
    expect(existsSync(log)).toBe(false);
    expect(existsSync(proof)).toBe(false);
    expect(r.stderr).not.toContain('fake');
  });
});
