/**
 * Where the user keeps hook scripts (as Claude Code documents: ~/.claude/hooks, a Claude Code
 * plugin's folder, ~/.mewcode/hooks and ~/.mewcode/plugins) stays readable to a hook run inside the
 * OS sandbox (an untrusted project); and a PreToolUse guard whose script the sandbox itself hides
 * refuses the call rather than letting it through, while a script that is really missing is a
 * non-blocking error, as in Claude Code.
 */
import { expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import sandboxOs from '../../../plugins/sandbox-os/index.js';
import type { CommandSandbox } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { lastResults, outsideDir, writeTool } from './sandbox-setup.js';

/** An untrusted project and a home whose guard script (exit 2) sits at `relative`, run by `handler`. */
async function guardedRun(relative: string, handler: (file: string) => Record<string, unknown>) {
  const root = temp('mewcode-contained-root-');
  const home = outsideDir(); // the sandbox's /tmp is private: a home there would be missing inside, not hidden
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'cat >/dev/null; echo "guard says no" >&2; exit 2\n', { mode: 0o755 });
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', ...handler(file) }] }] } }));
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  const booted = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), say('ok')], [sandboxOs, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH, HOME: home } })], { projectRoot: root, homeDir: home, trust });
  const status = await booted.kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe();
  return { ...booted, active: status.active, home };
}

const sandboxed = (active: boolean): boolean => {
  if (!active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return false; // nothing contains it here
  expect(active).toBe(true);
  return true;
};

test("a contained guard in ~/.claude/hooks, a Claude Code plugin's folder, ~/.mewcode/hooks or ~/.mewcode/plugins runs and denies", async () => {
  for (const relative of ['.claude/hooks/guard.sh', '.claude/plugins/cache/m/p/1.0.0/hooks/guard.sh', '.mewcode/hooks/guard.sh', '.mewcode/plugins/cache/m/p/hooks/guard.sh']) {
    for (const handler of [(file: string) => ({ command: `bash "${file}"` }), (file: string) => ({ command: 'bash', args: [file] })]) {
      const { kernel, model, active } = await guardedRun(relative, handler);
      try {
        if (!sandboxed(active)) return;
        await runPrompt(kernel, 'write', 'bypassPermissions');
        expect({ relative, result: lastResults(model.requests[1])[0] }).toMatchObject({ relative, result: { isError: true, content: expect.stringContaining('guard says no') } });
      } finally {
        await kernel.shutdown();
      }
    }
  }
});

test('a contained guard whose script the sandbox hides refuses the call (MewCode kept it from running); a really missing script is a non-blocking error', async () => {
  const hidden = await guardedRun('.aws/guard.sh', (file) => ({ command: `bash ${file}` }));
  try {
    if (!sandboxed(hidden.active)) return;
    await runPrompt(hidden.kernel, 'write', 'bypassPermissions');
    expect(lastResults(hidden.model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringContaining('is hidden inside the OS sandbox') });
  } finally {
    await hidden.kernel.shutdown();
  }
  const missing = await guardedRun('.claude/hooks/guard.sh', (file) => ({ command: `bash ${file}.missing` }));
  try {
    await runPrompt(missing.kernel, 'write', 'bypassPermissions');
    expect(lastResults(missing.model.requests[1])[0]).toMatchObject({ isError: false });
    expect(missing.reporter.warnings.join('\n')).toMatch(/\(PreToolUse\) failed: .*guard\.sh\.missing: No such file or directory/);
  } finally {
    await missing.kernel.shutdown();
  }
});
