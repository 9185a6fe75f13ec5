/**
 * The blacklist through a real kernel and agent loop: it holds in bypassPermissions mode, a
 * denied call never runs, the other calls of the turn still do, and `disable:` cannot remove it.
 * The fake exec tool only records the command; nothing is ever executed.
 */
import blacklist from '../../../plugins/permission-blacklist/index.js';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import { definePlugin } from '../../../types/plugin.js';
import { PermissionStage } from '../../../types/permissions.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { rawHooks } from '../permission-rules/raw-hooks.js';

function execTool(ran: string[]): Tool {
  return {
    name: 'fake_exec',
    description: 'Records a command; never runs it.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    readOnly: false,
    permissionTarget: (input) => ({ kind: 'command', command: typeof input.command === 'string' ? input.command : '' }),
    async execute(input) {
      ran.push(String(input.command));
      return { content: 'recorded' };
    },
  };
}

type Results = { results: { content: string; isError: boolean }[] };

test('bypassPermissions mode: dangerous commands are denied by the blacklist, the rest run', async () => {
  const ran: string[] = [];
  const commands = ['git status && rm -rf /', 'ls -la', "echo ok | sh -c 'rm -rf ~'", 'echo "rm -rf /"', ':(){ :|:& };:'];
  const { kernel, model } = await bootKernel([useTools(commands.map((command) => call('fake_exec', { command }))), say('done')], [blacklist, toolsPlugin([execTool(ran)])]);
  const events = await runPrompt(kernel, 'go', 'bypassPermissions');
  expect(doneEvent(events).finalText).toBe('done');
  expect(ran).toEqual(['ls -la', 'echo "rm -rf /"']);
  const results = (model.requests[1]!.messages.at(-1) as Results).results;
  expect(results.map((r) => r.isError)).toEqual([true, false, true, false, true]);
  expect(results[0]!.content).toBe(
    'Permission denied by permission-blacklist: blocked dangerous command: recursive rm of / in segment "rm -rf /". Do not retry this call; choose another approach or ask the user.',
  );
  expect(results[2]!.content).toContain('blocked dangerous command: recursive rm of the home directory in segment "rm -rf ~"');
  expect(results[4]!.content).toContain('blocked dangerous command: fork bomb');
});

test('a user allow rule (a later stage) cannot open a blacklisted command', async () => {
  const ran: string[] = [];
  const allowEverything = definePlugin({
    name: 'allow-all-rules',
    apply(kernel) {
      kernel.hooks.checkPermission.tapPromise({ name: 'allow-all-rules', stage: PermissionStage.Rules }, async () => ({ decision: 'allow', layer: 'allow-all-rules', reason: 'Bash(*)' }));
    },
  });
  const { kernel } = await bootKernel([useTools([call('fake_exec', { command: 'sudo mkfs.ext4 /dev/sda1' }), call('fake_exec', { command: 'make' })]), say('ok')], [allowEverything, blacklist, toolsPlugin([execTool(ran)])]);
  await runPrompt(kernel, 'go', 'bypassPermissions');
  expect(ran).toEqual(['make']);
});

test('the checkPermission verdict for a command target, directly', async () => {
  const { kernel } = await bootKernel([], [blacklist]);
  const request = { toolName: 'bash', tool: undefined, input: {}, category: 'exec', mode: 'bypassPermissions', sessionId: 's', projectRoot: '/tmp/project' } as const;
  expect(await rawHooks(kernel).checkPermission.promise({ ...request, target: { kind: 'command', command: 'dd if=/dev/zero of=/dev/nvme0n1' } })).toEqual({
    decision: 'deny',
    layer: 'permission-blacklist',
    reason: 'blocked dangerous command: dd writing to the block device /dev/nvme0n1 in segment "dd if=/dev/zero of=/dev/nvme0n1"',
  });
  expect(await rawHooks(kernel).checkPermission.promise({ ...request, target: { kind: 'command', command: 'rm -rf / (' } })).toMatchObject({ decision: 'deny', layer: 'permission-blacklist' });
  // Undecided: the next layer (the mode fallback) answers.
  expect(await rawHooks(kernel).checkPermission.promise({ ...request, target: { kind: 'command', command: 'rm -rf ./build' } })).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
  // Not a command: not the blacklist's business, even if the path looks scary.
  expect(await rawHooks(kernel).checkPermission.promise({ ...request, target: { kind: 'path', path: '/dev/sda' } })).toMatchObject({ layer: 'permission-mode' });
  // A command that is not a string cannot be checked: denied.
  expect(await rawHooks(kernel).checkPermission.promise({ ...request, target: { kind: 'command', command: undefined as unknown as string } })).toMatchObject({ decision: 'deny', layer: 'permission-blacklist' });
});

test('essential: `disable:` in configuration cannot remove the blacklist', async () => {
  const reporter = new MemoryReporter();
  const model = memoryModel();
  const kernel = await Kernel.create({
    plugins: [model.plugin, permissionMode, blacklist],
    projectRoot: '/tmp/project',
    homeDir: '/tmp/home',
    env: memoryEnv,
    reporter,
    config: { layers: [], warnings: [], section: (key) => (key === 'disable' ? ['permission-blacklist'] : undefined), locate: () => undefined },
  });
  expect(kernel.plugins.map((p) => p.name)).toContain('permission-blacklist');
  expect(reporter.warnings).toContain('plugins: permission-blacklist is essential and cannot be disabled by configuration; keeping it');
  expect(blacklist.essential).toBe(true);
});
