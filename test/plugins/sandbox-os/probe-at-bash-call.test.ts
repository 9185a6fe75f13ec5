/**
 * The mode layer waits for the sandbox probe in a bash call's permission check. When the model
 * answers before the idle warm-up (which probes), the probe starts as the bash call arrives
 * (sandbox-os taps preToolUse), beside the checks that come before that layer, and so do the
 * session's private directories and seccomp filter the command will need; other tools start none
 * of it.
 */
import { jest } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import outputLimits from '../../../plugins/output-limits/index.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import type { ToolUseContext, ToolUseDecision } from '../../../types/hooks.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel } from '../../support/boot.js';
import { rawHooks } from '../permission-rules/raw-hooks.js';

test('a bash call starts the probe and the session directories as it arrives; a call to another tool does not', async () => {
  const dir = async (prefix: string): Promise<string> => realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const tmpRoot = await dir('mc-probe-tmp-');
  // Spied before boot: the container hands out a sealed sandbox whose methods are read when it is made.
  const probe = jest.spyOn(OsCommandSandbox.prototype, 'probe');
  const prepare = jest.spyOn(OsCommandSandbox.prototype, 'prepareCommand');
  const { kernel } = await bootKernel([], [outputLimits, sandboxOs, bashPlugin], { projectRoot: await dir('mc-probe-root-'), homeDir: await dir('mc-probe-home-') });
  const sandbox = kernel.container.get(TOKENS.CommandSandbox) as OsCommandSandbox;
  probe.mockClear();
  prepare.mockClear();
  const tmpdir = jest.spyOn(os, 'tmpdir').mockReturnValue(tmpRoot); // where the session's directory is made
  try {
    const arrive = (name: string): Promise<ToolUseDecision> =>
      rawHooks(kernel).preToolUse.promise({ input: {}, additionalContext: [] }, { call: { id: `call-${name}`, name, input: {} }, input: {}, mode: 'default', agentId: 'main', sessionId: kernel.session.sessionId } as unknown as ToolUseContext);
    await arrive('read_file');
    expect(probe).not.toHaveBeenCalled();
    expect(prepare).not.toHaveBeenCalled();
    const decision = await arrive('bash');
    expect(probe).toHaveBeenCalledTimes(1);
    expect(decision).toEqual({ input: {}, additionalContext: [] }); // the tap only starts the preparation
    await prepare.mock.results[0]?.value;
    const made = readdirSync(tmpRoot).filter((name) => name.startsWith('mewcode-sandbox-'));
    if (!(await sandbox.probe()).active) {
      expect(made).toEqual([]); // nothing to prepare without a sandbox
      return;
    }
    expect(made).toHaveLength(1);
    const base = path.join(tmpRoot, made[0] as string);
    expect(readdirSync(base).sort()).toEqual(expect.arrayContaining(['empty', 'tmp']));
    if (sandbox.status().mechanism === 'bubblewrap') expect(readdirSync(base).some((name) => name.endsWith('.bpf'))).toBe(true);
    await sandbox.dispose();
    expect(existsSync(base)).toBe(false);
  } finally {
    tmpdir.mockRestore();
    probe.mockRestore();
    prepare.mockRestore();
    await sandbox.dispose();
    await rm(tmpRoot, { recursive: true, force: true });
  }
});
