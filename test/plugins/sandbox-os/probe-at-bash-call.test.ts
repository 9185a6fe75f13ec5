/**
 * The mode layer waits for the sandbox probe in a bash call's permission check. When the model
 * answers before the idle warm-up (which probes), the probe starts as the bash call arrives
 * (sandbox-os taps preToolUse), beside the checks that come before that layer; other tools do
 * not start it.
 */
import { jest } from '@jest/globals';
import { mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import outputLimits from '../../../plugins/output-limits/index.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import type { ToolUseContext, ToolUseDecision } from '../../../types/hooks.js';
import { bootKernel } from '../../support/boot.js';
import { rawHooks } from '../permission-rules/raw-hooks.js';

test('a bash call starts the probe as it arrives; a call to another tool does not', async () => {
  const dir = async (prefix: string): Promise<string> => realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const { kernel } = await bootKernel([], [outputLimits, sandboxOs, bashPlugin], { projectRoot: await dir('mc-probe-root-'), homeDir: await dir('mc-probe-home-') });
  const probe = jest.spyOn(OsCommandSandbox.prototype, 'probe');
  try {
    const arrive = (name: string): Promise<ToolUseDecision> =>
      rawHooks(kernel).preToolUse.promise({ input: {}, additionalContext: [] }, { call: { id: `call-${name}`, name, input: {} }, input: {}, mode: 'default', agentId: 'main', sessionId: kernel.session.sessionId } as unknown as ToolUseContext);
    await arrive('read_file');
    expect(probe).not.toHaveBeenCalled();
    const decision = await arrive('bash');
    expect(probe).toHaveBeenCalledTimes(1);
    expect(decision).toEqual({ input: {}, additionalContext: [] }); // the tap only starts the probe
  } finally {
    probe.mockRestore();
  }
});
