/**
 * Managed settings that force the OS sandbox on cover the user's own command hooks too, in a
 * trusted project: they run inside it (the project writable, the rest read-only) and still do
 * their ordinary work (read the project, write in it, print a JSON decision); where no sandbox
 * can run they do not run at all, and a guard refuses what it would have judged, naming the
 * managed file.
 */
import { expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import { EMPTY_MANAGED_POLICY, type ManagedPolicy } from '../../../types/managed.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import type { CommandSandbox } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustedProject } from './rule-setup.js';
import { lastResults, outsideDir, writeTool, written } from './sandbox-setup.js';

const WHERE = '/etc/mewcode/managed-settings.yaml:2:12';
const FORCED: ManagedPolicy = { ...EMPTY_MANAGED_POLICY, sandbox: { forceEnabled: { value: true, where: WHERE } } };


const noSandboxHere: MewcodePlugin = definePlugin({
  name: 'sandbox-os',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CommandSandbox).toConstantValue(new OsCommandSandbox({ homeDir: '/nonexistent-home', warn: () => undefined, platform: 'aix', managed: FORCED }));
  }),
});

function project(hooks: Record<string, unknown>): { root: string; home: string } {
  const root = temp('mewcode-managed-hooks-root-');
  const home = temp('mewcode-managed-hooks-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
  writeFileSync(path.join(root, 'notes.txt'), 'project text\n');
  return { root, home };
}

test('forced sandbox, trusted project: the user\'s hooks run inside it: they read and write the project and print JSON, never write outside', async () => {
  written.length = 0;
  const outside = outsideDir();
  const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not this one' } });
  const { root, home } = project({
    SessionStart: [{ hooks: [{ type: 'command', command: `echo host > "${outside}/session-start"` }] }],
    PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `grep -q b.md && echo '${deny}' || true` }] }],
    PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `cat "$PWD/notes.txt" > "$PWD/copied.txt"; echo host > "${outside}/post-tool"` }] }],
  });
  const { kernel, model } = await bootKernel(
    [useTools([call('write_file', { path: 'a.md' })]), useTools([call('write_file', { path: 'b.md' })]), say('ok')],
    [sandboxOs, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })],
    { ...(await trustedProject(root, home)), managed: FORCED },
  );
  try {
    const status = await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe();
    if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return; // nothing to contain it with here
    expect(status.active).toBe(true);
    await runPrompt(kernel, 'write', 'bypassPermissions');
    // Ordinary work: the project read and written, a JSON decision printed and obeyed.
    expect(existsSync(path.join(root, 'copied.txt'))).toBe(true);
    expect(written).toEqual(['a.md']);
    expect(lastResults(model.requests[2])[0]).toMatchObject({ isError: true, content: expect.stringContaining('not this one') });
    // Nothing on the host outside the project.
    expect(existsSync(path.join(outside, 'session-start'))).toBe(false);
    expect(existsSync(path.join(outside, 'post-tool'))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
});

test('forced sandbox that cannot run here: a trusted project\'s hooks do not run on the host; a PreToolUse guard refuses, naming the managed file', async () => {
  written.length = 0;
  const outside = outsideDir();
  const { root, home } = project({
    PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `touch "${outside}/guard-ran"` }] }],
    PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `touch "${outside}/post-ran"` }] }],
  });
  const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), say('ok')], [noSandboxHere, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], {
    ...(await trustedProject(root, home)),
    managed: FORCED,
  });
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(existsSync(path.join(outside, 'guard-ran'))).toBe(false);
    expect(existsSync(path.join(outside, 'post-ran'))).toBe(false);
    expect(written).toEqual([]);
    expect(lastResults(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringContaining(`managed settings force the OS sandbox on (${WHERE})`) });
  } finally {
    await kernel.shutdown();
  }
});

test('forced sandbox, trusted project: a ~/.mewcode/hooks.yaml shell action runs inside it too (the project written, nothing outside)', async () => {
  written.length = 0;
  const outside = outsideDir();
  const { root, home } = project({});
  writeFileSync(
    path.join(home, '.mewcode', 'hooks.yaml'),
    ['hooks:', '  - name: after-write', '    event: PostToolUse', `    action: { type: shell, command: 'cat "$PWD/notes.txt" > "$PWD/rule-copied.txt"; echo host > "${outside}/rule-ran"' }`, ''].join('\n'),
  );
  const { kernel } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), say('ok')], [sandboxOs, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], {
    ...(await trustedProject(root, home)),
    managed: FORCED,
  });
  try {
    const status = await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe();
    if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return;
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(existsSync(path.join(root, 'rule-copied.txt'))).toBe(true);
    expect(existsSync(path.join(outside, 'rule-ran'))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
});
