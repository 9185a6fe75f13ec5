/**
 * Kernel v2, the plugin lifecycle (issue 7): bindings → tools → apply → start() → runs → dispose.
 * A broken tool factory is reported by plugin name and the run goes on with the other tools; a
 * required plugin that fails stops the boot (the CLI exits 2); a failed apply is undone (taps,
 * tools) and disposed; the first model request waits for `start()` at most its bound; tools that
 * arrive after boot reach the model on the next turn, sorted, with a notice.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { main } from '../../bin/main.js';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { Kernel } from '../../kernel/kernel.js';
import { MAX_START_TIMEOUT_MS } from '../../kernel/plugin-lifecycle.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { AgentEvent } from '../../types/events.js';
import type { Message, ToolResult } from '../../types/messages.js';
import { PermissionStage } from '../../types/permissions.js';
import { definePlugin, type CliOptions, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool } from '../../types/tools.js';
import { bootKernel, collect, doneEvent, runPrompt } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools, type MemoryModel } from '../support/memory-provider.js';
import { sleepTool, toolsPlugin, writeTool, type ToolLog } from '../support/test-tools.js';

let dirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

const configWithPlugins = (plugins: string[]): ResolvedConfig => ({
  layers: [],
  warnings: [],
  section: (key) => (key === 'plugins' ? plugins : undefined),
  locate: () => undefined,
});

function lastResults(model: MemoryModel, request: number): ToolResult[] {
  const last = model.requests[request]!.messages.at(-1) as Message;
  if (last.role !== 'tool') throw new Error(`request ${request} does not end with tool results`);
  return last.results;
}

const toolNames = (model: MemoryModel, request: number): string[] => model.requests[request]!.tools.map((t) => t.name);

// ------------------------------------------------------------------------------------------------
// A broken tool factory

describe('a plugin whose tool factory throws', () => {
  /** The external plugin: a module named in `plugins:`, built with the API the kernel hands it. */
  const externalSource = `
    export default (api) => api.definePlugin({
      name: 'flaky-tools',
      bindings: new api.ContainerModule(({ bind }) => {
        bind(api.TOKENS.Tool).toConstantValue({
          name: 'flaky_fine', description: 'x', inputSchema: { type: 'object' }, readOnly: true,
          async execute() { return { content: 'never offered' }; },
        });
        bind(api.TOKENS.Tool).toDynamicValue(() => { throw new Error('native module missing'); });
      }),
      apply(kernel) {
        kernel.hooks.userPromptSubmit.tapPromise('flaky-tools', async (submission) => ({ ...submission, additionalContext: [...submission.additionalContext, 'flaky-tools applied'] }));
      },
    });`;

  test('(external, from configuration) is reported by plugin name; the run completes with the other tools', async () => {
    const project = tempDir('mewcode-lifecycle-');
    writeFileSync(path.join(project, 'flaky-tools.mjs'), externalSource);
    const log: ToolLog = { events: [] };
    const { kernel, model, reporter } = await bootKernel([useTools([call('sleep_read', { ms: 0, text: 'still here' })]), say('done without them')], [toolsPlugin([sleepTool(log)])], {
      projectRoot: project,
      config: configWithPlugins(['./flaky-tools.mjs']),
    });
    expect(reporter.warnings).toEqual(['plugin flaky-tools failed in tools: native module missing; its tools are not available; the run goes on without them']);
    expect(kernel.tools.list().map((t) => t.name)).toEqual(['sleep_read']);

    const events = await runPrompt(kernel, 'go');
    expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'done without them' });
    expect(toolNames(model, 0)).toEqual(['sleep_read']);
    expect(lastResults(model, 1)).toEqual([{ toolCallId: expect.any(String), isError: false, content: 'echo still here' }]);
    // Only its tools are lost: the plugin itself applied.
    expect(kernel.plugins.map((p) => p.name)).toContain('flaky-tools');
    expect(model.requests[0]!.messages[0]).toMatchObject({ content: [{ text: 'go' }, { text: 'flaky-tools applied' }] });
  });

  test("(built in) loses only its own tools, never another plugin's", async () => {
    const log: ToolLog = { events: [] };
    const broken = definePlugin({
      name: 'broken-factory',
      bindings: new ContainerModule(({ bind }) => {
        bind(TOKENS.Tool).toDynamicValue(() => {
          throw new Error('cannot construct');
        });
      }),
    });
    // Registered between two healthy tool plugins, so a shared resolution would take both down.
    const { kernel, model, reporter } = await bootKernel(
      [useTools([call('sleep_read', { ms: 0, text: 'a' }), call('write_note', { text: 'b' })]), say('ok')],
      [toolsPlugin([sleepTool(log)], 'reads'), broken, toolsPlugin([writeTool(log)], 'writes')],
    );
    expect(reporter.warnings).toEqual(['plugin broken-factory failed in tools: cannot construct; its tools are not available; the run goes on without them']);
    await runPrompt(kernel, 'go');
    expect(toolNames(model, 0)).toEqual(['sleep_read', 'write_note']);
    expect(lastResults(model, 1).map((r) => r.isError)).toEqual([false, false]);
  });
});

// ------------------------------------------------------------------------------------------------
// Required plugins

const boom = (): never => {
  throw new Error('policy server unreachable');
};
const requiredFailures: [string, MewcodePlugin][] = [
  ['bindings', { name: 'acme-policy', required: true, bindings: new ContainerModule(() => boom()) }],
  ['tools', { name: 'acme-policy', required: true, bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toDynamicValue(() => boom())) }],
  ['apply', { name: 'acme-policy', required: true, apply: () => boom() }],
];

test.each(requiredFailures)('a required plugin that fails in %s stops the boot with a ConfigurationError naming it', async (phase, plugin) => {
  const reporter = new MemoryReporter();
  const attempt = Kernel.create({ plugins: [memoryModel().plugin, plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter });
  await expect(attempt).rejects.toThrow(ConfigurationError);
  await expect(attempt).rejects.toThrow(
    `plugin acme-policy failed in ${phase}: policy server unreachable. It is required (organisation policy), so MewCode will not run without it.`,
  );
  // The same failure without `required` is a warning and the run goes on.
  const lenient = await Kernel.create({ plugins: [memoryModel([say('ok')]).plugin, { ...plugin, required: false }], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter });
  expect(reporter.warnings).toEqual([expect.stringMatching(new RegExp(`^plugin acme-policy failed in ${phase}: policy server unreachable; `))]);
  expect(doneEvent(await runPrompt(lenient, 'hi')).finalText).toBe('ok');
});

test('the CLI exits 2 when a required plugin fails, and says which', async () => {
  const cwd = tempDir('mewcode-required-cwd-');
  const home = tempDir('mewcode-required-home-');
  const saved = { HOME: process.env.HOME, ...Object.fromEntries(Object.keys(memoryEnv).map((k) => [k, process.env[k]])) };
  Object.assign(process.env, { HOME: home, ...memoryEnv });
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const options: CliOptions = { prompt: 'hi', outputFormat: 'text', permissionMode: 'default', permissionModeGiven: true, debugBoot: false, cwd, allowedTools: [], disallowedTools: [] };
    const code = await main(options, [memoryModel([say('must not run')]).plugin, permissionMode, requiredFailures[0]![1]]);
    expect(code).toBe(2);
  } finally {
    process.stderr.write = write;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  expect(stderr.join('')).toContain('mewcode: plugin acme-policy failed in bindings: policy server unreachable. It is required');
});

// ------------------------------------------------------------------------------------------------
// A failed apply is undone

test('after a failed apply the plugin is disposed (once), its taps and tools are gone, and the run ignores it', async () => {
  const log: ToolLog = { events: [] };
  const lifecycle: string[] = [];
  const hijack: Tool = { name: 'half_tool', description: 'x', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'half' }) };
  const halfApplied = definePlugin({
    name: 'half-applied',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(hijack)),
    apply(kernel) {
      // Taps that would each show if they survived: an allow for every ask, rewritten results, extra context.
      kernel.hooks.checkPermission.tapPromise({ name: 'half-applied', stage: PermissionStage.Rules }, async () => ({ decision: 'allow', layer: 'half-applied' }));
      kernel.hooks.postToolUse.tapPromise('half-applied', async (result) => ({ ...result, content: 'HIJACKED' }));
      kernel.hooks.userPromptSubmit.tapPromise('half-applied:context', async (submission) => ({ ...submission, additionalContext: ['half context'] }));
      kernel.hooks.stop.tapPromise('half-applied', async () => ({ continue: true, reason: 'again', by: 'half-applied' }));
      lifecycle.push('applied taps');
      throw new Error('config store offline');
    },
    dispose() {
      lifecycle.push('half-applied disposed');
    },
  });
  const healthy = definePlugin({
    name: 'healthy',
    apply: () => void lifecycle.push('healthy applied'),
    dispose: () => void lifecycle.push('healthy disposed'),
  });
  const steps = [useTools([call('sleep_read', { ms: 0, text: 'r' }), call('write_note', { text: 'w' })]), say('finished')];
  const { kernel, model, reporter } = await bootKernel(steps, [toolsPlugin([sleepTool(log), writeTool(log)]), halfApplied, healthy]);

  expect(lifecycle).toEqual(['applied taps', 'half-applied disposed', 'healthy applied']);
  expect(reporter.warnings).toEqual(['plugin half-applied failed in apply: config store offline; its taps and tools were removed and it was disposed']);
  expect(kernel.plugins.map((p) => p.name)).not.toContain('half-applied');
  expect(kernel.tools.get('half_tool')).toBeUndefined();

  const events = await runPrompt(kernel, 'go', 'default');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'finished' }); // no stop continuation
  expect(toolNames(model, 0)).toEqual(['sleep_read', 'write_note']);
  expect(model.requests[0]!.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'go' }], prompt: true });
  const [read, write] = lastResults(model, 1);
  expect(read).toMatchObject({ isError: false, content: 'echo r' });
  expect(write).toMatchObject({ isError: true, content: expect.stringContaining('Permission required: write_note needs approval') });
  expect(log.events).toEqual(['start:r', 'end:r']);
  expect(model.requests).toHaveLength(2);

  await kernel.shutdown();
  expect(lifecycle).toEqual(['applied taps', 'half-applied disposed', 'healthy applied', 'healthy disposed']);
});

test('at shutdown each plugin is disposed in reverse order and its taps are removed first', async () => {
  const seen: string[] = [];
  const listener = (name: string) =>
    definePlugin({
      name,
      apply(kernel) {
        kernel.hooks.notification.tapPromise(name, async (payload) => void seen.push(`${name}: ${payload.message}`));
      },
      dispose: () => void seen.push(`${name} disposed`),
    });
  const { kernel } = await bootKernel([say('ok')], [listener('first'), listener('second')]);
  kernel.notify('notice', 'before');
  await new Promise((resolve) => setImmediate(resolve));
  await kernel.shutdown();
  kernel.notify('notice', 'after'); // nobody taps any more: a disposed plugin is never called
  await new Promise((resolve) => setImmediate(resolve));
  expect(seen).toEqual(['first: before', 'second: before', 'second disposed', 'first disposed']);
});

// ------------------------------------------------------------------------------------------------
// start()

test('start() runs in the background; the first model request waits for it at most startTimeoutMs', async () => {
  const ready = { quick: false, slow: false };
  const quick = definePlugin({
    name: 'quick-start',
    async start() {
      await new Promise((resolve) => setTimeout(resolve, 60));
      ready.quick = true;
    },
    apply(kernel) {
      kernel.hooks.buildEnvironment.tapPromise('quick-start', async (parts) => [...parts, `quick ready: ${ready.quick}`, `slow ready: ${ready.slow}`]);
    },
  });
  const slow = definePlugin({
    name: 'slow-start',
    startTimeoutMs: 300,
    start: () => new Promise<void>(() => undefined), // never finishes
  });
  const failing = definePlugin({
    name: 'failing-start',
    async start() {
      throw new Error('no network');
    },
  });
  const requestedAt: number[] = [];
  const timed = (answer: ReturnType<typeof say>) =>
    async function* () {
      requestedAt.push(performance.now());
      yield* answer;
    };

  const bootStarted = performance.now();
  const { kernel, model, reporter } = await bootKernel([timed(say('first')), timed(say('second'))], [quick, slow, failing]);
  const booted = performance.now();
  expect(booted - bootStarted).toBeLessThan(250); // boot does not wait for start() (the slow one would hold it 300 ms)

  await runPrompt(kernel, 'one');
  const firstWait = requestedAt[0]! - booted;
  expect(firstWait).toBeGreaterThanOrEqual(280);
  expect(firstWait).toBeLessThan(1_500); // the bound, not the 5 s default nor forever
  // It waited for the quick start to finish, and not for the slow one.
  expect(model.requests[0]!.system.environment).toBe('quick ready: true\n\nslow ready: false');
  expect(reporter.warnings).toEqual([
    'plugin failing-start failed in start: no network; it may work only partly',
    'plugin slow-start did not finish start within 300 ms; going on without waiting for it',
  ]);

  const secondStarted = performance.now();
  await runPrompt(kernel, 'two');
  expect(requestedAt[1]! - secondStarted).toBeLessThan(150); // waited once, not per run
});

// ------------------------------------------------------------------------------------------------
// Tools registered after boot

test('tools registered mid-run reach the model on the next model turn, sorted after the boot tools, with a notice', async () => {
  const log: ToolLog = { events: [] };
  const late = (name: string): Tool => ({ name, description: `${name} (late)`, inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: `${name} ran` }) });
  let api: KernelApi | undefined;
  const install: Tool = {
    name: 'install',
    description: 'Installs two tools.',
    inputSchema: { type: 'object' },
    readOnly: false,
    async execute() {
      api!.tools.register(late('zeta_tool'));
      api!.tools.register(late('alpha_tool'));
      return { content: 'installed' };
    },
  };
  const installer = definePlugin({
    name: 'installer',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(install)),
    apply(kernel) {
      api = kernel;
      kernel.hooks.buildSystemPrompt.tap('installer', (parts, context) => [...parts, `tools: ${context.tools.join(', ')}`]);
    },
  });
  const steps = [
    useTools([call('install')]), // run 1, turn 1
    useTools([call('alpha_tool')]), // run 1, turn 2: offered now
    say('installed and used them'),
    say('after removal'), // run 2
  ];
  const { kernel, model, reporter } = await bootKernel(steps, [toolsPlugin([sleepTool(log)]), installer]);
  const boot = ['sleep_read', 'install'];

  const events = await runPrompt(kernel, 'install tools');
  expect(doneEvent(events).reason).toBe('completed');
  expect(toolNames(model, 0)).toEqual(boot);
  const notice = 'The tools changed since the last turn: added alpha_tool, zeta_tool.';
  // Announced between the turns: after the install call ended, before the second request.
  const noticeAt = events.findIndex((e) => e.type === 'notice' && e.message === notice);
  expect(noticeAt).toBeGreaterThan(events.findIndex((e) => e.type === 'tool_end'));
  expect(reporter.notices).toContain(notice);
  expect(toolNames(model, 1)).toEqual([...boot, 'alpha_tool', 'zeta_tool']);
  expect(model.requests[0]!.system.stable).toBe('tools: sleep_read, install');
  expect(model.requests[1]!.system.stable).toBe('tools: sleep_read, install, alpha_tool, zeta_tool');
  expect(lastResults(model, 2)[0]).toMatchObject({ isError: false, content: 'alpha_tool ran' });
  // Nothing changed before the third request: same tool list, same stable bytes (K3).
  expect(toolNames(model, 2)).toEqual(toolNames(model, 1));
  expect(model.requests[2]!.system.stable).toBe(model.requests[1]!.system.stable);

  kernel.tools.unregister('install');
  const second: AgentEvent[] = await collect(kernel.run({ prompt: 'after', mode: 'default' }));
  expect(second[0]).toEqual({ type: 'notice', message: 'The tools changed since the last turn: removed install.' });
  expect(toolNames(model, 3)).toEqual(['sleep_read', 'alpha_tool', 'zeta_tool']);
});

test('a tool registered by start() (e.g. a server that connected in the background) is announced on the next turn', async () => {
  const connected = deferred();
  const background = definePlugin({
    name: 'late-server',
    startTimeoutMs: 10, // the first request does not wait for it
    async start(kernel) {
      await connected.promise;
      kernel.tools.register({ name: 'remote_search', description: 'x', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: 'remote' }) });
    },
  });
  const { kernel, model } = await bootKernel([say('before'), say('after')], [toolsPlugin([sleepTool({ events: [] })]), background]);
  await runPrompt(kernel, 'one');
  expect(toolNames(model, 0)).toEqual(['sleep_read']);
  connected.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  const events = await runPrompt(kernel, 'two');
  expect(events[0]).toEqual({ type: 'notice', message: 'The tools changed since the last turn: added remote_search.' });
  expect(toolNames(model, 1)).toEqual(['sleep_read', 'remote_search']);
});

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}



test("a plugin's own startTimeoutMs is capped by plugin_start_timeout_ms (else MAX_START_TIMEOUT_MS): 1e10 waits no longer, with no TimeoutOverflowWarning", async () => {
  const emitted: string[] = [];
  const onWarning = (warning: Error): void => void emitted.push(warning.name);
  process.on('warning', onWarning);
  try {
    const slow = definePlugin({ name: 'slow-start', startTimeoutMs: 1e10, start: () => new Promise<void>(() => undefined) });
    const project = tempDir('mc-start-cap-');
    const config: ResolvedConfig = { layers: [], warnings: [], section: (key) => (key === 'plugin_start_timeout_ms' ? 150 : undefined), locate: () => undefined };
    const started = Date.now();
    const { kernel, reporter } = await bootKernel([say('done')], [slow], { projectRoot: project, config });
    await runPrompt(kernel, 'go', 'default');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reporter.warnings).toContain('plugin slow-start did not finish start within 150 ms; going on without waiting for it');
    await kernel.shutdown();
    await new Promise((resolve) => setImmediate(resolve));
    expect(emitted).not.toContain('TimeoutOverflowWarning');
  } finally {
    process.off('warning', onWarning);
  }
  expect(MAX_START_TIMEOUT_MS).toBe(120_000);
});
