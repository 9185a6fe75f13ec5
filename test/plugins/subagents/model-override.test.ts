/**
 * A role's `model` among the configured providers (the real SDKs against the scripted server):
 * a provider name sends the sub-agent's requests to that provider; Claude Code's alias picks the
 * configured model that contains it; an explicit model name stays on the parent's provider; the
 * parent keeps its own model throughout.
 */
import { expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import providerAnthropic from '../../../plugins/provider-anthropic/index.js';
import providerOpenai from '../../../plugins/provider-openai/index.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import { chooseModel } from '../../../sdk/model-choice.js';
import type { ResolvedConfig } from '../../../types/config.js';
import { TOKENS } from '../../../types/tokens.js';
import { collect } from '../../support/boot.js';
import { temp } from '../../support/temp-dirs.js';
import { providersConfig, scriptedServerPerTest } from './scripted.js';

const scripted = scriptedServerPerTest();

function config(url: string): ResolvedConfig {
  return providersConfig('claude', [
    { name: 'claude', protocol: 'anthropic', model: 'claude-opus-scripted', api_key: 'k', base_url: url, retry_base_delay_ms: 1 },
    { name: 'fast', protocol: 'anthropic', model: 'claude-haiku-scripted', api_key: 'k', base_url: url, retry_base_delay_ms: 1 },
    { name: 'gpt', protocol: 'openai', model: 'gpt-scripted', api_key: 'k', base_url: `${url}/v1`, retry_base_delay_ms: 1 },
  ]);
}

function agentFile(home: string, name: string, model: string): void {
  mkdirSync(path.join(home, '.mewcode', 'agents'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'agents', `${name}.md`), `---\nname: ${name}\ndescription: ${name}\nmodel: ${model}\n---\nYou are ${name}.\n`);
}

test('a role\'s model: provider name, Claude alias, explicit model on the parent\'s provider; the parent keeps its model', async () => {
  const server = scripted();
  const root = temp('mewcode-subagents-root-');
  const home = temp('mewcode-subagents-home-');
  agentFile(home, 'on-gpt', 'gpt');
  agentFile(home, 'on-haiku', 'haiku');
  agentFile(home, 'custom', 'claude-custom-model');
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({ plugins: [providerAnthropic, providerOpenai, permissionMode, createSubagentsPlugin()], projectRoot: root, homeDir: home, env: {}, reporter, config: config(server.url) });
  const runner = kernel.container.get(TOKENS.SubagentRunner);
  try {
    server.push({ text: 'from gpt' }, { text: 'from haiku' }, { text: 'from custom' }, { text: 'parent answer' }, { text: 'from override' });
    expect(await runner.run({ prompt: 'a', role: 'on-gpt' })).toMatchObject({ text: 'from gpt', isError: false });
    expect(await runner.run({ prompt: 'b', role: 'on-haiku' })).toMatchObject({ text: 'from haiku' });
    expect(await runner.run({ prompt: 'c', role: 'custom' })).toMatchObject({ text: 'from custom' });
    await collect(kernel.session.run({ prompt: 'd', mode: 'default' }));
    // The caller's model wins over the role's.
    expect(await runner.run({ prompt: 'e', role: 'on-gpt', model: 'fast' })).toMatchObject({ text: 'from override' });
    expect(server.requests.map((r) => [r.protocol, r.body.model])).toEqual([
      ['openai', 'gpt-scripted'],
      ['anthropic', 'claude-haiku-scripted'],
      ['anthropic', 'claude-custom-model'],
      ['anthropic', 'claude-opus-scripted'],
      ['anthropic', 'claude-haiku-scripted'],
    ]);
    expect(reporter.warnings).toEqual([]);
  } finally {
    await kernel.shutdown();
  }
});

test('chooseModel: inherit, provider, configured model, alias with and without a match', () => {
  const configured = [
    { name: 'claude', model: 'claude-opus-4' },
    { name: 'gpt', model: 'gpt-5' },
  ] as never[];
  const parent = { provider: 'claude', model: 'claude-opus-4' };
  expect(chooseModel(undefined, configured, parent)).toEqual({ selection: parent });
  expect(chooseModel('inherit', configured, parent)).toEqual({ selection: parent });
  expect(chooseModel('gpt', configured, parent)).toEqual({ selection: { provider: 'gpt' } });
  expect(chooseModel('gpt-5', configured, parent)).toEqual({ selection: { provider: 'gpt', model: 'gpt-5' } });
  expect(chooseModel('opus', configured, parent)).toEqual({ selection: { provider: 'claude', model: 'claude-opus-4' } });
  expect(chooseModel('sonnet', configured, parent)).toEqual({ selection: parent, notice: expect.stringContaining('No configured model matches "sonnet"') });
  expect(chooseModel('o3', configured, parent)).toEqual({ selection: { provider: 'claude', model: 'o3' } });
});
