/**
 * The idle warm-up (turn gap): while the first request waits for the model (not at boot, not once
 * the answer has begun) the kernel runs the tools' and the plugins' warm(); a failing warm() is
 * ignored.
 */
import { Kernel, IDLE_WARM_DELAY_MS } from '../../kernel/kernel.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { runPrompt } from '../support/boot.js';
import { memoryEnv, memoryModel, say } from '../support/memory-provider.js';
import { lazyTool } from '../../sdk/lazy-tool.js';
import type { Tool } from '../../types/tools.js';
import blacklist from '../../plugins/permission-blacklist/index.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

describe('the kernel warms up while the first request waits', () => {
  let root: string;
  beforeEach(() => (root = temp('mewcode-idle-warm-')));
  afterEach(() => removeTempDirs());

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

  test('lazily loaded tools load and plugins warm() while the first request waits, once per kernel, never at boot', async () => {
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
    // The two sequences run side by side: both before the first answer, in either order.
    expect([...log.slice(0, 2)].sort()).toEqual(['plugin warmed', 'tool implementation loaded']);
    expect(log.slice(2)).toEqual(['answer: one', 'answer: two']);
    await kernel.shutdown();
  });

  test("the plugins' warm() run one after another, in plugin order", async () => {
    const log: string[] = [];
    const middle = definePlugin({ name: 'middle', async warm() { await new Promise((resolve) => setTimeout(resolve, 5)); log.push('middle'); } });
    const plain = (name: string) => definePlugin({ name, async warm() { log.push(name); } });
    const model = memoryModel([
      async function* slowAnswer() {
        // The answer waits for the warm-up (a loaded machine may take far longer than its delay):
        // this test is about their order, the one above about their timing.
        await new Promise((resolve) => setTimeout(resolve, IDLE_WARM_DELAY_MS + 50));
        for (let waited = 0; log.length < 3 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
        yield* say('done');
      },
    ]);
    const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, plain('first'), middle, plain('last')], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
    await runPrompt(kernel, 'go');
    expect(log).toEqual(['first', 'middle', 'last']);
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

