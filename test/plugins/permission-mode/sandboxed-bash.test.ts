/**
 * The mode layer with the OS sandbox (issue 8): sandboxed bash runs without asking in default
 * mode; `sandbox: false` in the user's settings restores asking; where no sandbox can run,
 * bypassPermissions asks for bash unless --dangerously-skip-sandbox. Real kernel, real
 * sandbox-os plugin (or the real service told it runs on a platform without a sandbox).
 */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { Kernel } from '../../../kernel/kernel.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import type { CliOptions, MewcodePlugin } from '../../../types/plugin.js';
import { definePlugin } from '../../../types/plugin.js';
import type { PermissionMode, PermissionVerdict } from '../../../types/permissions.js';
import { TOKENS } from '../../../types/tokens.js';
import { toolCategory, type Tool } from '../../../types/tools.js';
import { sandboxedBashVerdict } from '../../../plugins/permission-mode/sandboxed-bash.js';
import { bootKernel } from '../../support/boot.js';
import { rawHooks } from '../permission-rules/raw-hooks.js';
import { securityTally } from '../../security/attempts.js';
import { skipWithoutSandbox } from '../sandbox-os/fixture.js';

const tally = securityTally('permission-mode-sandbox');
afterAll(() => tally.save());

async function tmp(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** Another exec tool: the sandbox does not cover it. */
const otherExec: MewcodePlugin = definePlugin({
  name: 'other-exec',
  bindings: new ContainerModule(({ bind }) => {
    const tool: Tool = { name: 'run_job', description: 'x', readOnly: false, category: 'exec', inputSchema: { type: 'object' }, async execute() { return { content: '' }; } };
    bind(TOKENS.Tool).toConstantValue(tool);
  }),
});

/** The real service, told it runs where no OS sandbox exists. */
const noSandboxHere: MewcodePlugin = definePlugin({
  name: 'sandbox-os',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CommandSandbox).toConstantValue(new OsCommandSandbox({ homeDir: '/nonexistent-home', warn: () => undefined, platform: 'aix' }));
  }),
});

async function boot(options: { sandbox: MewcodePlugin | undefined; settings?: string; cli?: Partial<CliOptions> }): Promise<Kernel> {
  const root = await tmp('mc-mode-root-');
  const home = await tmp('mc-mode-home-');
  if (options.settings !== undefined) {
    await mkdir(path.join(home, '.mewcode'));
    await writeFile(path.join(home, '.mewcode', 'settings.yaml'), options.settings);
  }
  const plugins = [outputLimits, ...(options.sandbox ? [options.sandbox] : []), bashPlugin, otherExec];
  const cli = options.cli ? ({ permissionMode: 'default', allowedTools: [], disallowedTools: [], ...options.cli } as CliOptions) : undefined;
  const { kernel } = await bootKernel([], plugins, { projectRoot: root, homeDir: home, ...(cli ? { cli } : {}) });
  return kernel;
}

async function decide(kernel: Kernel, toolName: string, mode: PermissionMode): Promise<PermissionVerdict | undefined> {
  const tool = kernel.tools.get(toolName);
  const input = { command: 'echo hi' };
  return rawHooks(kernel).checkPermission.promise({
    toolName,
    tool,
    input,
    category: toolCategory(tool),
    target: (await tool?.permissionTarget?.(input)) ?? { kind: 'none' },
    mode,
    sessionId: kernel.session.sessionId,
    projectRoot: kernel.session.projectRoot,
  });
}

test('sandbox active: bash runs without asking in default and acceptEdits mode; other exec tools still ask; plan still asks', async () => {
  const kernel = await boot({ sandbox: sandboxOs });
  if (skipWithoutSandbox(tally, 'mode layer with an active sandbox', await kernel.container.get(TOKENS.CommandSandbox).probe())) return;
  expect(await decide(kernel, 'bash', 'default')).toMatchObject({ decision: 'allow', layer: 'permission-mode', reason: expect.stringContaining('OS sandbox') });
  expect(await decide(kernel, 'bash', 'acceptEdits')).toMatchObject({ decision: 'allow' });
  expect(await decide(kernel, 'bash', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  expect(await decide(kernel, 'bash', 'plan')).toMatchObject({ decision: 'ask' });
  expect(await decide(kernel, 'run_job', 'default')).toMatchObject({ decision: 'ask' });
});

test('sandbox: false in the user settings: bash asks in default mode again; bypass allows (the user chose)', async () => {
  for (const settings of ['sandbox: false\n', 'sandbox:\n  enabled: false\n']) {
    const kernel = await boot({ sandbox: sandboxOs, settings });
    expect(kernel.container.get(TOKENS.CommandSandbox).status()).toMatchObject({ active: false, disabledByUser: true });
    expect(await decide(kernel, 'bash', 'default')).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
    expect(await decide(kernel, 'bash', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  }
});

test('no OS sandbox here: default asks as before; bypassPermissions asks for bash (naming the flag), not for other tools', async () => {
  const kernel = await boot({ sandbox: noSandboxHere });
  expect(await decide(kernel, 'bash', 'default')).toMatchObject({ decision: 'ask' });
  const verdict = await decide(kernel, 'bash', 'bypassPermissions');
  expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
  expect(verdict?.reason).toContain('--dangerously-skip-sandbox');
  expect(verdict?.reason).toContain('no OS sandbox is supported on aix');
  expect(await decide(kernel, 'run_job', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test('no OS sandbox here + --dangerously-skip-sandbox: bypassPermissions allows bash', async () => {
  const kernel = await boot({ sandbox: noSandboxHere, cli: { dangerouslySkipSandbox: true } });
  expect(await decide(kernel, 'bash', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
  expect(await decide(kernel, 'bash', 'default')).toMatchObject({ decision: 'ask' });
});

test('a build without the sandbox plugin keeps the plain matrix', async () => {
  const kernel = await boot({ sandbox: undefined });
  expect(await decide(kernel, 'bash', 'default')).toMatchObject({ decision: 'ask' });
  expect(await decide(kernel, 'bash', 'bypassPermissions')).toMatchObject({ decision: 'allow' });
});

test('a bash a configured plugin registers in place of the build\'s does not get the sandbox\'s allow (it does not run in the sandbox)', async () => {
  const root = await tmp('mc-mode-root-');
  const home = await tmp('mc-mode-home-');
  await writeFile(
    path.join(root, 'my-bash.mjs'),
    `export default (api) => api.definePlugin({ name: 'my-bash', replaces: ['bash'], apply(kernel) {
      kernel.tools.register({ name: 'bash', description: 'mine', inputSchema: { type: 'object' }, async execute() { return { content: 'ran unconfined' }; } });
    } });`,
  );
  const config = { layers: [], warnings: [], section: (key: string) => (key === 'plugins' ? ['./my-bash.mjs'] : undefined), locate: () => undefined };
  const { kernel, reporter } = await bootKernel([], [outputLimits, sandboxOs, bashPlugin], { projectRoot: root, homeDir: home, config });
  expect(reporter.warnings).toEqual(["plugin my-bash takes tool bash from plugin tool-bash (replaces: ['bash'])"]);
  if (skipWithoutSandbox(tally, 'a configured bash is not the sandboxed one', await kernel.container.get(TOKENS.CommandSandbox).probe())) return;
  expect(kernel.tools.origin('bash')).toBe('configured');
  expect(kernel.tools.origin('read_file')).toBeUndefined();
  const verdict = await decide(kernel, 'bash', 'default');
  tally.attempt('configured bash allowed as sandboxed', verdict?.decision === 'allow');
  expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
  expect(verdict?.reason).not.toContain('OS sandbox');
});

test('where managed settings force the sandbox on, a configured plugin\'s bash is denied outright', async () => {
  const sandbox = { status: () => ({ active: true as const, mechanism: 'bubblewrap' as const, network: false }), probe: async () => ({ active: true as const, mechanism: 'bubblewrap' as const, network: false }), wrap: async () => ({ kind: 'refused' as const, message: 'x' }) };
  const request = { toolName: 'bash', tool: undefined, input: {}, category: 'exec' as const, target: { kind: 'none' as const }, mode: 'default' as const, sessionId: 's', projectRoot: '/p' };
  expect(await sandboxedBashVerdict(request, sandbox, false, 'permission-mode', 'configured', '/etc/mewcode/managed-settings.yaml:3:3')).toEqual({
    decision: 'deny',
    layer: 'permission-mode',
    reason: 'this bash tool comes from a configured plugin, not the build, so it does not run in the OS sandbox, which managed settings require (/etc/mewcode/managed-settings.yaml:3:3)',
  });
  expect(await sandboxedBashVerdict(request, sandbox, false, 'permission-mode', 'configured')).toBeUndefined(); // the matrix decides
  expect(await sandboxedBashVerdict(request, sandbox, false, 'permission-mode', 'build')).toMatchObject({ decision: 'allow' });
});
