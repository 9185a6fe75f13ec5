/**
 * A required plugin whose tap fails is not passed over as an ordinary plugin's is
 * (kernel/required-failures.ts): on a prompt builder its failure refuses the request; on a hook
 * that only observes (its audit on permissionDecided, a recorder) it stops every later tool call
 * and model request of the process. An ordinary plugin's same failure is skipped, as before (the
 * controls).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../types/config.js';
import type { AgentEvent } from '../../types/events.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { constantTool, toolsPlugin } from '../support/test-tools.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

let ran = 0;
const deploy = constantTool('deploy', 'deployed', () => void ran++);
beforeEach(() => {
  ran = 0;
});

/** Boots with `source` as ./org.mjs, required or not, and the deploy tool; `helper`: a configured ./helper.mjs beside it. */
async function boot(source: string, required: boolean, script: Parameters<typeof bootKernel>[0], more: { helper?: string; hookTimeoutMs?: number } = {}) {
  const project = temp('mc-required-fail-');
  writeFileSync(path.join(project, 'org.mjs'), source);
  if (more.helper) writeFileSync(path.join(project, 'helper.mjs'), more.helper);
  const plugins = [required ? { use: './org.mjs', required: true } : './org.mjs', ...(more.helper ? ['./helper.mjs'] : [])];
  return bootKernel(script, [toolsPlugin([deploy])], { projectRoot: project, config: configWith({ plugins }), ...(more.hookTimeoutMs ? { hookTimeoutMs: more.hookTimeoutMs } : {}) });
}

const done = (events: AgentEvent[]) => events.find((event) => event.type === 'done') as Extract<AgentEvent, { type: 'done' }> | undefined;

describe('prompt builders', () => {
  const THROWS = `export default { name: 'org-rules', apply(k) { k.hooks.buildSystemPrompt.tap('org-rules', () => { throw new Error('policy server unreachable'); }); } };`;
  const MALFORMED = `export default { name: 'org-rules', apply(k) { k.hooks.buildEnvironment.tapPromise('org-rules', async () => 'not a list'); } };`;

  test.each([
    ['throws in buildSystemPrompt', THROWS],
    ['answers buildEnvironment with something that is not a list of parts', MALFORMED],
  ])('a required plugin that %s: no request is sent, and the run ends naming it', async (_how, source) => {
    const { kernel, model } = await boot(source, true, [say('ok')]);
    const events = await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(0);
    expect(done(events)?.reason).toBe('error');
    expect(events.find((event) => event.type === 'error')).toMatchObject({ kind: 'plugin', message: expect.stringContaining('org-rules') });
  });

  test.each([
    ['throws', THROWS],
    ['answers malformed', MALFORMED],
  ])('an ordinary plugin that %s: its part is left out and the request is sent (the control)', async (_how, source) => {
    const { kernel, model } = await boot(source, false, [say('ok')]);
    const events = await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(1);
    expect(done(events)?.reason).toBe('completed');
  });
});

describe('observing hooks', () => {
  // The organisation's audit: its sink fails for the first `failures` records.
  const AUDIT = (failures: number) => `let left = ${failures};
export default { name: 'org-audit', apply(k) {
  k.hooks.permissionDecided.tapPromise('org-audit', async () => { if (left-- > 0) throw new Error('audit sink full: ENOSPC'); });
} };`;

  test('a required audit that fails on permissionDecided: the call does not run, no further request is sent, and the run ends naming it', async () => {
    const { kernel, model } = await boot(AUDIT(1), true, [useTools([call('deploy', {})]), say('done')]);
    const events = await runPrompt(kernel, 'deploy it', 'default');
    expect(ran).toBe(0);
    expect(events.find((event) => event.type === 'tool_end')).toMatchObject({ result: { isError: true, content: expect.stringContaining('org-audit') } });
    expect(model.requests).toHaveLength(1);
    expect(done(events)?.reason).toBe('error');
    expect(events.find((event) => event.type === 'error')).toMatchObject({ kind: 'plugin', message: expect.stringContaining('required plugin') });
    // The hold outlives the run (the sink has room again, but nothing says the plugin works): the next prompt is refused too.
    model.steps.splice(0, model.steps.length, useTools([call('deploy', {})]), say('done'));
    const next = await runPrompt(kernel, 'again', 'default');
    await kernel.shutdown();
    expect(done(next)?.reason).toBe('error');
    expect(ran).toBe(0);
    expect(model.requests).toHaveLength(1);
  });

  test("no run lifts it: not another session's, nor a main-session run a plugin starts and blocks itself", async () => {
    // A configured plugin that, once the organisation's sessionStart failed, runs the main session with a prompt it blocks.
    const helper = `export default { name: 'helper', apply(k) {
      k.hooks.userPromptSubmit.tapPromise('helper', async (s, c) => (c.prompt === 'clear' ? { ...s, block: { block: true, reason: 'x' } } : s));
      k.hooks.sessionStart.tapPromise({ name: 'helper', stage: 1e9 }, async () => { for await (const _ of k.run({ prompt: 'clear', mode: 'default' })) {} for await (const _ of k.createSession({}).run({ prompt: 'side', mode: 'default' })) {} });
    } };`;
    const org = `export default { name: 'org-audit', apply(k) { k.hooks.sessionStart.tapPromise('org-audit', async () => { throw new Error('compliance server refused'); }); } };`;
    const { kernel, model } = await boot(org, true, [useTools([call('deploy', {})]), say('done')], { helper });
    await kernel.startSession();
    const events = await runPrompt(kernel, 'deploy it', 'default');
    await kernel.shutdown();
    expect(done(events)?.reason).toBe('error');
    expect(ran).toBe(0);
    expect(model.requests).toHaveLength(0);
  });

  test('a required audit that never answers permissionDecided: after the hook bound the call does not run and the run ends naming it', async () => {
    const silent = `export default { name: 'org-audit', apply(k) { k.hooks.permissionDecided.tapPromise('org-audit', () => new Promise(() => setTimeout(() => {}, 60_000))); } };`;
    const { kernel, model, reporter } = await boot(silent, true, [useTools([call('deploy', {})]), say('done')], { hookTimeoutMs: 200 });
    const events = await runPrompt(kernel, 'deploy it', 'default');
    await kernel.shutdown();
    expect(ran).toBe(0);
    expect(model.requests).toHaveLength(1);
    expect(done(events)?.reason).toBe('error');
    expect(reporter.warnings.join('\n')).toMatch(/plugin org-audit did not answer within 200 ms in hook permissionDecided/);
  });

  test('an ordinary plugin whose audit fails: the call runs and the run completes (the control)', async () => {
    const { kernel, model } = await boot(AUDIT(1), false, [useTools([call('deploy', {})]), say('done')]);
    const events = await runPrompt(kernel, 'deploy it', 'default');
    await kernel.shutdown();
    expect(ran).toBe(1);
    expect(model.requests).toHaveLength(2);
    expect(done(events)?.reason).toBe('completed');
  });
});

describe('a tap that never settles on a hook that only watches or adds is bounded too', () => {
  const NEVER = (hook: string) => `export default { name: 'hang', apply(k) { setInterval(() => {}, 1000).unref(); k.hooks.${hook}.tapPromise('hang', () => new Promise(() => setTimeout(() => {}, 60_000))); } };`;

  test.each(['sessionStart', 'messageAppended', 'permissionDecided', 'buildEnvironment'])(
    "an ordinary plugin's silent %s tap is skipped after the bound, named with the hook; the run completes",
    async (hook) => {
      const { kernel, model, reporter } = await boot(NEVER(hook), false, [useTools([call('deploy', {})]), say('done')], { hookTimeoutMs: 200 });
      await kernel.startSession();
      const events = await runPrompt(kernel, 'deploy it', 'default');
      await kernel.shutdown();
      expect(done(events)?.reason).toBe('completed');
      expect(ran).toBe(1);
      expect(model.requests).toHaveLength(2);
      expect(reporter.warnings.join('\n')).toContain(`plugin hang did not answer within 200 ms in hook ${hook}; its tap was skipped`);
    },
    20_000,
  );

  test("a required plugin's silent buildEnvironment tap ends the run with an error naming it", async () => {
    const { kernel, reporter } = await boot(NEVER('buildEnvironment'), true, [say('done')], { hookTimeoutMs: 200 });
    const events = await runPrompt(kernel, 'go', 'default');
    await kernel.shutdown();
    expect(done(events)?.reason).toBe('error');
    expect(reporter.warnings.join('\n')).toMatch(/plugin hang did not answer within 200 ms in hook buildEnvironment; it is a required plugin/);
  });
});

describe('a required plugin failing at the end of the run', () => {
  test("its stop tap throws: the run ends with an error naming it, not 'completed'", async () => {
    const org = `export default { name: 'org-audit', apply(k) { k.hooks.stop.tapPromise('org-audit', async () => { throw new Error('could not file the report'); }); } };`;
    const { kernel } = await boot(org, true, [say('done')]);
    const events = await runPrompt(kernel, 'go', 'default');
    await kernel.shutdown();
    expect(done(events)).toMatchObject({ reason: 'error', finalText: expect.stringContaining('org-audit') });
  });

  test("an ordinary plugin's stop tap throws: the run completes (the control)", async () => {
    const org = `export default { name: 'org-audit', apply(k) { k.hooks.stop.tapPromise('org-audit', async () => { throw new Error('could not file the report'); }); } };`;
    const { kernel } = await boot(org, false, [say('done')]);
    const events = await runPrompt(kernel, 'go', 'default');
    await kernel.shutdown();
    expect(done(events)?.reason).toBe('completed');
  });
});
