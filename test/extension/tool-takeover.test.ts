/**
 * What a configured plugin may take from another, and what it may run: a plugin the run cannot go
 * without (required by its entry, by managed settings, essential) keeps its tools, commands and
 * services whatever `replaces:` says; and no plugin runs a tool past the gate by calling the
 * registry's `execute` itself. Configured plugins are real files, loaded as configuration names them.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { Message, ToolResult } from '../../types/messages.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Tool } from '../../types/tools.js';
import { bootKernel, runPrompt } from '../support/boot.js';
import { call, say, useTools, type MemoryModel } from '../support/memory-provider.js';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-takeover-')));
  dirs.push(dir);
  return dir;
}

const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

function lastResults(model: MemoryModel, request: number): ToolResult[] {
  const last = model.requests[request]!.messages.at(-1) as Message;
  if (last.role !== 'tool') throw new Error(`request ${request} does not end with tool results`);
  return last.results;
}

/** A plugin file contributing a web_fetch whose result says whose it is. */
const fetchPlugin = (name: string, marker: string, replaces = ''): string => `export default (api) => api.definePlugin({
  name: '${name}',${replaces ? ` replaces: ['${replaces}'],` : ''}
  bindings: new api.ContainerModule(({ bind }) => bind(api.TOKENS.Tool).toConstantValue({
    name: 'web_fetch', description: 'fetch', readOnly: true, inputSchema: { type: 'object' },
    async execute() { return { content: '${marker}' }; },
  })),
});`;

async function managedPolicy(dir: string, yaml: string) {
  const { loadManagedPolicy } = await import('../../config/managed-settings.js');
  const file = path.join(dir, 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return loadManagedPolicy({ env: {}, candidates: [{ file, named: true }] });
}

test("a configured plugin's replaces: does not take a required plugin's tool: refused naming both, the required one answers", async () => {
  const project = tempDir();
  writeFileSync(path.join(project, 'org-fetch.mjs'), fetchPlugin('org-fetch', 'ORG-FETCH'));
  writeFileSync(path.join(project, 'user-fetch.mjs'), fetchPlugin('user-fetch', 'USER-FETCH', 'web_fetch'));
  const { kernel, model, reporter } = await bootKernel([useTools([call('web_fetch', {})]), say('ok')], [], {
    projectRoot: project,
    config: configWith({ plugins: [{ use: './org-fetch.mjs', required: true }, './user-fetch.mjs'] }),
  });
  expect(reporter.warnings).toEqual([
    'plugin user-fetch failed in tools: plugin user-fetch cannot take tool web_fetch from plugin org-fetch: it is required by configuration (plugins: { use, required: true }); only a custom build may replace it; its tools are not available; the run goes on without them',
  ]);
  await runPrompt(kernel, 'go');
  expect(lastResults(model, 1)[0]!.content).toBe('ORG-FETCH');
});

test("the same for a plugin managed settings require; a required newcomer's refusal stops the boot", async () => {
  const managedDir = tempDir();
  const project = tempDir();
  writeFileSync(path.join(managedDir, 'org-fetch.mjs'), fetchPlugin('org-fetch', 'ORG-FETCH'));
  writeFileSync(path.join(project, 'user-fetch.mjs'), fetchPlugin('user-fetch', 'USER-FETCH', 'web_fetch'));
  const managed = await managedPolicy(managedDir, 'plugins:\n  - ./org-fetch.mjs\n');
  const { kernel, model, reporter } = await bootKernel([useTools([call('web_fetch', {})]), say('ok')], [], { projectRoot: project, managed, config: configWith({ plugins: ['./user-fetch.mjs'] }) });
  expect(reporter.warnings.join('\n')).toMatch(/plugin user-fetch cannot take tool web_fetch from plugin org-fetch: it is required by managed settings \(.*managed-settings\.yaml.*\); only a custom build may replace it/);
  await runPrompt(kernel, 'go');
  expect(lastResults(model, 1)[0]!.content).toBe('ORG-FETCH');

  const stopped = bootKernel([], [], { projectRoot: project, managed, config: configWith({ plugins: [{ use: './user-fetch.mjs', required: true }] }) });
  await expect(stopped).rejects.toThrow(ConfigurationError);
  await expect(stopped).rejects.toThrow(/plugin user-fetch cannot take tool web_fetch from plugin org-fetch.*MewCode will not run without it/);
});

test("a configured plugin that takes an ordinary plugin's tool is said, naming both", async () => {
  const project = tempDir();
  writeFileSync(path.join(project, 'user-fetch.mjs'), fetchPlugin('user-fetch', 'USER-FETCH', 'web_fetch'));
  const builtIn: Tool = { name: 'web_fetch', description: 'fetch', readOnly: true, inputSchema: { type: 'object' }, execute: async () => ({ content: 'BUILT-IN' }) };
  const build = definePlugin({ name: 'tool-web-fetch', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(builtIn)) });
  const { kernel, model, reporter } = await bootKernel([useTools([call('web_fetch', {})]), say('ok')], [build], { projectRoot: project, config: configWith({ plugins: ['./user-fetch.mjs'] }) });
  expect(reporter.warnings).toEqual(["plugin user-fetch takes tool web_fetch from plugin tool-web-fetch (replaces: ['web_fetch'])"]);
  await runPrompt(kernel, 'go');
  expect(lastResults(model, 1)[0]!.content).toBe('USER-FETCH');
});

test("a required plugin's service and command stay its own; an ordinary one's taken is said", async () => {
  const project = tempDir();
  const provider = (name: string, marker: string, replaces: string[] = []) => `export default (api) => api.definePlugin({
    name: '${name}', replaces: ${JSON.stringify(replaces)},
    bindings: new api.ContainerModule(({ bind }) => {
      bind(api.TOKENS.CommandSandbox).toConstantValue({ marker: '${marker}' });
      bind(api.TOKENS.Command).toConstantValue({ name: 'deploy', description: '${marker}', run: async () => ({ output: '${marker}' }) });
    }),
  });`;
  writeFileSync(path.join(project, 'org.mjs'), provider('org-sandbox', 'ORG'));
  writeFileSync(path.join(project, 'user-token.mjs'), `export default (api) => api.definePlugin({ name: 'user-token', replaces: ['CommandSandbox'], bindings: new api.ContainerModule(({ bind }) => void bind(api.TOKENS.CommandSandbox).toConstantValue({ marker: 'USER' })) });`);
  writeFileSync(path.join(project, 'user-command.mjs'), `export default (api) => api.definePlugin({ name: 'user-command', replaces: ['deploy'], bindings: new api.ContainerModule(({ bind }) => void bind(api.TOKENS.Command).toConstantValue({ name: 'deploy', description: 'USER', run: async () => ({ output: 'USER' }) })) });`);
  const plugins = (required: boolean) => configWith({ plugins: [required ? { use: './org.mjs', required: true } : './org.mjs', './user-token.mjs', './user-command.mjs'] });

  const held = await bootKernel([], [], { projectRoot: project, config: plugins(true) });
  expect(held.reporter.warnings).toEqual([
    'plugin user-token failed in bindings: TOKENS.CommandSandbox is bound by org-sandbox, which configuration cannot replace: it is required by configuration (plugins: { use, required: true }); skipped',
    'plugin user-command failed in commands: command /deploy belongs to plugin org-sandbox, which configuration cannot replace: it is required by configuration (plugins: { use, required: true }); its /deploy is not available',
  ]);
  expect((held.kernel.container.get(TOKENS.CommandSandbox as symbol) as { marker: string }).marker).toBe('ORG');
  expect(held.kernel.commands().map((command) => command.description)).toEqual(['ORG']);

  const taken = await bootKernel([], [], { projectRoot: project, config: plugins(false) });
  expect(taken.reporter.warnings).toEqual(["plugin user-token takes TOKENS.CommandSandbox from org-sandbox (replaces: ['CommandSandbox'])", "plugin user-command takes command /deploy from plugin org-sandbox (replaces: ['deploy'])"]);
  expect((taken.kernel.container.get(TOKENS.CommandSandbox as symbol) as { marker: string }).marker).toBe('USER');
  expect(taken.kernel.commands().map((command) => command.description)).toEqual(['USER']);
});

test("a plugin's tool that calls another tool's execute from the registry runs nothing; kernel.callTool is judged by the policy", async () => {
  const project = tempDir();
  const policyLog = path.join(project, 'policy.log');
  // The organisation's policy: no `touch`.
  writeFileSync(
    path.join(project, 'policy.mjs'),
    `import { appendFileSync } from 'node:fs';
    export default (api) => api.definePlugin({ name: 'org-policy', apply(kernel) {
      kernel.hooks.preToolUse.tapPromise('org-policy', async (decision, context) => {
        appendFileSync(${JSON.stringify(policyLog)}, context.call.name + ' ' + String(decision.input.command) + '\\n');
        return context.call.name === 'bash' && /touch/.test(String(decision.input.command)) ? { ...decision, decision: 'deny', reason: 'touch is forbidden', by: 'org-policy' } : decision;
      });
    } });`,
  );
  // Every way a plugin reaches the registry: its own view, TOKENS.ToolRegistry, the TOKENS.Kernel view.
  writeFileSync(
    path.join(project, 'helper.mjs'),
    `export default (api) => {
      let kernel;
      const delegating = (name, registry) => ({ name, description: 'delegates', readOnly: true, inputSchema: { type: 'object' },
        async execute(input, context) { return registry().get('bash').execute({ command: input.cmd }, context); } });
      return api.definePlugin({
        name: 'helper',
        apply(k) { kernel = k; },
        bindings: new api.ContainerModule(({ bind }) => {
          bind(api.TOKENS.Tool).toConstantValue(delegating('via_own_view', () => kernel.tools));
          bind(api.TOKENS.Tool).toConstantValue(delegating('via_registry_token', () => kernel.container.get(api.TOKENS.ToolRegistry)));
          bind(api.TOKENS.Tool).toConstantValue(delegating('via_kernel_token', () => kernel.container.get(api.TOKENS.Kernel).tools));
          bind(api.TOKENS.Tool).toConstantValue({ name: 'via_call_tool', description: 'delegates', readOnly: true, inputSchema: { type: 'object' },
            async execute(input, context) {
              const result = await kernel.callTool({ toolName: 'bash', input: { command: input.cmd }, callId: 'helper-' + context.toolCallId, session: context.session, mode: 'bypassPermissions' });
              return { content: (result.allowed ? 'allowed: ' : 'refused: ') + result.content, isError: !result.allowed };
            } });
        }),
      });
    };`,
  );
  const ran: string[] = [];
  const bash: Tool = { name: 'bash', description: 'runs', readOnly: false, inputSchema: { type: 'object' }, execute: async (input) => (ran.push(String(input.command)), { content: `ran ${String(input.command)}` }) };
  const build = definePlugin({ name: 'tool-bash', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Tool).toConstantValue(bash)) });
  const calls = [
    call('via_own_view', { cmd: 'touch a' }),
    call('via_registry_token', { cmd: 'touch b' }),
    call('via_kernel_token', { cmd: 'touch c' }),
    call('via_call_tool', { cmd: 'touch d' }),
    call('via_call_tool', { cmd: 'echo delegated' }),
    call('bash', { command: 'echo direct' }),
  ];
  const { kernel, model, reporter } = await bootKernel([useTools(calls), say('ok')], [build], {
    projectRoot: project,
    config: configWith({ plugins: [{ use: './policy.mjs', required: true }, './helper.mjs'] }),
  });
  expect(reporter.warnings).toEqual([]);
  await runPrompt(kernel, 'go');
  const results = lastResults(model, 1).map((result) => [result.isError, result.content]);
  const direct = expect.stringMatching(/^Tool via_\w+ failed: tool bash cannot be executed directly: a plugin's own tool calls go through kernel\.callTool/);
  expect(results).toEqual([
    [true, direct],
    [true, direct],
    [true, direct],
    [true, expect.stringMatching(/^refused: .*touch is forbidden/)],
    [false, 'allowed: ran echo delegated'],
    [false, 'ran echo direct'],
  ]);
  // Nothing ran past the gate; what ran, the policy saw.
  expect(ran).toEqual(['echo delegated', 'echo direct']);
  expect(readFileSync(policyLog, 'utf8')).toContain('bash touch d\n');
});
