/**
 * What every plugin is handed (a session, the configuration, the tool definitions) is the same
 * object for all of them, so none may change it for the others: not a session's id (what the
 * session file and an organisation's audit record), nor its tool view (what plan mode offers) or
 * limits, nor the configuration another plugin reads later, nor a tool's definition.
 */
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import type { ResolvedConfig } from '../../types/config.js';
import { definePlugin } from '../../types/plugin.js';
import { ContainerModule } from 'inversify';
import { TOKENS } from '../../types/tokens.js';
import { apiProbe } from '../support/api-probe.js';
import { doneEvent, runPrompt } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.shutdown()));
});

/** What each attempt did: 'changed', or the class of what it threw. */
function attempt(changes: Record<string, () => unknown>): Record<string, string> {
  const outcome: Record<string, string> = {};
  for (const [what, change] of Object.entries(changes)) {
    try {
      change();
      outcome[what] = 'changed';
    } catch (error) {
      outcome[what] = (error as Error).constructor.name;
    }
  }
  return outcome;
}

const refusedAll = (changes: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.keys(changes).map((what) => [what, 'TypeError']));

test("a plugin cannot rewrite a session: its id, its tool view, its limits and its methods stay the kernel's", async () => {
  const probe = apiProbe();
  const log: ToolLog = { events: [] };
  const model = memoryModel([useTools([call('write_note', { text: 'x' })]), say('planned')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, toolsPlugin([writeTool(log)]), probe.plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  kernels.push(kernel);
  const session = probe.api().session as unknown as Record<string, unknown>;
  const id = kernel.session.sessionId;
  // Only the public identity is on the object; everything else is out of reach.
  expect(Object.keys(session).sort()).toEqual(['agentId', 'conversation', 'homeDir', 'parentAgentId', 'projectRoot', 'sessionId']);
  const changes = {
    sessionId: () => (session.sessionId = 'forged'),
    agentId: () => (session.agentId = 'forged'),
    view: () => (session.view = { definitions: () => [], names: () => [] }),
    options: () => (session.options = { maxIterations: 1e9 }),
    run: () => (session.run = () => undefined),
    injectReminder: () => (session.injectReminder = () => undefined),
    added: () => Object.defineProperty(session, 'route', { value: () => undefined }),
  };
  expect(attempt(changes)).toEqual(refusedAll(changes));
  expect(kernel.session.sessionId).toBe(id);
  // Plan mode still offers only read-only tools, and refuses the write.
  expect(doneEvent(await runPrompt(kernel, 'plan it', 'plan')).finalText).toBe('planned');
  expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('write_note');
  expect(log.events).toEqual([]);
});

test('the configuration every plugin reads, and the tool definitions they list, are frozen', async () => {
  const probe = apiProbe();
  const sections: Record<string, unknown> = { permissions: { deny: ['Bash(rm:*)'] } };
  const hostConfig: ResolvedConfig = { layers: [{ layer: 'project', file: '/tmp/project/.mewcode/settings.json', loaded: true }], warnings: [], section: (key) => sections[key], locate: () => undefined };
  const model = memoryModel([say('ok')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, toolsPlugin([writeTool({ events: [] })]), probe.plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, config: hostConfig, reporter: new MemoryReporter() });
  kernels.push(kernel);
  const config = probe.api().container.get(TOKENS.Config);
  const read = config.section('permissions') as { deny: string[] };
  const definitions = probe.api().tools.definitions();
  const changes = {
    section: () => Object.assign(config, { section: () => undefined }),
    layerScope: () => Object.assign(config.layers[0]!, { layer: 'user' }),
    layers: () => (config.layers as unknown[]).push({}),
    definition: () => Object.assign(definitions[0]!, { description: 'forged' }),
    definitions: () => definitions.push({ name: 'forged', description: '', inputSchema: {} }),
    tools: () => (probe.api().tools.list() as unknown[]).push({ name: 'forged' }),
  };
  expect(attempt(changes)).toEqual(refusedAll(changes));
  // What one plugin read is its own copy: changing it changes nothing for the next reader.
  read.deny.length = 0;
  expect(config.section('permissions')).toEqual({ deny: ['Bash(rm:*)'] });
  expect(config.layers[0]!.layer).toBe('project');
  expect(probe.api().tools.definitions()[0]!.description).not.toBe('forged');
});

test("a plugin cannot replace another plugin's command, nor shadow the Kernel view every service shares", async () => {
  const probe = apiProbe();
  const ran: string[] = [];
  const owner = definePlugin({
    name: 'owner',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Command).toConstantValue({ name: 'deploy', description: 'Deploys.', run: async () => (ran.push('owner'), {}) })),
  });
  const model = memoryModel([]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, owner, probe.plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  kernels.push(kernel);
  const container = probe.api().container;
  const command = container.getAll(TOKENS.Command).find((c) => c.name === 'deploy')! as unknown as Record<string, unknown>;
  const shared = container.get(TOKENS.Kernel) as unknown as Record<string, unknown>;
  const changes = {
    commandRun: () => (command.run = async () => void ran.push('forged')),
    commandName: () => (command.name = 'other'),
    kernelContainer: () => Object.defineProperty(shared, 'container', { value: {} }),
    kernelWarn: () => (shared.warn = () => undefined),
  };
  expect(attempt(changes)).toEqual(refusedAll(changes));
  const listed = kernel.commands().find((c) => c.name === 'deploy')!;
  await listed.run(kernel.session, '', { mode: 'default' });
  expect(ran).toEqual(['owner']);
});

test("a provider's command (a skill's, a command file's) cannot be replaced through kernel.commands() either, nor the list itself", async () => {
  const probe = apiProbe();
  const ran: string[] = [];
  // A provider that keeps its commands, as the skills plugin caches its list.
  const kept = [{ name: 'review', description: 'Reviews.', run: async () => (ran.push('provider'), {}) }];
  const provider = definePlugin({
    name: 'provider',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CommandProvider).toConstantValue({ commands: () => kept })),
  });
  const model = memoryModel([]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, provider, probe.plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  kernels.push(kernel);
  const listed = probe.api().commands() as unknown as Record<string, unknown>[];
  const command = listed.find((c) => c.name === 'review')!;
  const changes = {
    commandRun: () => (command.run = async () => void ran.push('forged')),
    listPush: () => listed.push({ name: 'planted' }),
  };
  expect(attempt(changes)).toEqual(refusedAll(changes));
  const again = kernel.commands().find((c) => c.name === 'review')!;
  await again.run(kernel.session, '', { mode: 'default' });
  expect(ran).toEqual(['provider']);
  expect(kernel.commands().some((c) => c.name === 'planted')).toBe(false);
});
