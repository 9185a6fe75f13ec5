/**
 * Issue 9 (turn gap), the idle warm-up: while the first request waits for the model (not at boot,
 * not once the answer has begun) the kernel compiles the hooks, runs the plugins' and tools'
 * warm(); compiling hooks early changes nothing they do, a tap added later still runs, and a
 * failing warm() is ignored.
 */
import { Kernel, IDLE_WARM_DELAY_MS } from '../../kernel/kernel.js';
import { createHooks, guardHooks, precompileHooks } from '../../kernel/hooks.js';
import { rawHooksOf } from '../../kernel/raw-hooks.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import type { KernelHooks, ToolUseDecision } from '../../types/hooks.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { runPrompt } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../support/memory-provider.js';
import { writeTool, toolsPlugin, type ToolLog } from '../support/test-tools.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import type { Tool } from '../../types/tools.js';
import blacklist from '../../plugins/permission-blacklist/index.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

interface Compilable {
  call: unknown;
  _call: unknown;
  promise: unknown;
  _promise: unknown;
}
/** tapable keeps its lazy delegate in `promise` (or `call`) until the hook is compiled. */
const compiled = (hook: unknown, kind: 'promise' | 'call' = 'promise'): boolean => {
  const h = hook as Compilable;
  return kind === 'promise' ? h.promise !== h._promise : h.call !== h._call;
};

function guarded(): KernelHooks {
  const hooks = createHooks();
  guardHooks(hooks, () => undefined);
  return hooks;
}

describe('precompileHooks', () => {
  test('compiles hooks that have taps (async and sync), leaves the others lazy, and they behave as before', async () => {
    const hooks = guarded();
    const decision: ToolUseDecision = { decision: 'allow', input: { a: 1 }, additionalContext: [] };
    hooks.preToolUse.tapPromise('policy', async (value) => ({ ...value, reason: 'checked' }));
    hooks.buildSystemPrompt.tap('prompt', (parts) => [...parts, 'added']);
    precompileHooks(hooks);
    expect(compiled(hooks.preToolUse)).toBe(true);
    expect(compiled(hooks.buildSystemPrompt, 'call')).toBe(true);
    expect(compiled(hooks.postToolUse)).toBe(false); // no taps: nothing to compile
    const context = { sessionId: 's', agentId: 'main' } as unknown as Parameters<typeof hooks.preToolUse.promise>[1];
    expect(await hooks.preToolUse.promise(decision, context)).toEqual({ decision: 'allow', input: { a: 1 }, additionalContext: [], reason: 'checked' });
    expect(hooks.buildSystemPrompt.call(['base'], {} as Parameters<typeof hooks.buildSystemPrompt.call>[1])).toEqual(['base', 'added']);
  });

  test('a tap added after compiling resets the hook, and runs', async () => {
    const hooks = guarded();
    const seen: string[] = [];
    hooks.sessionEnd.tapPromise('first', async () => void seen.push('first'));
    precompileHooks(hooks);
    hooks.sessionEnd.tapPromise('second', async () => void seen.push('second'));
    expect(compiled(hooks.sessionEnd)).toBe(false);
    await hooks.sessionEnd.promise({} as Parameters<typeof hooks.sessionEnd.promise>[0]);
    expect(seen).toEqual(['first', 'second']);
  });

  test('a throwing tap compiled early is still guarded (reported, skipped)', async () => {
    const hooks = createHooks();
    const reported: string[] = [];
    guardHooks(hooks, (error) => reported.push(error.message));
    hooks.sessionEnd.tapPromise('broken', async () => {
      throw new Error('boom');
    });
    precompileHooks(hooks);
    await expect(hooks.sessionEnd.promise({} as Parameters<typeof hooks.sessionEnd.promise>[0])).resolves.toBeUndefined();
    expect(reported).toEqual([expect.stringContaining('boom')]);
  });
});

describe('the kernel warms up while the first request waits', () => {
  let root: string;
  beforeEach(() => (root = temp('mewcode-idle-warm-')));
  afterEach(() => removeTempDirs());

  test('the tool-turn hooks are compiled before the first answer arrives, and the turn runs as usual', async () => {
    const log: ToolLog = { events: [] };
    let duringWait: { preToolUse: boolean; checkPermission: boolean; postToolUse: boolean } | undefined;
    let rawHooks: KernelHooks | undefined;
    const model = memoryModel([
      async function* slowFirstAnswer() {
        // A model takes far longer than IDLE_WARM_DELAY_MS to answer.
        await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 50));
        duringWait = { preToolUse: compiled(rawHooks!.preToolUse), checkPermission: compiled(rawHooks!.checkPermission), postToolUse: compiled(rawHooks!.postToolUse) };
        yield* useTools([call('write_note', { text: 'a' })]);
      },
      say('done'),
    ]);
    const observed: string[] = [];
    const policy = definePlugin({
      name: 'tool-observer',
      apply(kernel) {
        kernel.hooks.preToolUse.tapPromise('tool-observer', async (decision, context) => (observed.push(`pre:${context.call.name}`), decision));
        kernel.hooks.postToolUse.tapPromise('tool-observer', async (result, context) => (observed.push(`post:${context.call.name}`), result));
      },
    });
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, policy, toolsPlugin([writeTool(log)])], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    rawHooks = rawHooksOf(kernel);
    // Nothing compiled at boot: start-up does not pay for it.
    expect(compiled(rawHooks.preToolUse)).toBe(false);
    await runPrompt(kernel, 'write a note');
    expect(duringWait).toEqual({ preToolUse: true, checkPermission: true, postToolUse: true });
    expect(log.events).toEqual(['write:a']);
    expect(observed).toEqual(['pre:write_note', 'post:write_note']);
    await kernel.shutdown();
  });

  test('a model that answers within milliseconds still finds the tool-turn hooks compiled; an answer at once stops the steps', async () => {
    let rawHooks: KernelHooks | undefined;
    let atAnswer: { preToolUse: boolean; checkPermission: boolean; postToolUse: boolean } | undefined;
    const fastModel = memoryModel([
      async function* answerAfterAFewMilliseconds() {
        // Inside IDLE_WARM_DELAY_MS, as a local endpoint answers (bench d); 25 ms rather than the
        // 5 ms of an idle machine, so three event-loop turns fit when the suite loads both cores.
        await new Promise((resolve) => setTimeout(resolve, 25));
        atAnswer = { preToolUse: compiled(rawHooks!.preToolUse), checkPermission: compiled(rawHooks!.checkPermission), postToolUse: compiled(rawHooks!.postToolUse) };
        yield* say('fast');
      },
    ]);
    const observer = definePlugin({
      name: 'tool-observer',
      apply(kernel) {
        kernel.hooks.preToolUse.tapPromise('tool-observer', async (decision) => decision);
        kernel.hooks.postToolUse.tapPromise('tool-observer', async (result) => result);
      },
    });
    const fast = await Kernel.create({ plugins: [fastModel.plugin, permissionMode, observer], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    rawHooks = rawHooksOf(fast);
    await runPrompt(fast, 'go');
    expect(atAnswer).toEqual({ preToolUse: true, checkPermission: true, postToolUse: true });
    await fast.shutdown();

    const atOnce = await Kernel.create({ plugins: [memoryModel([say('at once')]).plugin, permissionMode, observer], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    await runPrompt(atOnce, 'go');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A text answer never calls postToolUse: only a step could have compiled it, and none ran.
    expect(compiled(rawHooksOf(atOnce).postToolUse)).toBe(false);
    await atOnce.shutdown();
  });

  /** A plugin whose warm() and lazily loaded tool record when they ran. */
  function warmingPlugin(log: string[]): ReturnType<typeof definePlugin> {
    const tool: Tool = lazyTool({ name: 'lazy_echo', description: 'echo', inputSchema: { type: 'object', properties: {} }, readOnly: true }, async () => {
      log.push('tool implementation loaded');
      return { name: 'lazy_echo', description: 'echo', inputSchema: { type: 'object', properties: {} }, readOnly: true, execute: async () => ({ content: 'echo' }) };
    });
    return definePlugin({
      name: 'warming',
      bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(tool)),
      async warm() {
        log.push('plugin warmed');
      },
    });
  }

  // Tools first: a plugin's warm() may change a V8 flag (the shell parser's --liftoff-only), after
  // which V8 refuses the code caches the tools' modules would load with.
  test('lazily loaded tools load, then plugins warm(), while the first request waits, once per kernel, never at boot', async () => {
    const log: string[] = [];
    const slow = (text: string) =>
      async function* slowAnswer() {
        await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 50));
        log.push(`answer: ${text}`);
        yield* say(text);
      };
    const model = memoryModel([slow('one'), slow('two')]);
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, warmingPlugin(log)], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    expect(log).toEqual([]);
    await runPrompt(kernel, 'first');
    await runPrompt(kernel, 'second');
    expect(log).toEqual(['tool implementation loaded', 'plugin warmed', 'answer: one', 'answer: two']);
    await kernel.shutdown();
  });

  test('a warm() that sets V8 flags runs after the other plugins\' warm(), whatever the plugin order', async () => {
    const log: string[] = [];
    const flagSetter = definePlugin({ name: 'flag-setter', warmSetsV8Flags: true, async warm() { log.push('flag-setter'); } });
    const plain = (name: string) => definePlugin({ name, async warm() { log.push(name); } });
    const model = memoryModel([
      async function* slowAnswer() {
        await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 50));
        yield* say('done');
      },
    ]);
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, plain('first'), flagSetter, plain('last')], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    await runPrompt(kernel, 'go');
    expect(log).toEqual(['first', 'last', 'flag-setter']);
    await kernel.shutdown();
  });

  test('an answer that begins before the warm-up was due leaves everything to first use', async () => {
    const log: string[] = [];
    const model = memoryModel([say('at once')]);
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, warmingPlugin(log)], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    await runPrompt(kernel, 'quick');
    await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 30));
    expect(log).toEqual([]);
    await kernel.shutdown();
  });

  test('a warm() that fails is ignored: the run goes on and nothing is reported', async () => {
    const reporter = new MemoryReporter();
    const failing = definePlugin({
      name: 'failing-warm',
      async warm() {
        throw new Error('cannot preload');
      },
    });
    const model = memoryModel([
      async function* slowAnswer() {
        await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 30));
        yield* say('fine');
      },
    ]);
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, failing], projectRoot: root, homeDir: root, env: memoryEnv, reporter });
    const events = await runPrompt(kernel, 'go');
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed' });
    expect(JSON.stringify(reporter)).not.toContain('cannot preload');
    await kernel.shutdown();
  });
});

test("the blacklist's warm() resolves once the shell parser (its WebAssembly) is loaded", async () => {
  const { loadShellParser } = await import('../../sdk/shell-command/index.js');
  let parserLoaded = false;
  void loadShellParser().then(() => (parserLoaded = true));
  await blacklist.warm!();
  await Promise.resolve();
  expect(parserLoaded).toBe(true);
});

test('the parser warm-up analyses its sample line (the analysis code runs too), and the analysis is the cached one', async () => {
  const { analyzeShellCommand, loadShellParser, WARM_UP_COMMAND } = await import('../../sdk/shell-command/index.js');
  const warmed = await loadShellParser();
  expect(warmed.parsed.segments.map((segment) => segment.argv[0])).toEqual(expect.arrayContaining(['cd', 'ls', 'grep', 'echo', 'date', 'cat']));
  expect(await analyzeShellCommand(WARM_UP_COMMAND)).toBe(warmed);
});

test("permission-rules' warm() imports the shell parser's module (not at the first command in a turn gap)", async () => {
  const { createPermissionRulesPlugin } = await import('../../plugins/permission-rules/index.js');
  await expect(createPermissionRulesPlugin().warm!({} as never)).resolves.toBeUndefined();
});

