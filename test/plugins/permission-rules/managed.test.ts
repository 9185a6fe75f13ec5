/**
 * Managed settings in the rules layer and the kernel: the organisation's deny and ask rules hold
 * whatever the user's and the project's files, the command line, the mode, a session approval or
 * another plugin's layer say; bypassPermissions and --dangerously-skip-sandbox are refused when
 * managed settings forbid them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../../../kernel/configuration-error.js';
import { loadManagedPolicy } from '../../../config/managed-settings.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { APPROVALS } from '../../../plugins/permission-rules/services.js';
import type { ManagedPolicy } from '../../../types/managed.js';
import { PermissionStage, PERMISSION_MODES, type PermissionMode } from '../../../types/permissions.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import { bootKernel, collect } from '../../support/boot.js';
import { bash, cliOptions, executed, fakeTools, read, tempDirs, trustPlugin, write, writeSettings, type Dirs } from './helpers.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import type { Kernel } from '../../../kernel/kernel.js';
import type { MemoryReporter } from '../../../kernel/reporter.js';
import { rawHooks } from './raw-hooks.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

/** The user answered an approval of `command` (the kernel's permissionDecided, which the rules layer grants from). */
async function answered(kernel: Kernel, command: string, choice: 'allow_session' | 'allow_always'): Promise<void> {
  await rawHooks(kernel).permissionDecided.promise({
    request: { toolName: 'bash', tool: kernel.tools.get('bash'), input: { command }, category: 'exec', target: { kind: 'command', command }, mode: 'default', sessionId: 's', projectRoot: dirs.root },
    verdict: { decision: 'ask', layer: 'permission-mode' },
    approval: { choice, answeredBy: 'test-ui' },
    allowed: true,
    toolCallId: 'c1',
    sessionId: 's',
    agentId: 'main',
  });
}

async function managed(yaml: string): Promise<ManagedPolicy> {
  const file = path.join(dirs.home, '..', 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return loadManagedPolicy({ env: {}, candidates: [{ file, named: true }] });
}

async function boot(policy: ManagedPolicy, options: { cli?: Parameters<typeof cliOptions>[0]; plugins?: MewcodePlugin[] } = {}): Promise<{ kernel: Kernel; reporter: MemoryReporter }> {
  const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
  const { kernel, reporter } = await bootKernel([say('ok')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust), ...(options.plugins ?? [])], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
    managed: policy,
    ...(options.cli ? { cli: cliOptions(options.cli) } : {}),
  });
  return { kernel, reporter };
}

describe('managed deny and ask rules: nobody lifts them', () => {
  const DENY = 'permissions:\n  deny: ["Bash(curl *)", "Read(./secrets/**)"]\n  ask: ["Bash(git push *)"]\n';

  it('allow rules in the user, project and local files, and --allowedTools, do not lift a managed deny or ask', async () => {
    for (const layer of ['user', 'project', 'local'] as const) writeSettings(dirs, layer, { allow: ['Bash(curl *)', 'Bash(git push *)', 'Read(./secrets/**)', 'Bash'] });
    const { kernel } = await boot(await managed(DENY), { cli: { allowedTools: ['Bash(curl *)', 'Bash(git push *)', 'Read', 'Bash'] } });
    for (const mode of PERMISSION_MODES) {
      expect(await bash(kernel, 'curl https://example.com', mode)).toMatchObject({ decision: 'deny', layer: 'permission-rules:managed' });
      expect(await read(kernel, 'secrets/key.pem', mode)).toMatchObject({ decision: 'deny', layer: 'permission-rules:managed' });
      expect(await bash(kernel, 'git push origin main', mode)).toMatchObject({ decision: 'ask', layer: 'permission-rules:managed' });
      // The rest of the user's allows still work.
      if (mode !== 'plan') expect(await bash(kernel, 'ls', mode)).toMatchObject({ decision: 'allow' });
    }
    expect((await bash(kernel, 'curl x'))!.reason).toMatch(/managed rule \(.*managed-settings\.yaml:2:\d+\) "Bash\(curl \*\)"/);
  });

  it('every spelling the rules see: a wrapped, compound or piped curl is still denied; a command reading a denied file too', async () => {
    const { kernel } = await boot(await managed(DENY));
    for (const command of ['ls && curl x', '/usr/bin/curl x', 'timeout 5 curl x', 'echo | curl -d @- x', '"cu""rl" x']) {
      expect(await bash(kernel, command, 'bypassPermissions')).toMatchObject({ decision: 'deny' });
    }
    expect(await bash(kernel, 'cat secrets/key.pem', 'bypassPermissions')).toMatchObject({ decision: 'deny' });
  });

  it('"allow for this session" and "allow always" approvals do not lift a managed ask', async () => {
    const { kernel } = await boot(await managed(DENY));
    const approvals = kernel.container.get(APPROVALS);
    const rule = approvals.suggestRule({ toolName: 'bash', target: { kind: 'command', command: 'git push origin main' }, projectRoot: dirs.root });
    await answered(kernel, 'git push origin main', 'allow_session');
    await answered(kernel, 'git push origin main', 'allow_always');
    expect(approvals.list().map((grant) => grant.rule)).toContain(rule);
    expect(await bash(kernel, 'git push origin main', 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:managed' });
  });

  it('a plugin layer that allows before the rules stage (a policy plugin at 250) does not lift a managed deny or ask', async () => {
    const lenient = definePlugin({
      name: 'lenient-policy',
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name: 'lenient-policy', stage: PermissionStage.Sandbox + 50 }, async () => ({ decision: 'allow', layer: 'lenient-policy' }));
      },
    });
    const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
    const calls = [call('bash', { command: 'git push origin main' }), call('bash', { command: 'curl x' }), call('bash', { command: 'ls' })];
    const { kernel } = await bootKernel([useTools(calls), say('ok')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust), lenient], {
      projectRoot: dirs.root,
      homeDir: dirs.home,
      managed: await managed(DENY),
    });
    executed.length = 0;
    const events = await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
    // Only ls ran: the managed deny ended the chain, the managed ask stayed a question (no one to answer it here).
    expect(executed).toEqual(['bash:{"command":"ls"}']);
    const asked = events.filter((e) => e.type === 'approval_request').map((e) => (e as { request: { verdict: { layer: string } } }).request.verdict.layer);
    expect(asked).toEqual(['permission-rules:managed']);
  });

  it('a managed rule that cannot be compiled stops the boot (fail closed), naming the managed file', async () => {
    await expect(boot(await managed('permissions:\n  deny: ["Bash(curl *"]\n'))).rejects.toThrow(/managed-settings\.yaml:2:\d+: deny rule "Bash\(curl \*"/);
    await expect(boot(await managed('permissions:\n  deny: ["Bash(curl *"]\n'))).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('a managed rule naming no known tool (a misspelt Bash, a name no tool has) stops the run, naming file, line, rule and the nearest tool', async () => {
    for (const [list, rule, hint] of [
      ['deny', 'Bahs(touch X*)', 'did you mean Bash?'],
      ['ask', 'bsah(git push *)', 'did you mean Bash?'],
      ['deny', 'Shell(touch X*)', 'use Bash, '],
      ['ask', 'Raed(./secrets/**)', 'did you mean Read?'],
    ] as const) {
      const { kernel } = await boot(await managed(`permissions:\n  ${list}: ["Bash(curl *)", "${rule}"]\n`));
      const ready = kernel.criticalPluginsReady();
      await expect(ready).rejects.toBeInstanceOf(ConfigurationError);
      await expect(ready).rejects.toThrow(`managed-settings.yaml:2:`);
      await expect(ready).rejects.toThrow(`${list} rule "${rule}" names no known tool (${hint}`);
      await kernel.shutdown();
    }
  });

  it('a managed rule on a known tool, an MCP tool, or a Claude-only tool starts as before; a user rule naming no tool only warns', async () => {
    writeSettings(dirs, 'project', { deny: ['Bahs(rm *)'] });
    const { kernel, reporter } = await boot(await managed('permissions:\n  deny: ["Bash(curl *)", "mcp__db__drop", "WebFetch(domain:x.com)", "Read(./s/**)"]\n  ask: ["write_file"]\n'));
    await expect(kernel.criticalPluginsReady()).resolves.toBeUndefined();
    expect(reporter.warnings.some((w) => w.includes('deny rule "Bahs(rm *)" names no known tool') && w.includes('kept in case the tool appears later'))).toBe(true);
    await kernel.shutdown();
  });
});

describe('allow_managed_rules_only', () => {
  it('no allow rule of any file or flag applies: the mode decides; approvals are not remembered; said once', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(npm test)', 'Edit'] });
    writeSettings(dirs, 'project', { allow: ['Bash(make)'], deny: ['Bash(rm *)'] });
    const { kernel, reporter } = await boot(await managed('permissions:\n  allowManagedPermissionRulesOnly: true\n'), { cli: { allowedTools: ['Bash(ls)'] } });
    expect(await bash(kernel, 'npm test')).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
    expect(await bash(kernel, 'ls')).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
    expect(await write(kernel, 'a.txt')).toMatchObject({ decision: 'ask', layer: 'permission-mode' });
    // Deny rules of the user's and the project's still restrict.
    expect(await bash(kernel, 'rm -rf x')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    expect(reporter.warnings.join('\n')).toMatch(/4 allow rules ignored: managed settings apply only their own permission rules/);
    await answered(kernel, 'npm test', 'allow_session');
    expect(kernel.container.get(APPROVALS).list()).toEqual([]);
    expect(await bash(kernel, 'npm test')).toMatchObject({ decision: 'ask' });
  });
});

describe('bypassPermissions and --dangerously-skip-sandbox', () => {
  const BYPASS = 'permissions:\n  disable_bypass_mode: true\n';

  it('--permission-mode bypassPermissions is refused at boot, naming the managed file', async () => {
    const refused = boot(await managed(BYPASS), { cli: { permissionMode: 'bypassPermissions', permissionModeGiven: true } });
    await expect(refused).rejects.toBeInstanceOf(ConfigurationError);
    await expect(boot(await managed(BYPASS), { cli: { permissionMode: 'bypassPermissions', permissionModeGiven: true } })).rejects.toThrow(/bypassPermissions is disabled by managed settings \(.*managed-settings\.yaml:2:\d+/);
  });

  it('Claude Code\'s spelling disableBypassPermissionsMode: disable does the same', async () => {
    await expect(boot(await managed('permissions:\n  disableBypassPermissionsMode: disable\n'), { cli: { permissionMode: 'bypassPermissions', permissionModeGiven: true } })).rejects.toThrow(/disabled by managed settings/);
  });

  it('a run asking for bypassPermissions any other way (settings default_mode, a UI switch, a plugin) runs in default mode, said once', async () => {
    const seen: PermissionMode[] = [];
    const spy = definePlugin({
      name: 'mode-spy',
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name: 'mode-spy', stage: PermissionStage.Blacklist - 50 }, async (request) => {
          seen.push(request.mode);
          return undefined;
        });
      },
    });
    const { kernel, reporter } = await boot(await managed(BYPASS), { plugins: [spy] });
    expect(kernel.permittedMode('bypassPermissions')).toBe('default');
    expect(kernel.permittedMode('acceptEdits')).toBe('acceptEdits');
    await collect(kernel.run({ prompt: 'hi', mode: 'bypassPermissions' }));
    expect(reporter.warnings.filter((w) => w.includes('bypassPermissions mode is disabled by managed settings'))).toHaveLength(1);
    expect(seen).toEqual([]); // no tool call in this run; the mode check is the kernel's
  });

  it('--dangerously-skip-sandbox is refused when managed settings force the sandbox or forbid unsandboxed commands', async () => {
    for (const yaml of ['sandbox:\n  enabled: true\n', 'sandbox:\n  allow_unsandboxed_commands: false\n']) {
      await expect(boot(await managed(yaml), { cli: { dangerouslySkipSandbox: true } })).rejects.toThrow(/--dangerously-skip-sandbox is refused by managed settings \(.*managed-settings\.yaml/);
    }
  });

  it('without managed settings nothing changes: bypass and the flag are accepted', async () => {
    const { kernel } = await boot(await managed('{}\n'), { cli: { permissionMode: 'bypassPermissions', permissionModeGiven: true, dangerouslySkipSandbox: true } });
    expect(kernel.permittedMode('bypassPermissions')).toBe('bypassPermissions');
  });
});

describe('the layers that hold managed restrictions stay', () => {
  it('the user\'s own disable: cannot remove the rules layer while managed settings apply', async () => {
    const { loadConfig } = await import('../../../config/load.js');
    mkdirSync(path.join(dirs.home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(dirs.home, '.mewcode', 'config.yaml'), 'disable: [permission-rules]\n');
    const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
    const config = await loadConfig({ cwd: dirs.root, homeDir: dirs.home, trust });
    const { kernel, reporter } = await bootKernel([say('ok')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust)], {
      projectRoot: dirs.root,
      homeDir: dirs.home,
      config,
      managed: await managed('permissions:\n  deny: ["Bash(curl *)"]\n'),
    });
    expect(kernel.plugins.map((p) => p.name)).toContain('permission-rules');
    expect(reporter.warnings.join('\n')).toMatch(/permission-rules is a safety layer, which managed settings keep/);
    expect(await bash(kernel, 'curl x', 'bypassPermissions')).toMatchObject({ decision: 'deny', layer: 'permission-rules:managed' });
  });

  it('a configured plugin cannot take the name of, or replace, a plugin managed settings require', async () => {
    const managedDir = path.join(dirs.home, '..', 'org');
    mkdirSync(managedDir, { recursive: true });
    writeFileSync(path.join(managedDir, 'acme.mjs'), `export default { name: 'acme-policy', apply(kernel) { kernel.hooks.checkPermission.tapPromise({ name: 'acme-policy', stage: 250 }, async (r) => r.toolName === 'bash' ? { decision: 'deny', layer: 'acme-policy', reason: 'acme' } : undefined); } };\n`);
    writeFileSync(path.join(dirs.home, 'mine.mjs'), `export default { name: 'my-policy', replaces: ['acme-policy'] };\n`);
    const { loadConfig } = await import('../../../config/load.js');
    mkdirSync(path.join(dirs.home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(dirs.home, '.mewcode', 'config.yaml'), `plugins: [${JSON.stringify(path.join(dirs.home, 'mine.mjs'))}]\n`);
    const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
    const config = await loadConfig({ cwd: dirs.root, homeDir: dirs.home, trust });
    const policy: ManagedPolicy = { ...(await managed('{}\n')), plugins: [{ use: './acme.mjs', baseDir: managedDir, file: path.join(managedDir, 'managed-settings.yaml'), where: 'managed-settings.yaml:1:10' }] };
    const { kernel, reporter } = await bootKernel([say('ok')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust)], { projectRoot: dirs.root, homeDir: dirs.home, config, managed: policy });
    expect(kernel.plugins.map((p) => p.name)).toContain('acme-policy');
    expect(kernel.plugins.map((p) => p.name)).not.toContain('my-policy');
    expect(reporter.warnings.join('\n')).toMatch(/my-policy would replace the plugin required by managed settings acme-policy/);
    expect(await bash(kernel, 'ls', 'bypassPermissions')).toMatchObject({ decision: 'deny', layer: 'acme-policy' });
  });
});

describe('a build that cannot enforce the managed settings does not run', () => {
  it('managed rules without the rules layer, a forced sandbox without a sandbox plugin: ConfigurationError', async () => {
    const rules = await managed('permissions:\n  deny: ["Bash(curl *)"]\n');
    await expect(bootKernel([say('ok')], [fakeTools()], { projectRoot: dirs.root, homeDir: dirs.home, managed: rules })).rejects.toThrow(/this build has no permission-rules plugin to apply them/);
    const sandbox = await managed('sandbox:\n  enabled: true\n');
    await expect(bootKernel([say('ok')], [fakeTools()], { projectRoot: dirs.root, homeDir: dirs.home, managed: sandbox })).rejects.toThrow(/require the OS sandbox, and this build has no sandbox plugin/);
  });
});
