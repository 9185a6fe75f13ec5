/**
 * `permission_mode` in hook payloads is Claude Code's spelling of the run's mode, for every mode:
 * MewCode's four are spelled as Claude Code's, and a default-mode run under
 * `--permission-mode dontAsk` (default mode, every question answered no) is `dontAsk`.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { PermissionMode } from '../../../types/permissions.js';
import type { CliOptions } from '../../../types/plugin.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];

function cli(root: string, dontAsk: boolean): CliOptions {
  return { outputFormat: 'text', permissionMode: 'default', permissionModeGiven: true, debugBoot: false, cwd: root, allowedTools: [], disallowedTools: [], ...(dontAsk ? { dontAsk: true } : {}) };
}

/** The permission_mode of each UserPromptSubmit and Stop payload, one run per mode in MODES order. */
async function modesSeen(dontAsk: boolean): Promise<string[]> {
  const root = temp('mewcode-mode-root-');
  const home = temp('mewcode-mode-home-');
  const log = path.join(root, 'modes.log');
  const script = path.join(home, 'mode.sh');
  // A real hook script, as a user writes one: reads the payload, records its mode.
  writeFileSync(script, `python3 -c 'import json,sys; p=json.load(sys.stdin); open("${log}","a").write(p["hook_event_name"] + " " + p["permission_mode"] + "\\n")'\n`);
  mkdirSync(path.join(home, '.mewcode'));
  const hook = [{ hooks: [{ type: 'command', command: `sh ${script}` }] }];
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { UserPromptSubmit: hook, Stop: hook } }));
  const { kernel } = await bootKernel(
    MODES.map((mode) => say(`ok in ${mode}`)),
    [createHooksPlugin({ env: { PATH: process.env.PATH } })],
    { ...(await trustedProject(root, home)), cli: cli(root, dontAsk) },
  );
  try {
    for (const mode of MODES) await runPrompt(kernel, `in ${mode}`, mode);
  } finally {
    await kernel.shutdown();
  }
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

test('every mode is sent with Claude Code\'s spelling', async () => {
  expect(await modesSeen(false)).toEqual(MODES.flatMap((mode) => [`UserPromptSubmit ${mode}`, `Stop ${mode}`]));
}, 30_000);

test('under --permission-mode dontAsk the default mode is dontAsk; a mode switched to is that mode', async () => {
  const expected = ['dontAsk', 'acceptEdits', 'plan', 'bypassPermissions'];
  expect(await modesSeen(true)).toEqual(expected.flatMap((mode) => [`UserPromptSubmit ${mode}`, `Stop ${mode}`]));
}, 30_000);
