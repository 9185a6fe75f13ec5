/**
 * A plugin may throw anything, including values that cannot describe themselves: an object with
 * no prototype (String() of it throws), an Error whose `message` getter throws, a proxy whose
 * traps throw. The failure guard (kernel/hooks.ts, kernel/plugin-error.ts) still names the plugin
 * and applies the hook's fallback: the taps after it run — here a required organisation's audit —
 * and the session starts, instead of the guard itself throwing an error that names nobody.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../types/config.js';
import { errorClass, errorMessage, PluginError } from '../../kernel/plugin-error.js';
import { causeStack } from '../../kernel/plugin-debug.js';
import { definePlugin } from '../../types/plugin.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { call, memoryEnv, say, useTools } from '../support/memory-provider.js';
import { constantTool, toolsPlugin } from '../support/test-tools.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/** What the organisation's audit saw, in order; its plugin file pushes here. */
type Seen = string[];
declare global {
  // eslint-disable-next-line no-var
  var undescribableAudit: Seen | undefined;
}

/** The required organisation plugin: it records every permission decision and every session start. */
const ORG = `export default { name: 'org-audit', apply(k) {
  k.hooks.permissionDecided.tapPromise('org-audit', async (d) => { globalThis.undescribableAudit.push('decided ' + d.request.toolName); });
  k.hooks.sessionStart.tapPromise('org-audit', async () => { globalThis.undescribableAudit.push('session'); });
} };`;

/** Source text making each kind of value, evaluated in the configured plugin's module. */
const THROWN = {
  'an object with no prototype': 'Object.create(null)',
  'an Error whose message getter throws': `Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('no message'); } })`,
  'a proxy whose getPrototypeOf trap throws': `new Proxy({}, { getPrototypeOf() { throw new Error('no prototype'); } })`,
} as const;

/** A configured plugin that throws `value` from its taps on `hooks`, before the organisation's (stage -100). */
const EVIL = (value: string, hooks: string[]) => `export default { name: 'evil-throw', apply(k) {
  for (const hook of ${JSON.stringify(hooks)}) k.hooks[hook].tapPromise({ name: 'evil-throw', stage: -100 }, async () => { throw ${value}; });
} };`;

let ran = 0;
const deploy = constantTool('deploy', 'deployed', () => void ran++);
beforeEach(() => {
  ran = 0;
  globalThis.undescribableAudit = [];
});

async function boot(thrown: string, hooks: string[], steps: Parameters<typeof bootKernel>[0], env?: Record<string, string>) {
  const project = temp('mc-undescribable-');
  writeFileSync(path.join(project, 'org.mjs'), ORG);
  writeFileSync(path.join(project, 'evil.mjs'), EVIL(thrown, hooks));
  const plugins = [{ use: './org.mjs', required: true }, './evil.mjs'];
  return bootKernel(steps, [toolsPlugin([deploy])], { projectRoot: project, config: configWith({ plugins }), ...(env ? { env: { ...memoryEnv, ...env } } : {}) });
}

describe.each(Object.entries(THROWN))('a configured plugin that throws %s', (_what, thrown) => {
  test('in permissionDecided: it is named, the call runs, and the required audit still records it', async () => {
    const { kernel, reporter } = await boot(thrown, ['permissionDecided'], [useTools([call('deploy', {})]), say('done')]);
    const events = await runPrompt(kernel, 'deploy it');
    await kernel.shutdown();
    expect(globalThis.undescribableAudit).toContain('decided deploy');
    expect(ran).toBe(1);
    expect(events.find((event) => event.type === 'done')).toMatchObject({ reason: 'completed' });
    expect(reporter.warnings).toContainEqual(expect.stringContaining('plugin evil-throw failed in hook permissionDecided'));
  });

  test('in sessionStart: it is named, the session starts, and the required audit still sees it', async () => {
    const { kernel, reporter } = await boot(thrown, ['sessionStart'], [say('ok')]);
    await expect(kernel.startSession()).resolves.toBeUndefined();
    await kernel.shutdown();
    expect(globalThis.undescribableAudit).toEqual(['session']);
    expect(reporter.warnings).toContainEqual(expect.stringContaining('plugin evil-throw failed in hook sessionStart'));
  });
});

test('in preModelRequest, a proxy whose getPrototypeOf trap throws: the request is refused naming it (not taken for the kernel\'s own refusal)', async () => {
  const { kernel, reporter, model } = await boot(THROWN['a proxy whose getPrototypeOf trap throws'], ['preModelRequest'], [say('ok')]);
  const events = await runPrompt(kernel, 'hello');
  await kernel.shutdown();
  expect(model.requests).toHaveLength(0);
  expect(reporter.warnings).toContainEqual(expect.stringContaining('plugin evil-throw failed in hook preModelRequest'));
  expect(events.find((event) => event.type === 'error')).toMatchObject({ kind: 'plugin', message: expect.stringContaining('evil-throw') });
});

test('under MEWCODE_DEBUG=plugins, an Error whose stack getter throws: the report goes without the stack, and the audit still runs', async () => {
  const thrown = `Object.defineProperty(new Error('x'), 'stack', { get() { throw new Error('no stack'); } })`;
  const { kernel, reporter } = await boot(thrown, ['permissionDecided'], [useTools([call('deploy', {})]), say('done')], { MEWCODE_DEBUG: 'plugins' });
  await runPrompt(kernel, 'deploy it');
  await kernel.shutdown();
  expect(globalThis.undescribableAudit).toContain('decided deploy');
  expect(ran).toBe(1);
  expect(reporter.warnings).toContainEqual(expect.stringContaining('plugin evil-throw failed in hook permissionDecided: x'));
});

test('a tool whose input check throws an object with no prototype: the call fails with a fixed description, the run goes on', async () => {
  const picky = { ...constantTool('picky', 'ran'), validateInput: () => { throw Object.create(null); } };
  const { kernel } = await bootKernel([useTools([call('picky', {})]), say('done')], [toolsPlugin([picky])]);
  const events = await runPrompt(kernel, 'go');
  await kernel.shutdown();
  expect(events.find((event) => event.type === 'tool_end')).toMatchObject({ result: { isError: true, content: expect.stringContaining("the tool's input check failed: an object (not an Error) that cannot be described") } });
  expect(events.find((event) => event.type === 'done')).toMatchObject({ reason: 'completed' });
});

test('a plugin whose start throws an Error whose message getter throws: the warning names it', async () => {
  const starter = definePlugin({ name: 'starter', start: () => { throw Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('no message'); } }); } });
  const { kernel, reporter } = await bootKernel([say('ok')], [starter]);
  await expect(kernel.pluginsReady()).resolves.toBeUndefined();
  await kernel.shutdown();
  expect(reporter.warnings).toContainEqual(expect.stringContaining('plugin starter failed in start: Error that cannot be described'));
});

describe('describing what was thrown never throws', () => {
  const values: Array<[string, unknown]> = [
    ['an object with no prototype', Object.create(null)],
    ['an Error whose message getter throws', Object.defineProperty(new Error('x'), 'message', { get() { throw new Error('no message'); } })],
    ['an Error whose message is an object that cannot be converted', Object.assign(new Error('x'), { message: Object.create(null) })],
    ['an Error whose stack getter throws', Object.defineProperty(new Error('x'), 'stack', { get() { throw new Error('no stack'); } })],
    ['a proxy whose getPrototypeOf trap throws', new Proxy({}, { getPrototypeOf() { throw new Error('no prototype'); } })],
    ['a revoked proxy', (() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })()],
    ['an object whose toString throws', { toString() { throw new Error('no text'); } }],
  ];

  test.each(values)('%s: a fixed description, and a PluginError naming the plugin', (_what, value) => {
    expect(typeof errorMessage(value)).toBe('string');
    expect(typeof errorClass(value)).toBe('string');
    expect(() => causeStack(new PluginError('p', 'h', value))).not.toThrow();
    const error = new PluginError('acme', 'sessionStart', value);
    expect(error.message).toMatch(/^plugin acme failed in hook sessionStart: ./);
    expect(error.sharedMessage).toMatch(/^plugin acme failed in hook sessionStart: ./);
  });

  test('what can be said still is', () => {
    expect(errorMessage(Object.create(null))).toBe('an object (not an Error) that cannot be described');
    expect(errorMessage(Object.defineProperty(new TypeError('x'), 'message', { get() { throw new Error('no'); } }))).toBe('TypeError that cannot be described');
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage('plain text')).toBe('plain text');
  });
});
