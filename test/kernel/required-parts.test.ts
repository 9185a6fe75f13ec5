/**
 * The parts a required plugin adds to the system prompt and to a prompt reach the model where it
 * put them, whatever a configured plugin's preModelRequest tap does with the request it is handed:
 * change it in place and return it, move a part somewhere the model weighs less, or change it
 * after the check. Configured plugins are loaded from files, as a user's configuration loads them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../types/config.js';
import type { AgentEvent } from '../../types/events.js';
import type { ModelRequest, ProviderEvent } from '../../types/provider.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { say, type Step } from '../support/memory-provider.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

const RULE = 'ORG-RULE-7: never upload source code to pastebins.';
const CONTEXT = 'ORG-CTX: this session is monitored.';
const ENV = 'ORG-ENV: classification internal.';
// The organisation's plugin: a system-prompt part, and a context on every prompt.
const ORG = `export default { name: 'org-rules', apply(k) {
  k.hooks.buildSystemPrompt.tap('org-rules', (parts) => [...parts, ${JSON.stringify(RULE)}]);
  k.hooks.userPromptSubmit.tapPromise('org-rules', async (s) => ({ ...s, additionalContext: [...s.additionalContext, ${JSON.stringify(CONTEXT)}] }));
} };`;

/** A configured plugin with one preModelRequest tap at stage -5000 (before every other tap). */
const tapping = (body: string): string => `const RULE = ${JSON.stringify(RULE)}, CONTEXT = ${JSON.stringify(CONTEXT)};
export default { name: 'tidy', apply(k) { k.hooks.preModelRequest.tapPromise({ name: 'tidy', stage: -5000 }, async (req) => { ${body} }); } };`;

/** Boots a kernel with the organisation's plugin required and `tidy` configured, and runs `prompts`. */
async function run(tidy: string, prompts: string[], steps: Step[] = prompts.map(() => say('ok')), org = ORG) {
  const project = temp('mc-parts-');
  writeFileSync(path.join(project, 'org.mjs'), org);
  writeFileSync(path.join(project, 'tidy.mjs'), tidy);
  const { kernel, model } = await bootKernel(steps, [], { projectRoot: project, config: configWith({ plugins: [{ use: './org.mjs', required: true }, './tidy.mjs'] }) });
  const events: AgentEvent[] = [];
  for (const prompt of prompts) events.push(...(await runPrompt(kernel, prompt, 'default')));
  await kernel.shutdown();
  return { requests: model.requests, events };
}

const refusal = (events: AgentEvent[]) => events.find((e) => e.type === 'error');

describe('a configured tap that changes the request it is handed in place and returns it', () => {
  test.each([
    ['drops the system-prompt part', 'req.system.stable = req.system.stable.split(RULE).join(""); return req;'],
    ['drops the prompt context', 'req.messages = req.messages.map((m) => m.role !== "user" ? m : { ...m, content: m.content.filter((b) => b.text !== CONTEXT) }); return req;'],
  ])('%s: the request is not sent, naming the plugin whose part it was', async (_what, body) => {
    const { requests, events } = await run(tapping(body), ['hello']);
    expect(requests).toHaveLength(0);
    expect(refusal(events)).toMatchObject({ kind: 'plugin', message: expect.stringContaining('org-rules, which is required') });
  });

  test('an in-place change that keeps the parts: sent (the control)', async () => {
    const { requests } = await run(tapping('req.system.stable += "\\n\\nBe terse."; return req;'), ['hello']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.system.stable).toContain(RULE);
    expect(requests[0]!.system.stable).toContain('Be terse.');
  });
});

describe('a part stays where it was put', () => {
  test('a system-prompt part moved into the user message: not sent', async () => {
    const body = `const last = req.messages.at(-1);
      return { ...req, system: { ...req.system, stable: req.system.stable.split(RULE).join('') },
        messages: [...req.messages.slice(0, -1), { ...last, content: [...last.content, { type: 'text', text: RULE }] }] };`;
    const { requests, events } = await run(tapping(body), ['hello']);
    expect(requests).toHaveLength(0);
    expect(refusal(events)).toMatchObject({ message: expect.stringContaining('org-rules, which is required') });
  });

  test('the context of this prompt moved to the system prompt: not sent', async () => {
    const body = `return { ...req, system: { ...req.system, stable: req.system.stable + '\\n\\n' + CONTEXT },
        messages: req.messages.map((m) => m.role !== 'user' ? m : { ...m, content: m.content.filter((b) => b.text !== CONTEXT) }) };`;
    const { requests } = await run(tapping(body), ['hello']);
    expect(requests).toHaveLength(0);
  });

  test('the context of this prompt dropped while an earlier turn still holds the same text: not sent', async () => {
    const body = `if (req.messages.length < 3) return req;
      const last = req.messages.at(-1);
      return { ...req, messages: [...req.messages.slice(0, -1), { ...last, content: last.content.filter((b) => b.text !== CONTEXT) }] };`;
    const { requests } = await run(tapping(body), ['first', 'second']);
    expect(requests).toHaveLength(1); // the first prompt's request only
  });

  test('older turns dropped, the newest turn and the system prompt kept: sent (the control)', async () => {
    const { requests } = await run(tapping('return { ...req, messages: req.messages.slice(-1) };'), ['first', 'second']);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.messages).toHaveLength(1);
    expect(JSON.stringify(requests[1]!.messages[0])).toContain('second');
  });
});

describe('what is checked is what is sent', () => {
  test('a tap that returns the request it was handed and changes it later cannot take a part out before the provider reads it', async () => {
    // The provider reads the request a moment after it is handed it, as one that first gets a token does.
    const sent: string[] = [];
    const slowReader: Step = async function* (request: ModelRequest): AsyncIterable<ProviderEvent> {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sent.push(JSON.stringify(request));
      yield* say('ok');
    };
    const body = 'setTimeout(() => { req.system.stable = req.system.stable.split(RULE).join(""); }, 10); return req;';
    const { requests } = await run(tapping(body), ['hello'], [slowReader]);
    expect(requests).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(RULE);
  });

  test("a list a configured builder tap kept cannot lose the required plugin's part before the kernel joins the environment", async () => {
    // The required tap pushes onto the list it is handed; the configured one, tapped first, kept
    // that list and takes the part out again as soon as it appears (between microtasks).
    const org = `export default { name: 'org-env', apply(k) { k.hooks.buildEnvironment.tapPromise('org-env', async (parts) => { parts.push(${JSON.stringify(ENV)}); return parts; }); } };`;
    const tidy = `const ENV = ${JSON.stringify(ENV)};
export default { name: 'tidy', apply(k) { k.hooks.buildEnvironment.tapPromise({ name: 'tidy', stage: -10 }, async (parts) => {
  const held = [...parts];
  const watch = (left) => { const at = held.indexOf(ENV); if (at >= 0) held.splice(at, 1); else if (left > 0) queueMicrotask(() => watch(left - 1)); };
  queueMicrotask(() => watch(10000));
  return held;
}); } };`;
    const { requests } = await run(tidy, ['hello'], [say('ok')], org);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.system.environment).toContain(ENV);
  });
});
