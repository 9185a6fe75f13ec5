/**
 * Extension stories (a)–(c) at the kernel level: the default set boots; a custom build drops a
 * default plugin and replaces a provider by name; an organisation policy plugin slots a
 * permission layer between the sandbox and the rules stages.
 */
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { defaultPlugins } from '../../plugins/default-set.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { PermissionStage } from '../../types/permissions.js';
import { memoryModel, say, useTools, call } from '../support/memory-provider.js';
import { toolsPlugin, writeTool, sleepTool } from '../support/test-tools.js';
import { runPrompt, doneEvent } from '../support/boot.js';
import { ContainerModule } from 'inversify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOKENS } from '../../types/tokens.js';

// Fresh directories: the default set saves sessions under the project root.
const base = { projectRoot: '', homeDir: '' };
beforeAll(() => {
  base.projectRoot = mkdtempSync(path.join(tmpdir(), 'mewcode-custom-build-project-'));
  base.homeDir = mkdtempSync(path.join(tmpdir(), 'mewcode-custom-build-home-'));
});
afterAll(() => {
  for (const dir of [base.projectRoot, base.homeDir]) rmSync(dir, { recursive: true, force: true });
});

test('(a) the default plugin set boots in order with both providers and both UIs (headless, terminal)', async () => {
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({ ...base, plugins: defaultPlugins, reporter, env: { ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'm' } });
  expect(kernel.plugins.map((p) => p.name)).toEqual([
    'provider-anthropic', 'provider-openai', 'system-prompt', 'environment', 'output-limits',
    'tool-read-file', 'tool-write-file', 'tool-edit-file', 'sandbox-os', 'tool-bash', 'tool-glob', 'tool-grep', 'tool-todo',
    'permission-blacklist', 'permission-sandbox', 'permission-rules', 'permission-mode', 'permission-audit', 'ui-headless', 'ui-tui', 'ui-acp', 'commands', 'session', 'compaction', 'claude-plugins', 'skills', 'mcp', 'hooks', 'subagents', 'custom-commands', 'claude-plugin-sources',
  ]);
  expect(kernel.tools.list().map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'todo_write', 'load_skill', 'install_skill', 'agent', 'task_list', 'task_output', 'task_message', 'task_stop']);
  expect(kernel.providers.active()).toMatchObject({ id: 'anthropic', protocol: 'anthropic', model: 'm', contextWindow: 200_000 });
  expect(kernel.container.getAll(TOKENS.UserInterface).map((u) => (u as { name: string }).name)).toEqual(['headless', 'tui']);
  expect(reporter.warnings).toEqual([]);
});

test('(b) a custom build drops a default plugin and replaces a provider by name', async () => {
  const model = memoryModel([say('from the replacement')]);
  // Same name as the default Anthropic plugin: it takes that plugin's place.
  const replacement: MewcodePlugin = { ...model.plugin, name: 'provider-anthropic' };
  const plugins = [...defaultPlugins.filter((p) => p.name !== 'environment'), replacement];
  const kernel = await Kernel.create({ ...base, plugins, reporter: new MemoryReporter(), env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' } });

  const defaultNames = defaultPlugins.map((p) => p.name);
  expect(kernel.plugins.map((p) => p.name)).toEqual(defaultNames.filter((name) => name !== 'environment'));
  expect(kernel.plugins[0]).toBe(replacement); // in the place of the plugin it replaced
  const events = await runPrompt(kernel, 'hello', 'default');
  expect(doneEvent(events).finalText).toBe('from the replacement');
  expect(model.requests[0]!.system.environment).toBe(''); // the environment plugin is gone
  expect(model.requests[0]!.system.stable).toContain('You are MewCode');
});

test('(b) `replaces` lets a differently named plugin stand in for one or more defaults', async () => {
  const model = memoryModel([say('ok')]);
  const both: MewcodePlugin = { ...model.plugin, name: 'acme-gateway', replaces: ['provider-anthropic', 'provider-openai'] };
  const kernel = await Kernel.create({ ...base, plugins: [...defaultPlugins, both], reporter: new MemoryReporter(), env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' } });
  const rest = defaultPlugins.map((p) => p.name).filter((name) => !name.startsWith('provider-'));
  expect(kernel.plugins.map((p) => p.name)).toEqual(['acme-gateway', ...rest]);
});

test('(c) an organisation policy plugin decides between the sandbox and the rules stages', async () => {
  const order: string[] = [];
  const layer = (name: string, stage: number, decide?: (toolName: string) => 'allow' | 'deny' | undefined): MewcodePlugin =>
    definePlugin({
      name,
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name, stage }, async (request) => {
          order.push(name);
          const decision = decide?.(request.toolName);
          return decision ? { decision, layer: name, reason: `${name} says ${decision}` } : undefined;
        });
      },
    });
  const log = { events: [] as string[] };
  const model = memoryModel([useTools([call('write_note', { text: 'x' }), call('sleep_read', { ms: 0, text: 'y' })]), say('done')]);
  // Registered in a scrambled order on purpose: stages, not registration, decide the order.
  const plugins = [
    model.plugin,
    toolsPlugin([writeTool(log), sleepTool(log)]),
    layer('rules-stand-in', PermissionStage.Rules, () => 'allow'),
    layer('acme-policy', PermissionStage.Sandbox + 50, (tool) => (tool === 'write_note' ? 'deny' : undefined)),
    layer('sandbox-stand-in', PermissionStage.Sandbox),
    layer('blacklist-stand-in', PermissionStage.Blacklist),
  ];
  const kernel = await Kernel.create({ ...base, plugins, reporter: new MemoryReporter(), env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' } });
  await runPrompt(kernel, 'go', 'bypassPermissions');

  expect(order).toEqual([
    'blacklist-stand-in', 'sandbox-stand-in', 'acme-policy', // write_note: denied by policy, rules never consulted
    'blacklist-stand-in', 'sandbox-stand-in', 'acme-policy', 'rules-stand-in', // sleep_read: policy abstains
  ]);
  const results = (model.requests[1]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results;
  expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining('Permission denied by acme-policy: acme-policy says deny') });
  expect(results[1]).toMatchObject({ isError: false });
  expect(log.events).toEqual(['start:y', 'end:y']);
});

test('a tap that throws is reported as "plugin X failed in hook Y" and the run continues; a throwing permission layer denies', async () => {
  const reporter = new MemoryReporter();
  const log = { events: [] as string[] };
  const model = memoryModel([useTools([call('sleep_read', { ms: 0, text: 'a' })]), say('still fine')]);
  const flaky = definePlugin({
    name: 'flaky',
    apply(kernel) {
      // (userPromptSubmit and preToolUse fail closed instead: hostile-plugins.test.ts.)
      kernel.hooks.stop.tapPromise('flaky', async () => {
        throw new Error('stop hook broke');
      });
      kernel.hooks.postToolUse.tapPromise('flaky', async () => {
        throw new Error('post hook broke');
      });
      kernel.hooks.checkPermission.tapPromise({ name: 'flaky', stage: PermissionStage.Rules }, async () => {
        throw new Error('policy store unreachable');
      });
    },
  });
  const kernel = await Kernel.create({ ...base, plugins: [model.plugin, toolsPlugin([sleepTool(log)]), flaky], reporter, env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' } });
  const events = await runPrompt(kernel, 'go');
  expect(doneEvent(events).finalText).toBe('still fine');
  expect(reporter.warnings).toEqual([
    'plugin flaky failed in hook checkPermission: policy store unreachable',
    'plugin flaky failed in hook stop: stop hook broke',
  ]);
  const result = (model.requests[1]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results[0];
  // The model is told who failed where and what was thrown, never its message (the user's warning has it).
  expect(result).toMatchObject({ isError: true, content: expect.stringContaining('plugin flaky failed in hook checkPermission: Error (denied because a permission layer failed)') });
  expect(log.events).toEqual([]); // fail closed: the tool never ran, so postToolUse never fired
});

test('plugin loading: dependsOn orders plugins and a missing dependency skips the dependant loudly; essential plugins survive disable', async () => {
  const reporter = new MemoryReporter();
  const model = memoryModel();
  const applied: string[] = [];
  const plugin = (name: string, extra: Partial<MewcodePlugin> = {}): MewcodePlugin => ({ name, apply: () => void applied.push(name), ...extra });
  const kernel = await Kernel.create({
    ...base,
    reporter,
    env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' },
    plugins: [model.plugin, plugin('needs-b', { dependsOn: ['b'] }), plugin('b'), plugin('orphan', { dependsOn: ['ghost'] }), plugin('guard', { essential: true })],
    config: {
      layers: [],
      warnings: [],
      section: (key) => (key === 'disable' ? ['guard', 'nothing-here'] : undefined),
      locate: () => undefined,
    },
  });
  expect(applied).toEqual(['b', 'needs-b', 'guard']);
  expect(kernel.plugins.map((p) => p.name)).toEqual(['provider-memory', 'b', 'needs-b', 'guard']);
  expect(reporter.warnings).toEqual([
    'plugins: guard is essential and cannot be disabled by configuration; keeping it',
    'plugins: disable names nothing-here, which is not a loaded plugin',
    'plugins: orphan depends on ghost, which is not loaded; orphan skipped',
  ]);
});

test('a plugin whose bindings fail is skipped by name; the others still run', async () => {
  const reporter = new MemoryReporter();
  const model = memoryModel([say('ok')]);
  const broken = definePlugin({
    name: 'broken-bindings',
    bindings: new ContainerModule(() => {
      throw new Error('cannot bind');
    }),
  });
  const kernel = await Kernel.create({ ...base, plugins: [model.plugin, broken], reporter, env: { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'm', MEMORY_API_KEY: 'k' } });
  expect(reporter.warnings).toEqual(['plugin broken-bindings failed in bindings: cannot bind; skipped']);
  expect(doneEvent(await runPrompt(kernel, 'hi')).finalText).toBe('ok');
});

test('a configured plugin cannot replace an essential plugin; a custom build can', async () => {
  const { resolvePluginSet } = await import('../../kernel/plugin-set.js');
  const guard: MewcodePlugin = { name: 'permission-sandbox', essential: true };
  const impostor: MewcodePlugin = { name: 'permission-sandbox' };
  const sneaky: MewcodePlugin = { name: 'helper', replaces: ['permission-sandbox'] };
  const warnings: string[] = [];
  const fromConfig = resolvePluginSet([guard], [impostor, sneaky], [], (m) => warnings.push(m));
  expect(fromConfig).toEqual([guard]);
  expect(warnings).toEqual([
    'plugins: permission-sandbox would replace the essential plugin permission-sandbox; only a custom build may do that. permission-sandbox skipped',
    'plugins: helper would replace the essential plugin permission-sandbox; only a custom build may do that. helper skipped',
  ]);
  // A custom build passes its own defaults: there the replacement is deliberate.
  expect(resolvePluginSet([guard, impostor], [], [], () => undefined)).toEqual([impostor]);
});

test('a configured plugin cannot replace a safety layer either; a custom build can', async () => {
  const { resolvePluginSet } = await import('../../kernel/plugin-set.js');
  const rules: MewcodePlugin = { name: 'permission-rules', safety: true };
  const mine: MewcodePlugin = { name: 'acme-rules', replaces: ['permission-rules'] };
  const warnings: string[] = [];
  expect(resolvePluginSet([rules], [mine], [], (m) => warnings.push(m))).toEqual([rules]);
  expect(warnings).toEqual(['plugins: acme-rules would replace the safety layer permission-rules; only a custom build may do that. acme-rules skipped']);
  expect(resolvePluginSet([rules, mine], [], [], () => undefined)).toEqual([mine]);
  // disable: from a project file keeps it; from the user's own file it may go.
  expect(resolvePluginSet([rules], [], ['permission-rules'], () => undefined, new Set(['permission-rules']))).toEqual([rules]);
  expect(resolvePluginSet([rules], [], ['permission-rules'], () => undefined, new Set())).toEqual([]);
});
