/**
 * What the seed lacked (issue 11 item 6), against real servers: roots, progress, sampling only
 * with the user's allow, elicitation declined headless, the command sandbox for stdio servers,
 * and the search tool when the MCP definitions would take too much of the context window.
 */
import { afterEach, expect, test } from '@jest/globals';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { logDirectory } from '../../../plugins/mcp/server-log.js';
import type { CommandSandbox } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import type { AgentEvent } from '../../../types/events.js';
import type { ToolMessage } from '../../../types/messages.js';
import type { ModelRequest } from '../../../types/provider.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { runPrompt } from '../../support/boot.js';
import { addServer, bootMcp, EVERYTHING, FILESYSTEM, mcpProject, removeTempDirs, settled, tempDir } from './helpers.js';
import sandboxOs from '../../../plugins/sandbox-os/index.js';

afterEach(removeTempDirs);

const results = (request: ModelRequest | undefined): ToolMessage['results'] => {
  const last = request?.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};
const MINIMAL_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'minimal-server.mjs');
const everything = { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] };
/** Long: under a loaded test machine server-everything may need more than the default 1.5 s. */
const WAIT = { startup_wait_ms: 20_000 };

test('roots: server-filesystem is given the project root (it replaces its command-line directories with our roots)', async () => {
  const elsewhere = tempDir('mewcode-mcp-elsewhere-');
  const project = mcpProject({ mcp_servers: { fs: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, elsewhere] } } });
  const { kernel, model } = await bootMcp(project, [useTools([call('mcp__fs__list_allowed_directories', {})]), say('ok')]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'dirs');
    const [listed] = results(model.requests[1]);
    expect(listed!.isError).toBe(false);
    expect(listed!.content).toContain(project.root);
    expect(listed!.content).not.toContain(elsewhere);
  } finally {
    await kernel.shutdown();
  }
});

test('progress notifications become tool_progress events of the run', async () => {
  const project = mcpProject({ mcp: WAIT, mcp_servers: { everything } });
  const { kernel } = await bootMcp(project, [useTools([call('mcp__everything__trigger-long-running-operation', { duration: 1, steps: 3 })]), say('ok')]);
  try {
    await settled(kernel);
    const events = await runPrompt(kernel, 'long');
    const progress = events.filter((e): e is Extract<AgentEvent, { type: 'tool_progress' }> => e.type === 'tool_progress');
    // server-everything reports each step; the last one may race with the result.
    expect(progress.map((e) => [e.progress.progress, e.progress.total]).slice(0, 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(progress.length).toBeLessThanOrEqual(3);
    expect(progress[0]!.call.name).toBe('mcp__everything__trigger-long-running-operation');
  } finally {
    await kernel.shutdown();
  }
});

test('sampling: without the user\'s allow it is not offered; with mcp.sampling: allow the request reaches the active provider', async () => {
  const denied = mcpProject({ mcp: WAIT, mcp_servers: { everything } });
  const first = await bootMcp(denied, [say('x')]);
  try {
    await settled(first.kernel);
    expect(first.kernel.tools.get('mcp__everything__trigger-sampling-request')).toBeUndefined();
  } finally {
    await first.kernel.shutdown();
  }

  const allowed = mcpProject({ mcp: { ...WAIT, sampling: 'allow' }, mcp_servers: { everything } });
  const { kernel, model } = await bootMcp(allowed, [
    useTools([call('mcp__everything__trigger-sampling-request', { prompt: 'say hi', maxTokens: 10 })]),
    say('hi from the model'), // the sampling request
    say('done'),
  ]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'sample');
    const sampling = model.requests[1]!;
    expect(sampling.system.stable).toBe('You are a helpful test server.');
    expect(sampling.tools).toEqual([]);
    expect(JSON.stringify(sampling.messages)).toContain('say hi');
    const [result] = results(model.requests[2]);
    expect(result!.content).toContain('hi from the model');
    expect(readFileSync(kernelLog(allowed.home, allowed.root, 'everything'), 'utf8')).toContain('sampling/createMessage sent to memory');
  } finally {
    await kernel.shutdown();
  }
});

test('a project file cannot allow sampling', async () => {
  const project = mcpProject({ mcp: WAIT, mcp_servers: { everything } });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(project.root, '.mewcode.yaml'), 'mcp:\n  sampling: allow\n');
  const { kernel, reporter } = await bootMcp(project, [say('x')]);
  try {
    await settled(kernel);
    expect(kernel.tools.get('mcp__everything__trigger-sampling-request')).toBeUndefined();
    expect(reporter.warnings.join('\n')).toContain('sampling: allow is ignored outside your own configuration');
  } finally {
    await kernel.shutdown();
  }
});

test('elicitation is declined while no interactive UI can show the form', async () => {
  const project = mcpProject({ mcp: WAIT, mcp_servers: { everything } });
  const { kernel, model } = await bootMcp(project, [useTools([call('mcp__everything__trigger-elicitation-request', {})]), say('ok')]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'ask me');
    expect(results(model.requests[1])[0]!.content).toMatch(/declined/i);
  } finally {
    await kernel.shutdown();
  }
});

test('sandbox: true runs the server inside the OS sandbox (writes outside the project fail), or not at all where none can run', async () => {
  const project = mcpProject({});
  // Not under /tmp: the sandbox gives each session a private /tmp, where a write would succeed unseen.
  const outside = path.join('/var/tmp', `mewcode-mcp-sandbox-${process.pid}.txt`);
  // Inside the sandbox only the project and the system are visible (the repository may be in /tmp,
  // which the sandbox replaces): the server is a dependency-free script copied into the project.
  copyFileSync(MINIMAL_SERVER, path.join(project.root, 'minimal-server.mjs'));
  addServer(project, 'boxed', { type: 'stdio', command: process.execPath, args: [path.join(project.root, 'minimal-server.mjs')], sandbox: true });
  const { kernel, model } = await bootMcp(
    project,
    [useTools([call('mcp__boxed__touch', { path: outside }), call('mcp__boxed__touch', { path: path.join(project.root, 'inside.txt') })]), say('ok')],
    { PATH: process.env.PATH },
    [sandboxOs],
  );
  try {
    const [status] = await settled(kernel);
    const sandboxActive = (await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe()).active;
    if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') expect(sandboxActive).toBe(true);
    if (!sandboxActive) {
      expect(status).toMatchObject({ state: 'failed', lastError: expect.stringContaining('no OS sandbox can run here') });
      return;
    }
    expect(status!.state).toBe('connected');
    await runPrompt(kernel, 'touch');
    const [out, inside] = results(model.requests[1]);
    expect(out!.content).toMatch(/EROFS|EACCES|read-only/);
    expect(existsSync(outside)).toBe(false);
    expect(inside!.content).toBe('touched');
    expect(existsSync(path.join(project.root, 'inside.txt'))).toBe(true);
  } finally {
    await kernel.shutdown();
  }
});

function kernelLog(home: string, root: string, server: string): string {
  return path.join(logDirectory(home, root), `${server}.log`);
}
