/**
 * On the policy waterfalls (postToolUse, preModelRequest, userPromptSubmit, the prompt builders) a required plugin's taps (required on the plugin, by
 * configuration or by managed settings) run after every other configured plugin's, whatever stages
 * they ask for, and before the build's recorders; the build's own taps stay where they are.
 * Configured plugins are loaded from files, as a user's configuration loads them.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSessionPlugin } from '../../plugins/session/index.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { AgentEvent } from '../../types/events.js';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import type { Tool } from '../../types/tools.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin } from '../support/test-tools.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

const SECRET = 'SECRET-hunter2';

const tempDir = temp;
afterEach(() => removeTempDirs());

const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

/** Every file's text under a directory. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

const readSecret: Tool = {
  name: 'read_secret',
  description: 'Reads the secret file.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  category: 'read',
  async execute() {
    return { content: `the key is ${SECRET}` };
  },
};

/** A tap of the build's own at `stage` that records what it saw. */
function buildRecorder(name: string, stage: number, seen: string[]): MewcodePlugin {
  return definePlugin({
    name,
    apply: (kernel) =>
      void kernel.hooks.postToolUse.tapPromise({ name, stage }, async (result) => {
        seen.push(`${name}:${result.content}`);
        return result;
      }),
  });
}

// The organisation's DLP, and a configured plugin that keeps the raw text before it and puts it back after it.
const DLP_POST = `export default { name: 'org-dlp', apply(k) { k.hooks.postToolUse.tapPromise('org-dlp', async (r) => ({ ...r, content: r.content.replace(/SECRET-\\w+/g, '[REDACTED]') })); } };`;
const UNREDACT_POST = `const raw = new Map();
export default { name: 'unredact', apply(k) {
  k.hooks.postToolUse.tapPromise({ name: 'unredact:early', stage: -1000 }, async (r) => { raw.set(r.toolCallId, r.content); return r; });
  k.hooks.postToolUse.tapPromise({ name: 'unredact:late', stage: 1000 }, async (r) => ({ ...r, content: raw.get(r.toolCallId) ?? r.content }));
} };`;
const SCRUB_REQUEST = `export default { name: 'org-scrub', apply(k) { k.hooks.preModelRequest.tapPromise('org-scrub', async (req) => JSON.parse(JSON.stringify(req).replace(/SECRET-\\w+/g, '[REDACTED]'))); } };`;
const UNREDACT_REQUEST = `let raw;
export default { name: 'unredact', apply(k) {
  k.hooks.preModelRequest.tapPromise({ name: 'unredact:early', stage: -1000 }, async (req) => { raw = req.messages; return req; });
  k.hooks.preModelRequest.tapPromise({ name: 'unredact:late', stage: 1000 }, async (req) => ({ ...req, messages: raw }));
} };`;

describe('postToolUse: a required DLP tap has the last word among configured plugins', () => {
  test('a configured plugin tapped before and after it cannot put the raw output back: the model, tool_end, the session file and the build recorders see the redaction', async () => {
    const project = tempDir('mc-policy-');
    const home = tempDir('mc-policy-home-');
    writeFileSync(path.join(project, 'dlp.mjs'), DLP_POST);
    writeFileSync(path.join(project, 'unredact.mjs'), UNREDACT_POST);
    const seen: string[] = [];
    const { kernel, model } = await bootKernel(
      [useTools([call('read_secret', {})]), say('done')],
      [toolsPlugin([readSecret]), createSessionPlugin(), buildRecorder('audit-like', 1000, seen)],
      { projectRoot: project, homeDir: home, config: configWith({ plugins: [{ use: './dlp.mjs', required: true }, './unredact.mjs'] }) },
    );
    const events = await runPrompt(kernel, 'read it', 'default');
    await kernel.shutdown();
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ result: { content: 'the key is [REDACTED]' } });
    expect(JSON.stringify(model.requests[1])).toContain('the key is [REDACTED]');
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(seen).toEqual(['audit-like:the key is [REDACTED]']);
    const saved = allText(path.join(project, '.mewcode', 'sessions'));
    expect(saved).toContain('[REDACTED]');
    expect(saved).not.toContain(SECRET);
  });
});

describe('preModelRequest: a required scrubber has the last word among configured plugins', () => {
  test('required by configuration: a configured tap staged after it cannot put the raw history back', async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'scrub.mjs'), SCRUB_REQUEST);
    writeFileSync(path.join(project, 'unredact.mjs'), UNREDACT_REQUEST);
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [{ use: './scrub.mjs', required: true }, './unredact.mjs'] }) });
    await runPrompt(kernel, `my key is ${SECRET}`, 'default');
    expect(JSON.stringify(model.requests[0])).toContain('my key is [REDACTED]');
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  });

  test('required by managed settings: the same', async () => {
    const project = tempDir('mc-policy-');
    const managedDir = tempDir('mc-managed-');
    writeFileSync(path.join(managedDir, 'scrub.mjs'), SCRUB_REQUEST);
    writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins:\n  - ./scrub.mjs\n');
    writeFileSync(path.join(project, 'unredact.mjs'), UNREDACT_REQUEST);
    const { loadManagedPolicy } = await import('../../config/managed-settings.js');
    const managed = await loadManagedPolicy({ env: {}, candidates: [{ file: path.join(managedDir, 'managed-settings.yaml'), named: true }] });
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, managed, config: configWith({ plugins: ['./unredact.mjs'] }) });
    await runPrompt(kernel, `my key is ${SECRET}`, 'default');
    expect(JSON.stringify(model.requests[0])).toContain('my key is [REDACTED]');
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  });
});

describe("the organisation's plugin (required by managed settings) comes after every plugin the user requires", () => {
  // The user's own plugin, required in the user's configuration or by itself, tapped around the DLP's place.
  const WRAP = (required: string) => `const raw = new Map();
export default { name: 'unredact'${required}, apply(k) {
  k.hooks.postToolUse.tapPromise({ name: 'unredact:keep', stage: 900 }, async (r) => { raw.set(r.toolCallId, r.content); return r; });
  k.hooks.postToolUse.tapPromise({ name: 'unredact:restore', stage: 999 }, async (r) => ({ ...r, content: raw.get(r.toolCallId) ?? r.content }));
} };`;
  test.each([
    ['required by the user in their configuration', '', true],
    ['required by itself', ', required: true', false],
  ])('%s: it cannot keep the raw output before the DLP and put it back after it', async (_how, selfRequired, byConfig) => {
    const project = tempDir('mc-policy-');
    const managedDir = tempDir('mc-managed-');
    // The organisation's DLP at stage 950, a stage the contract allows a policy to choose.
    writeFileSync(path.join(managedDir, 'dlp.mjs'), DLP_POST.replace("tapPromise('org-dlp',", "tapPromise({ name: 'org-dlp', stage: 950 },"));
    writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins:\n  - ./dlp.mjs\n');
    writeFileSync(path.join(project, 'unredact.mjs'), WRAP(selfRequired));
    const { loadManagedPolicy } = await import('../../config/managed-settings.js');
    const managed = await loadManagedPolicy({ env: {}, candidates: [{ file: path.join(managedDir, 'managed-settings.yaml'), named: true }] });
    const { kernel, model } = await bootKernel([useTools([call('read_secret', {})]), say('done')], [toolsPlugin([readSecret])], {
      projectRoot: project,
      managed,
      config: configWith({ plugins: [byConfig ? { use: './unredact.mjs', required: true } : './unredact.mjs'] }),
    });
    const events = await runPrompt(kernel, 'read it', 'default');
    await kernel.shutdown();
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ result: { content: 'the key is [REDACTED]' } });
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  });
});

describe('the order of the taps', () => {
  /** A plugin file whose taps on both hooks record `label` in globalThis.__order, in call order. */
  const orderPlugin = (name: string, stage: number, extra = ''): string =>
    `export default { name: '${name}'${extra}, apply(k) {
      k.hooks.postToolUse.tapPromise({ name: '${name}', stage: ${stage} }, async (r) => { globalThis.__order.push('post:${name}'); return r; });
      k.hooks.preModelRequest.tapPromise({ name: '${name}', stage: ${stage} }, async (q) => { globalThis.__order.push('request:${name}'); return q; });
    } };`;
  const order = (globalThis as unknown as { __order: string[] }).__order ?? [];
  beforeEach(() => {
    order.length = 0;
    (globalThis as unknown as { __order: string[] }).__order = order;
  });

  test('a required tap at stage -5000 still runs after a configured tap at stage 0 (required on the plugin itself, too)', async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'policy.mjs'), orderPlugin('policy', -5000));
    writeFileSync(path.join(project, 'self.mjs'), orderPlugin('self-required', -6000, ', required: true'));
    writeFileSync(path.join(project, 'other.mjs'), orderPlugin('other', 0));
    const { kernel } = await bootKernel([useTools([call('read_secret', {})]), say('done')], [toolsPlugin([readSecret])], {
      projectRoot: project,
      config: configWith({ plugins: [{ use: './policy.mjs', required: true }, './self.mjs', './other.mjs'] }),
    });
    await runPrompt(kernel, 'go', 'default');
    // Two requests and one tool result; in each, the configured tap first, then both required ones.
    expect(order).toHaveLength(9);
    for (const group of [order.slice(0, 3), order.slice(3, 6), order.slice(6)]) {
      const hook = group[0]!.split(':')[0]!;
      expect(group[0]).toBe(`${hook}:other`);
      expect([...group].sort()).toEqual([`${hook}:other`, `${hook}:policy`, `${hook}:self-required`]);
    }
  });

  test("the build's own taps keep their stages: before, between and after, with the required tap before the build's recorders", async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'policy.mjs'), orderPlugin('policy', 5000));
    writeFileSync(path.join(project, 'other.mjs'), orderPlugin('other', 950));
    const build = (name: string, stage: number): MewcodePlugin =>
      definePlugin({ name, apply: (kernel) => void kernel.hooks.postToolUse.tapPromise({ name, stage }, async (r) => (order.push(`post:${name}`), r)) });
    const { kernel } = await bootKernel([useTools([call('read_secret', {})]), say('done')], [toolsPlugin([readSecret]), build('build-early', -100), build('build-mid', 500), build('build-audit', 1000), build('build-session', 2000)], {
      projectRoot: project,
      config: configWith({ plugins: [{ use: './policy.mjs', required: true }, './other.mjs'] }),
    });
    const events: AgentEvent[] = await runPrompt(kernel, 'go', 'default');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ reason: 'completed' });
    expect(order.filter((entry) => entry.startsWith('post:'))).toEqual(['post:build-early', 'post:build-mid', 'post:other', 'post:policy', 'post:build-audit', 'post:build-session']);
  });
});

describe('userPromptSubmit: a required tap sees (and judges) every context added to the prompt', () => {
  // The organisation's prompt policy, tapped at stage 0: it scrubs the context a prompt takes along.
  const SCRUB_CONTEXT = `export default { name: 'org-prompt', apply(k) { k.hooks.userPromptSubmit.tapPromise('org-prompt', async (s) => ({ ...s, additionalContext: s.additionalContext.map((t) => t.replace(/SECRET-\\w+/g, '[REDACTED]')) })); } };`;
  // A configured plugin that adds context after it (stage 500) and a build plugin's (as the user's SessionStart hooks, stage 100).
  const ADD_LATE = `export default { name: 'adds-late', apply(k) { k.hooks.userPromptSubmit.tapPromise({ name: 'adds-late', stage: 500 }, async (s) => ({ ...s, additionalContext: [...s.additionalContext, 'late ${SECRET}'] })); } };`;

  test("context a configured plugin or the build's hooks add after its stage still passes it", async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'prompt.mjs'), SCRUB_CONTEXT);
    writeFileSync(path.join(project, 'late.mjs'), ADD_LATE);
    const sessionHooks = definePlugin({
      name: 'build-hooks',
      apply: (kernel) => void kernel.hooks.userPromptSubmit.tapPromise({ name: 'build-hooks', stage: 100 }, async (s) => ({ ...s, additionalContext: [...s.additionalContext, `session start ${SECRET}`] })),
    });
    const { kernel, model } = await bootKernel([say('ok')], [sessionHooks], { projectRoot: project, config: configWith({ plugins: [{ use: './prompt.mjs', required: true }, './late.mjs'] }) });
    await runPrompt(kernel, 'hello', 'default');
    const sent = JSON.stringify(model.requests[0]);
    expect(sent).toContain('session start [REDACTED]');
    expect(sent).toContain('late [REDACTED]');
    expect(sent).not.toContain(SECRET);
  });
});

describe("buildSystemPrompt and buildEnvironment: a required plugin's part cannot be dropped by a configured tap after it", () => {
  const ORG_PARTS = `export default { name: 'org-rules', apply(k) {
    k.hooks.buildSystemPrompt.tap({ name: 'org-rules', stage: -5000 }, (parts) => [...parts, 'ORG-RULE: never push to main']);
    k.hooks.buildEnvironment.tapPromise({ name: 'org-rules', stage: -5000 }, async (parts) => [...parts, 'ORG-ENV: classification internal']);
  } };`;
  const DROP_PARTS = `export default { name: 'dropper', apply(k) {
    k.hooks.buildSystemPrompt.tap({ name: 'dropper', stage: 5000 }, (parts) => parts.filter((p) => !p.includes('ORG-')));
    k.hooks.buildEnvironment.tapPromise({ name: 'dropper', stage: 5000 }, async (parts) => parts.filter((p) => !p.includes('ORG-')));
  } };`;
  test.each([
    ['required by configuration', true],
    ['not required (the control: the configured tap after it drops the parts)', false],
  ])('%s', async (_how, required) => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'org.mjs'), ORG_PARTS);
    writeFileSync(path.join(project, 'drop.mjs'), DROP_PARTS);
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [required ? { use: './org.mjs', required: true } : './org.mjs', './drop.mjs'] }) });
    await runPrompt(kernel, 'hello', 'default');
    const request = JSON.stringify(model.requests[0]);
    expect(request.includes('ORG-RULE: never push to main')).toBe(required);
    expect(request.includes('ORG-ENV: classification internal')).toBe(required);
  });
});

describe("preModelRequest, after the prompt builders: a configured tap cannot send the request without a required plugin's parts", () => {
  const ORG_PARTS = `export default { name: 'org-rules', apply(k) {
    k.hooks.buildSystemPrompt.tap('org-rules', (parts) => [...parts, 'ORG-RULE: never push to main']);
    k.hooks.buildEnvironment.tapPromise('org-rules', async (parts) => [...parts, 'ORG-ENV: classification internal']);
  } };`;
  const STRIP = (field: string) => `export default { name: 'tidy', apply(k) {
    k.hooks.preModelRequest.tapPromise({ name: 'tidy', stage: 1e6 }, async (req) => ({ ...req, system: { ...req.system, ${field}: req.system.${field}.replace(/ORG-[A-Z]+: [^\\n]*/g, '') } }));
  } };`;
  test.each(['stable', 'environment'])('a tap that strips the organisation part from system.%s: the request is not sent, naming the plugin whose part it was', async (field) => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'org.mjs'), ORG_PARTS);
    writeFileSync(path.join(project, 'tidy.mjs'), STRIP(field));
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [{ use: './org.mjs', required: true }, './tidy.mjs'] }) });
    const events = await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ kind: 'plugin', message: expect.stringContaining('org-rules, which is required') });
  });

  test.each([
    ['pushes its part onto the list it is handed', `export default { name: 'org-rules', apply(k) { k.hooks.buildSystemPrompt.tap('org-rules', (parts) => { parts.push('ORG-RULE: never push to main'); return parts; }); } };`, STRIP('stable')],
    [
      'finds its text already put there by a configured tap before it (and does not add it twice)',
      `export default { name: 'org-rules', apply(k) { k.hooks.buildSystemPrompt.tap('org-rules', (parts) => parts.includes('ORG-RULE: never push to main') ? parts : [...parts, 'ORG-RULE: never push to main']); } };`,
      `export default { name: 'tidy', apply(k) {
        k.hooks.buildSystemPrompt.tap({ name: 'tidy', stage: -10 }, (parts) => [...parts, 'ORG-RULE: never push to main']);
        k.hooks.preModelRequest.tapPromise({ name: 'tidy', stage: 1e6 }, async (req) => ({ ...req, system: { ...req.system, stable: req.system.stable.replace(/ORG-[A-Z]+: [^\\n]*/g, '') } }));
      } };`,
    ],
    ['keeps it, while a configured tap sends system.stable as something that is not text', ORG_PARTS, `export default { name: 'tidy', apply(k) { k.hooks.preModelRequest.tapPromise({ name: 'tidy', stage: 1e6 }, async (req) => ({ ...req, system: { ...req.system, stable: [req.system.stable] } })); } };`],
  ])('the organisation %s: still not sent', async (_how, org, tidy) => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'org.mjs'), org);
    writeFileSync(path.join(project, 'tidy.mjs'), tidy);
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [{ use: './org.mjs', required: true }, './tidy.mjs'] }) });
    await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(0);
  });

  test("the context a required plugin adds to the prompt (userPromptSubmit) cannot be removed from the user's message either", async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'org.mjs'), `export default { name: 'org-ctx', apply(k) { k.hooks.userPromptSubmit.tapPromise('org-ctx', async (s) => ({ ...s, additionalContext: [...s.additionalContext, 'ORG-CTX: data is confidential'] })); } };`);
    writeFileSync(
      path.join(project, 'tidy.mjs'),
      `export default { name: 'tidy', apply(k) { k.hooks.preModelRequest.tapPromise({ name: 'tidy', stage: 1e6 }, async (req) => ({ ...req, messages: req.messages.map((m) => m.role === 'user' ? { ...m, content: m.content.filter((b) => !String(b.text).startsWith('ORG-')) } : m) })); } };`,
    );
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [{ use: './org.mjs', required: true }, './tidy.mjs'] }) });
    const events = await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ message: expect.stringContaining('org-ctx, which is required') });
  });

  test('a tap that leaves them (and changes the rest of the request): sent (the control)', async () => {
    const project = tempDir('mc-policy-');
    writeFileSync(path.join(project, 'org.mjs'), ORG_PARTS);
    writeFileSync(path.join(project, 'tidy.mjs'), `export default { name: 'tidy', apply(k) { k.hooks.preModelRequest.tapPromise('tidy', async (req) => ({ ...req, system: { ...req.system, stable: req.system.stable + '\\n\\nBe terse.' } })); } };`);
    const { kernel, model } = await bootKernel([say('ok')], [], { projectRoot: project, config: configWith({ plugins: [{ use: './org.mjs', required: true }, './tidy.mjs'] }) });
    await runPrompt(kernel, 'hello', 'default');
    await kernel.shutdown();
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0])).toContain('ORG-RULE: never push to main');
    expect(JSON.stringify(model.requests[0])).toContain('Be terse.');
  });
});
