/**
 * The MCP plugin in a real kernel, against real stdio servers: server-everything, and a fake
 * server written for these tests (fixtures/fake-server.mjs) that hangs, crashes or is slow.
 * Processes are checked by PID: nothing may outlive its connection or the kernel.
 */
import { afterEach, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { call, say, useTools } from '../../support/memory-provider.js';
import { doneEvent, runPrompt } from '../../support/boot.js';
import { addServer, alive, bootMcp, EVERYTHING, fakePids, fakeServer, mcpProject, mcpStatus, removeTempDirs, settled, waitFor } from './helpers.js';
import type { ToolMessage } from '../../../types/messages.js';
import type { ModelRequest } from '../../../types/provider.js';
import type { Kernel } from '../../../kernel/index.js';

afterEach(removeTempDirs);

const results = (request: ModelRequest | undefined): ToolMessage['results'] => {
  const last = request?.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};

test('server-everything over stdio: its tools are offered on the first request, sorted by full name, and a call reaches it', async () => {
  // A long wait: under a loaded test machine server-everything may need more than the default 1.5 s.
  const project = mcpProject({ mcp: { startup_wait_ms: 20_000 }, mcp_servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
  const { kernel, model } = await bootMcp(project, [useTools([call('mcp__everything__get-sum', { a: 2, b: 40 }), call('mcp__everything__get-tiny-image', {})]), say('done')]);
  try {
    const events = await runPrompt(kernel, 'add');
    expect(doneEvent(events).reason).toBe('completed');
    const names = model.requests[0]!.tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'));
    expect(names).toContain('mcp__everything__echo');
    expect(names).toEqual([...names].sort());
    // Nothing was announced as a change: the tools joined before the first turn.
    expect(events.filter((e) => e.type === 'notice' && e.message.includes('tools changed'))).toEqual([]);
    const [sum, image] = results(model.requests[1]);
    expect(sum).toMatchObject({ isError: false, content: 'The sum of 2 and 40 is 42.' });
    expect(image!.images).toEqual([expect.objectContaining({ type: 'image', mediaType: 'image/png', data: expect.stringMatching(/^iVBOR/) })]);
    const status = mcpStatus(kernel).find((s) => s.name === 'everything')!;
    expect(status).toMatchObject({ state: 'connected', transport: 'stdio', toolCount: expect.any(Number) });
    expect(status.toolCount).toBeGreaterThanOrEqual(13);
    // stderr went to the log file, not the terminal.
    expect(readFileSync(status.logPath!, 'utf8')).toContain('Starting default (STDIO) server');
  } finally {
    await kernel.shutdown();
  }
});

test('a server that never answers initialize delays the first request by at most startup_wait_ms, then is abandoned and killed at its connect timeout', async () => {
  const project = mcpProject({ mcp: { startup_wait_ms: 300 } });
  addServer(project, 'hung', fakeServer(project, { connect_timeout_ms: 1500 }, { FAKE_MODE: 'hang' }));
  const started = performance.now();
  const { kernel, model, reporter } = await bootMcp(project, [say('hello')]);
  try {
    await runPrompt(kernel, 'hi');
    const waited = performance.now() - started;
    expect(model.requests).toHaveLength(1);
    expect(waited).toBeLessThan(300 + 1000); // the wait, plus boot and the run itself
    expect(reporter.notices.join('\n')).toContain('still connecting to hung after 300 ms');
    await waitFor(() => fakePids(project).length === 2, 5000, 'the fake server to start');
    const [pid, grandchild] = fakePids(project) as [number, number];
    const [status] = await settled(kernel);
    expect(status).toMatchObject({ name: 'hung', state: 'failed' });
    expect(status!.lastError).toContain('within 1500 ms');
    expect(status!.lastError).toContain('fake server'); // the end of its stderr is quoted
    await waitFor(() => !alive(pid) && !alive(grandchild), 3000, 'the abandoned server and its child to die');
  } finally {
    await kernel.shutdown();
  }
});

test('a server that exits mid-call gives that call an error result, and is reconnected on the next use', async () => {
  const project = mcpProject({});
  addServer(project, 'fake', fakeServer(project));
  const { kernel, model } = await bootMcp(project, [
    useTools([call('mcp__fake__crash', {})]),
    useTools([call('mcp__fake__echo', { text: 'again' })]),
    say('ok'),
  ]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'crash it');
    const [crashed] = results(model.requests[1]);
    expect(crashed!.isError).toBe(true);
    expect(crashed!.content).toMatch(/MCP tool crash on server "fake" failed: .*(closed|Connection)/i);
    const [echoed] = results(model.requests[2]);
    expect(echoed).toMatchObject({ isError: false, content: 'echo: again' });
    const pids = fakePids(project);
    expect(pids).toHaveLength(4); // two starts, each with its grandchild
    await waitFor(() => !alive(pids[0]!) && !alive(pids[1]!), 3000, 'the crashed server and its child to be gone');
  } finally {
    await kernel.shutdown();
  }
});

test('a call past its timeout_ms is an error result naming the timeout; a per-tool timeout overrides the server one', async () => {
  const project = mcpProject({});
  addServer(project, 'fake', fakeServer(project, { timeout_ms: 60_000, tools: { slow: { timeout_ms: 300 } } }));
  const { kernel, model } = await bootMcp(project, [useTools([call('mcp__fake__slow', {})]), say('ok')]);
  try {
    await settled(kernel);
    const started = performance.now();
    await runPrompt(kernel, 'slow');
    expect(performance.now() - started).toBeLessThan(3000);
    const [slow] = results(model.requests[1]);
    expect(slow).toMatchObject({ isError: true, content: expect.stringContaining('did not answer slow within 300 ms') });
  } finally {
    await kernel.shutdown();
  }
});

test('shutdown closes every server and leaves no process of theirs behind', async () => {
  const project = mcpProject({});
  addServer(project, 'one', fakeServer(project));
  addServer(project, 'two', fakeServer(project));
  const { kernel } = await bootMcp(project, [say('x')]);
  const statuses = await settled(kernel);
  expect(statuses.map((s) => s.state)).toEqual(['connected', 'connected']);
  const pids = fakePids(project);
  expect(pids).toHaveLength(4);
  expect(pids.every(alive)).toBe(true);
  const started = performance.now();
  await kernel.shutdown();
  expect(performance.now() - started).toBeLessThan(5_000);
  await waitFor(() => pids.every((pid) => !alive(pid)), 3000, 'every server process to end');
});

test('a tool registered after initialize (tools/list_changed) joins on the next model turn', async () => {
  const project = mcpProject({});
  addServer(project, 'fake', fakeServer(project, {}, { FAKE_LATE_TOOL: '1' }));
  let booted: Kernel | undefined;
  const { kernel, model } = await bootMcp(project, [
    async function* () {
      // The first request's tools are fixed by now: the server registers its new tool, and the
      // turn ends once the client has taken in its tools/list_changed.
      const toolsBefore = mcpStatus(booted!)[0]!.toolCount;
      process.kill(fakePids(project)[0]!, 'SIGUSR2');
      await waitFor(() => mcpStatus(booted!)[0]!.toolCount === toolsBefore + 1, 10_000, 'the late tool to be listed');
      yield* useTools([call('mcp__fake__echo', { text: 'x' })]);
    },
    useTools([call('mcp__fake__late', {})]),
    say('ok'),
  ]);
  booted = kernel;
  try {
    await settled(kernel);
    await runPrompt(kernel, 'go');
    expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain('mcp__fake__late');
    expect(model.requests[1]!.tools.map((t) => t.name)).toContain('mcp__fake__late');
    expect(results(model.requests[2])[0]).toMatchObject({ isError: false, content: 'late ran' });
  } finally {
    await kernel.shutdown();
  }
});

test('a remote server that restarted (our session forgotten) is reconnected and the call goes through', async () => {
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const free = (probe.address() as { port: number }).port;
      probe.close(() => resolve(free));
    });
  });
  const start = () =>
    new Promise<ReturnType<typeof spawn>>((resolve, reject) => {
      const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      let seen = '';
      const onData = (chunk: Buffer): void => {
        seen += chunk.toString();
        if (/listening on port/i.test(seen)) resolve(child);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
    });
  let server = await start();
  const project = mcpProject({ mcp_servers: { remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } } });
  const { kernel, model } = await bootMcp(project, [useTools([call('mcp__remote__echo', { message: 'after restart' })]), say('ok')]);
  try {
    expect((await settled(kernel))[0]!.state).toBe('connected');
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
    server = await start();
    await runPrompt(kernel, 'echo');
    expect(results(model.requests[1])[0]).toMatchObject({ isError: false, content: 'Echo: after restart' });
  } finally {
    await kernel.shutdown();
    server.kill('SIGKILL');
  }
});
