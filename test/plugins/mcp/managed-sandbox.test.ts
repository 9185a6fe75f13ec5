/**
 * Managed settings that force the OS sandbox on cover stdio MCP servers: a server configured
 * without `sandbox: true` (the user's, or a trusted repository's .mcp.json) runs inside it as if
 * it said so, and where no sandbox can run it is not started, naming the managed file.
 */
import { afterEach, expect, test } from '@jest/globals';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { loadConfig } from '../../../config/load.js';
import { createMcpPlugin } from '../../../plugins/mcp/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import { EMPTY_MANAGED_POLICY, type ManagedPolicy } from '../../../types/managed.js';
import type { ToolMessage } from '../../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import type { ModelRequest } from '../../../types/provider.js';
import type { CommandSandbox } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools, type Step } from '../../support/memory-provider.js';
import { addServer, mcpProject, removeTempDirs, settled, type McpProject } from './helpers.js';

const WHERE = '/etc/mewcode/managed-settings.yaml:2:12';
const FORCED: ManagedPolicy = { ...EMPTY_MANAGED_POLICY, sandbox: { forceEnabled: { value: true, where: WHERE } } };
const MINIMAL_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'minimal-server.mjs');
const outside = path.join('/var/tmp', `mewcode-mcp-managed-${process.pid}.txt`);

afterEach(() => {
  removeTempDirs();
  rmSync(outside, { force: true });
});

const results = (request: ModelRequest | undefined): ToolMessage['results'] => {
  const last = request?.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};

const noSandboxHere: MewcodePlugin = definePlugin({
  name: 'sandbox-os',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CommandSandbox).toConstantValue(new OsCommandSandbox({ homeDir: '/nonexistent-home', warn: () => undefined, platform: 'aix', managed: FORCED }));
  }),
});

async function boot(project: McpProject, steps: Step[], sandbox: MewcodePlugin) {
  const trust = await createWorkspaceTrust({ projectRoot: project.root, homeDir: project.home, flag: true });
  const config = await loadConfig({ cwd: project.root, homeDir: project.home, trust });
  return bootKernel(steps, [outputLimits, sandbox, createMcpPlugin({ env: { PATH: process.env.PATH } })], { projectRoot: project.root, homeDir: project.home, config, trust, managed: FORCED });
}

test("forced sandbox: the user's server and a trusted repository's .mcp.json server run inside it without sandbox: true (writes outside the project fail)", async () => {
  const project = mcpProject({});
  copyFileSync(MINIMAL_SERVER, path.join(project.root, 'minimal-server.mjs'));
  const server = { command: process.execPath, args: [path.join(project.root, 'minimal-server.mjs')] };
  addServer(project, 'mine', { type: 'stdio', ...server });
  writeFileSync(path.join(project.root, '.mcp.json'), JSON.stringify({ mcpServers: { repo: server } }));
  const { kernel, model } = await boot(
    project,
    [useTools([call('mcp__mine__touch', { path: outside }), call('mcp__repo__touch', { path: outside }), call('mcp__mine__touch', { path: path.join(project.root, 'inside.txt') })]), say('ok')],
    sandboxOs,
  );
  try {
    const statuses = await settled(kernel);
    const sandboxActive = (await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe()).active;
    if (!sandboxActive && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return; // nothing to confine it with here
    expect(sandboxActive).toBe(true);
    expect(statuses.map((s) => [s.name, s.state]).sort()).toEqual([['mine', 'connected'], ['repo', 'connected']]);
    await runPrompt(kernel, 'touch');
    const [mine, repo, inside] = results(model.requests[1]);
    expect(mine!.content).toMatch(/EROFS|EACCES|read-only/);
    expect(repo!.content).toMatch(/EROFS|EACCES|read-only/);
    expect(existsSync(outside)).toBe(false);
    expect(inside!.content).toBe('touched');
  } finally {
    await kernel.shutdown();
  }
});

test('forced sandbox that cannot run here: a stdio server is not started, naming the managed file', async () => {
  const project = mcpProject({});
  copyFileSync(MINIMAL_SERVER, path.join(project.root, 'minimal-server.mjs'));
  addServer(project, 'mine', { type: 'stdio', command: process.execPath, args: [path.join(project.root, 'minimal-server.mjs')] });
  const { kernel } = await boot(project, [say('ok')], noSandboxHere);
  try {
    const [status] = await settled(kernel);
    expect(status).toMatchObject({ state: 'failed', lastError: expect.stringContaining(`managed settings force the OS sandbox on (${WHERE})`) });
  } finally {
    await kernel.shutdown();
  }
});
