/** Claude Code's model aliases (`sonnet`, `opus`, `haiku`) mean one model wherever a model is named. */
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import providerOpenai from '../../plugins/provider-openai/index.js';
import providerAnthropic from '../../plugins/provider-anthropic/index.js';
import { chooseModel } from '../../sdk/model-choice.js';
import { CLAUDE_MODEL_ALIASES } from '../../types/model-aliases.js';
import type { ResolvedConfig } from '../../types/config.js';

function configWith(sections: Record<string, unknown>): ResolvedConfig {
  return { layers: [], warnings: [], section: (key) => sections[key], locate: (path) => `/p/.mewcode.yaml:${path.length}:1` };
}
const base = { projectRoot: '/tmp/no-project', homeDir: '/tmp/no-home', plugins: [providerAnthropic, providerOpenai], reporter: new MemoryReporter() };

test('--model and MEWCODE_MODEL: an alias is the family\'s Anthropic model id, whatever its case', async () => {
  for (const [flags, env] of [
    [{ model: 'sonnet' }, { ANTHROPIC_API_KEY: 'k' }],
    [{}, { ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'Sonnet' }],
  ] as const) {
    const kernel = await Kernel.create({ ...base, env: { ...env }, flags: { ...flags }, config: configWith({}) });
    expect(kernel.providers.active().model).toBe(CLAUDE_MODEL_ALIASES.sonnet);
  }
  const haiku = await Kernel.create({ ...base, env: { ANTHROPIC_API_KEY: 'k' }, flags: { model: 'haiku' }, config: configWith({}) });
  expect(haiku.providers.active().model).toMatch(/^claude-haiku-/);
});

test('ANTHROPIC_DEFAULT_<ALIAS>_MODEL wins; then a configured model of that family', async () => {
  const byEnv = await Kernel.create({ ...base, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-opus-4-1-20250805' }, flags: { model: 'opus' }, config: configWith({}) });
  expect(byEnv.providers.active().model).toBe('claude-opus-4-1-20250805');
  const byConfig = await Kernel.create({
    ...base,
    env: {},
    flags: { model: 'sonnet' },
    config: configWith({ providers: [{ name: 'gw', protocol: 'openai', model: 'gpt-x', api_key: 'k' }, { name: 'spare', protocol: 'openai', model: 'anthropic/claude-sonnet-4', api_key: 'k' }] }),
  });
  expect(byConfig.providers.active()).toMatchObject({ id: 'gw', model: 'anthropic/claude-sonnet-4' });
});

test("a providers entry's `model: haiku` is resolved too", async () => {
  const kernel = await Kernel.create({ ...base, env: {}, config: configWith({ providers: [{ name: 'a', protocol: 'anthropic', model: 'haiku', api_key: 'k' }] }) });
  expect(kernel.providers.active().model).toBe(CLAUDE_MODEL_ALIASES.haiku);
});

test('on the OpenAI protocol an alias with no mapping is a configuration error saying what to set, before any request', async () => {
  const create = Kernel.create({ ...base, env: { OPENAI_API_KEY: 'k' }, flags: { model: 'sonnet', provider: 'openai' }, config: configWith({}) });
  await expect(create).rejects.toThrow(ConfigurationError);
  await expect(Kernel.create({ ...base, env: { OPENAI_API_KEY: 'k' }, flags: { model: 'sonnet', provider: 'openai' }, config: configWith({}) })).rejects.toThrow(
    /"sonnet" is Claude Code's alias.*speaks openai.*ANTHROPIC_DEFAULT_SONNET_MODEL/,
  );
});

test('a session switching to an alias (/model sonnet, a sub-agent\'s model) gets the same id; on OpenAI it is refused', async () => {
  const kernel = await Kernel.create({ ...base, env: { ANTHROPIC_API_KEY: 'k', MEWCODE_MODEL: 'claude-x' }, config: configWith({}) });
  expect(kernel.providers.resolve({ model: 'opus' }).model).toBe(CLAUDE_MODEL_ALIASES.opus);
  const openai = await Kernel.create({ ...base, env: { OPENAI_API_KEY: 'k', MEWCODE_MODEL: 'gpt-x' }, config: configWith({}) });
  expect(() => openai.providers.resolve({ model: 'haiku' })).toThrow(/Claude Code's alias/);
});

test("a sub-agent's or command's alias on an Anthropic parent is that family's model, not the parent's", () => {
  const configured = [{ name: 'anthropic', protocol: 'anthropic' as const, model: 'claude-x', contextWindow: 1, maxTokens: 1, maxRetries: 0, retryBaseDelayMs: 0 }];
  expect(chooseModel('haiku', configured, { provider: 'anthropic', model: 'claude-x' })).toEqual({ selection: { provider: 'anthropic', model: 'haiku' } });
  const openai = [{ ...configured[0]!, name: 'oa', protocol: 'openai' as const, model: 'gpt-x' }];
  expect(chooseModel('haiku', openai, { provider: 'oa', model: 'gpt-x' })).toMatchObject({ selection: { provider: 'oa', model: 'gpt-x' }, notice: expect.stringMatching(/No configured model matches "haiku"/) });
});

test("Claude Code's other spellings mean their family: sonnet[1m], opus[1m], opusplan, default; a name that only looks like one is a model name", async () => {
  const resolved = async (model: string, env: Record<string, string> = {}): Promise<string> =>
    (await Kernel.create({ ...base, env: { ANTHROPIC_API_KEY: 'k', ...env }, flags: { model }, config: configWith({}) })).providers.active().model;
  expect(await resolved('sonnet[1m]')).toBe(CLAUDE_MODEL_ALIASES.sonnet);
  expect(await resolved('Opus[1M]')).toBe(CLAUDE_MODEL_ALIASES.opus);
  expect(await resolved('opusplan')).toBe(CLAUDE_MODEL_ALIASES.sonnet);
  expect(await resolved('default')).toBe(CLAUDE_MODEL_ALIASES.sonnet);
  expect(await resolved('default', { ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-sonnet-4-5-20250929' })).toBe('claude-sonnet-4-5-20250929');
  for (const name of ['default[1m]', 'opusplan[1m]', 'sonnet[2m]', 'sonnet-1m', 'claude-sonnet-4-5[1m]']) expect(await resolved(name)).toBe(name);
  await expect(Kernel.create({ ...base, env: { OPENAI_API_KEY: 'k' }, flags: { model: 'sonnet[1m]', provider: 'openai' }, config: configWith({}) })).rejects.toThrow(/"sonnet\[1m\]" is Claude Code's alias.*ANTHROPIC_DEFAULT_SONNET_MODEL/);
});
