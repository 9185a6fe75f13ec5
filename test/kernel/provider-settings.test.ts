/** P5, K2: provider selection from configuration and environment. */
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { resolveProviderSettings } from '../../kernel/provider-settings.js';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import providerOpenai from '../../plugins/provider-openai/index.js';
import providerAnthropic from '../../plugins/provider-anthropic/index.js';
import type { ResolvedConfig } from '../../types/config.js';

function configWith(sections: Record<string, unknown>): ResolvedConfig {
  return { layers: [], warnings: [], section: (key) => sections[key], locate: (path) => `/p/.mewcode.yaml:${path.length}:1` };
}
const base = { projectRoot: '/tmp/no-project', homeDir: '/tmp/no-home', plugins: [providerAnthropic, providerOpenai] };

test('one invalid providers entry is skipped with a warning naming it; the valid ones stay', async () => {
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({
    ...base,
    reporter,
    env: {},
    config: configWith({
      provider: 'main',
      providers: [
        { name: 'main', protocol: 'openai', model: 'llama', base_url: 'http://127.0.0.1:11434/v1' },
        { name: 'spare', protocol: 'anthropic', model: 'x', maxtokens: 5 },
      ],
    }),
  });
  expect(kernel.providers.active()).toMatchObject({ id: 'main', protocol: 'openai', model: 'llama' });
  expect(reporter.warnings).toEqual([`config: /p/.mewcode.yaml:3:1: providers[1].maxtokens: Unknown key "maxtokens" (provider entry skipped)`]);
});

test('with a providers section whose entries are all invalid, the environment is not used instead', async () => {
  const create = Kernel.create({
    ...base,
    reporter: new MemoryReporter(),
    env: { ANTHROPIC_API_KEY: 'from-env', MEWCODE_MODEL: 'm' },
    config: configWith({ providers: [{ name: 'main', protocol: 'openai', model: 'x', max_tokens: 'big' }] }),
  });
  await expect(create).rejects.toThrow(/No usable provider: every entry of the `providers:` section is invalid/);
});

test('a keyless OpenAI-compatible local server needs no API key; api.openai.com does', () => {
  const factories = [
    { protocol: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', defaultContextWindow: 128_000, apiKeyRequired: (url: string | undefined) => url === undefined, create: () => { throw new Error('unused'); } },
  ];
  const input = { configuredActive: undefined, env: {}, flags: {}, factories, expand: (v: string) => v };
  const local = resolveProviderSettings({ ...input, entries: [{ name: 'local', protocol: 'openai', model: 'llama', base_url: 'http://127.0.0.1:11434/v1' }] });
  expect(local.active).toMatchObject({ name: 'local', baseUrl: 'http://127.0.0.1:11434/v1' });
  expect(local.active.apiKey).toBeUndefined();
  expect(() => resolveProviderSettings({ ...input, entries: [{ name: 'cloud', protocol: 'openai', model: 'gpt' }] })).toThrow(ConfigurationError);
});

test('ANTHROPIC_AUTH_TOKEN alone selects the anthropic provider and is its Bearer token (as Claude Code accepts)', () => {
  const factories = [
    { protocol: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', authTokenEnv: 'ANTHROPIC_AUTH_TOKEN', baseUrlEnv: 'ANTHROPIC_BASE_URL', defaultContextWindow: 200_000, create: () => { throw new Error('unused'); } },
  ];
  const input = { configuredActive: undefined, env: { ANTHROPIC_AUTH_TOKEN: 'tok', MEWCODE_MODEL: 'claude-x' }, flags: {}, factories, expand: (v: string) => v };
  const settings = resolveProviderSettings({ ...input, entries: [] });
  expect(settings.active).toMatchObject({ protocol: 'anthropic', authToken: 'tok' });
  expect(settings.active.apiKey).toBeUndefined();
  // a configured entry without api_key takes the token too
  const entry = resolveProviderSettings({ ...input, entries: [{ name: 'gw', protocol: 'anthropic', model: 'claude-x' }] });
  expect(entry.active).toMatchObject({ name: 'gw', authToken: 'tok' });
});

test.each(['localhost:1/v1', 'htp://127.0.0.1:1/v1', 'ftp://example.com/v1', '127.0.0.1:8080'])('base_url %s (no http(s) scheme) is a configuration error naming file, line and key', async (url) => {
  const reporter = new MemoryReporter();
  const create = Kernel.create({ ...base, reporter, env: {}, config: configWith({ providers: [{ name: 'local', protocol: 'openai', model: 'm', api_key: 'k', base_url: url }] }) });
  await expect(create).rejects.toThrow(ConfigurationError);
  expect(reporter.warnings).toEqual([expect.stringMatching(/^config: \/p\/\.mewcode\.yaml:\d+:1: providers\[0\]\.base_url: .*http:\/\/ or https:\/\//)]);
});

test('max_completion_tokens in a provider entry reaches the settings', async () => {
  const kernel = await Kernel.create({ ...base, reporter: new MemoryReporter(), env: {}, config: configWith({ providers: [{ name: 'az', protocol: 'openai', model: 'o3', api_key: 'k', base_url: 'https://r.openai.azure.com/openai/v1', max_completion_tokens: true }] }) });
  expect(kernel.providers.active()).toMatchObject({ id: 'az' });
  const { resolveProviderSettings: resolve } = await import('../../kernel/provider-settings.js');
  const factories = [{ protocol: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', defaultContextWindow: 1, create: () => { throw new Error('unused'); } }];
  const settings = resolve({ configuredActive: undefined, env: {}, flags: {}, factories, expand: (v: string) => v, entries: [{ name: 'az', protocol: 'openai', model: 'o3', api_key: 'k', max_completion_tokens: false }] });
  expect(settings.active.maxCompletionTokens).toBe(false);
});

test('timeout_ms of an entry, else API_TIMEOUT_MS (as Claude Code reads it), sets the provider timeout', () => {
  const factories = [{ protocol: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', defaultContextWindow: 1, create: () => { throw new Error('unused'); } }];
  const input = { configuredActive: undefined, flags: {}, factories, expand: (v: string) => v };
  const entry = { name: 'a', protocol: 'openai', model: 'm', api_key: 'k' };
  expect(resolveProviderSettings({ ...input, env: {}, entries: [{ ...entry, timeout_ms: 30_000 }] }).active.timeoutMs).toBe(30_000);
  expect(resolveProviderSettings({ ...input, env: { API_TIMEOUT_MS: '45000' }, entries: [entry] }).active.timeoutMs).toBe(45_000);
  expect(resolveProviderSettings({ ...input, env: { API_TIMEOUT_MS: '45000' }, entries: [{ ...entry, timeout_ms: 1000 }] }).active.timeoutMs).toBe(1000);
  expect(resolveProviderSettings({ ...input, env: {}, entries: [entry] }).active.timeoutMs).toBeUndefined();
});
