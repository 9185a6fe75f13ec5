/**
 * MCP through the built CLI against the scripted model server and real MCP servers
 * (server-everything over stdio, Streamable HTTP and legacy SSE; the fake server of
 * test/plugins/mcp/fixtures). What the model receives is read from the scripted server's log.
 */
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import { alive, EVERYTHING, FAKE_SERVER, fakePids, waitFor } from '../plugins/mcp/helpers.js';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';

afterEach(removeTempDirs);

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

const everythingStdio = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } };

/** The project's .mcp.json; the user's config waits long for servers (a loaded test machine is slow to start them). */
function writeMcpJson(s: Scenario, content: unknown): void {
  writeFileSync(path.join(s.cwd, '.mcp.json'), JSON.stringify(content));
  userConfig(s, { mcp: { startup_wait_ms: 20_000 } });
}

function userConfig(s: Scenario, config: Record<string, unknown>): void {
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), stringify(config));
}

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);

test('acceptance: with server-everything in .mcp.json and --trust-project, the first turn calls its tools and the results (an image and a resource too) reach the model', async () => {
  await scenario(
    [
      {
        toolCalls: [
          { id: 'c1', name: 'mcp__everything__echo', input: { message: 'hi there' } },
          { id: 'c2', name: 'mcp__everything__get-tiny-image', input: {} },
          { id: 'c3', name: 'mcp__everything__get-resource-reference', input: { resourceType: 'Text', resourceId: 1 } },
        ],
      },
      { text: 'done' },
    ],
    async (s) => {
      writeMcpJson(s, everythingStdio);
      const result = await s.run(['-p', 'use the tools', '--trust-project', '--allowedTools', 'mcp__everything']);
      expect(result.stderr).not.toContain('Starting default'); // the server's stderr went to its log
      expect(result.code).toBe(0);
      expect(toolNames(s.requests[0]!.body)).toContain('mcp__everything__echo');
      const results = s.requests[1]!.body.messages.at(-1).content;
      expect(results[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'c1', content: 'Echo: hi there', is_error: false });
      expect(results[1].content).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'image', source: expect.objectContaining({ type: 'base64', media_type: 'image/png' }) })]),
      );
      expect(results[2]).toMatchObject({ tool_use_id: 'c3', is_error: false });
      expect(results[2].content).toMatch(/Resource <demo:\/\/resource\/dynamic\/text\/1> \(text\/plain\):\n/);
    },
  );
});

test('OpenAI: an image a tool returned follows the tool messages as an image part of a user message', async () => {
  await scenario(
    [{ toolCalls: [{ id: 'c1', name: 'mcp__everything__get-tiny-image', input: {} }] }, { text: 'done' }],
    async (s) => {
      writeMcpJson(s, everythingStdio);
      const result = await s.run(['-p', 'image', '--trust-project']);
      expect(result.code).toBe(0);
      const messages: any[] = s.requests[1]!.body.messages;
      const toolIndex = messages.findIndex((m) => m.role === 'tool');
      expect(messages[toolIndex].content).toContain('an image follows in the next message');
      const next = messages[toolIndex + 1];
      expect(next.role).toBe('user');
      expect(next.content).toEqual([
        { type: 'text', text: 'Image returned by tool call c1:' },
        { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
      ]);
    },
    'openai',
  );
});

test('an untrusted project: .mcp.json servers are not started, and the notice says how to trust them', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    writeMcpJson(s, everythingStdio);
    const result = await s.run(['-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('.mcp.json: mcpServers');
    expect(result.stderr).toContain('--trust-project');
    expect(toolNames(s.requests[0]!.body).filter((n) => n.startsWith('mcp__'))).toEqual([]);
  });
});

test('permission rules speak mcp__server__tool: a deny rule for the whole server stops the call, over an allow', async () => {
  await scenario(
    [{ toolCalls: [{ id: 'c1', name: 'mcp__everything__echo', input: { message: 'x' } }] }, { text: 'done' }],
    async (s) => {
      writeMcpJson(s, everythingStdio);
      const result = await s.run(['-p', 'echo', '--trust-project', '--allowedTools', 'mcp__everything', '--disallowedTools', 'mcp__everything__*']);
      expect(result.code).toBe(0);
      const [denied] = s.requests[1]!.body.messages.at(-1).content;
      expect(denied.is_error).toBe(true);
      expect(denied.content).toMatch(/denied/i);
    },
  );
});

test('--mcp-config adds servers for this run without workspace trust: a file and inline JSON, and the model calls their tools; a configured server of the same name wins', async () => {
  await scenario(
    [
      { toolCalls: [{ id: 'c1', name: 'mcp__everything__echo', input: { message: 'from the flag' } }] },
      { text: 'done' },
    ],
    async (s) => {
      userConfig(s, { mcp: { startup_wait_ms: 20_000 }, mcp_servers: { mine: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
      // The untrusted project's own .mcp.json is still not started.
      writeFileSync(path.join(s.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
      writeFileSync(path.join(s.cwd, 'servers.json'), JSON.stringify(everythingStdio));
      const inline = JSON.stringify({ mcpServers: { mine: { command: 'never-started' } } });
      const result = await s.run(['-p', 'echo', '--mcp-config', 'servers.json', '--mcp-config', inline, '--allowedTools', 'mcp__everything']);
      expect(result.code).toBe(0);
      const names = toolNames(s.requests[0]!.body).filter((n) => n.startsWith('mcp__'));
      expect(names).toContain('mcp__everything__echo');
      expect(names).toContain('mcp__mine__echo');
      expect(names.some((n) => n.startsWith('mcp__repo__'))).toBe(false);
      expect(result.stderr).toContain('mcp: --mcp-config: MCP server "mine" is not used: the configured server of that name');
      const [echoed] = s.requests[1]!.body.messages.at(-1).content;
      expect(echoed).toMatchObject({ type: 'tool_result', tool_use_id: 'c1', content: 'Echo: from the flag', is_error: false });
    },
  );
});

test('--mcp-config: a file that cannot be used is exit 2 naming it, before any model request; a bad entry is skipped naming the server and key', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const missing = await s.run(['-p', 'hi', '--mcp-config', 'nowhere.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--mcp-config ${path.join(s.cwd, 'nowhere.json')}: cannot be read`);
    writeFileSync(path.join(s.cwd, 'broken.json'), '{"mcpServers": ');
    const broken = await s.run(['-p', 'hi', '--mcp-config', 'broken.json']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`--mcp-config ${path.join(s.cwd, 'broken.json')}: not valid JSON`);
    expect(s.requests).toHaveLength(0);

    writeFileSync(path.join(s.cwd, 'bad-entry.json'), JSON.stringify({ mcpServers: { nocmd: { type: 'stdio', command: 'x', args: 'x' } } }));
    const skipped = await s.run(['-p', 'hi', '--mcp-config', 'bad-entry.json']);
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(`${path.join(s.cwd, 'bad-entry.json')}: MCP server "nocmd" args: expected a list of strings; the server is skipped`);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything in `mode` (streamableHttp | sse) on a free port; resolves once it listens. */
async function everythingOverHttp(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (/(listening|running) on port/i.test(seen)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${seen}`)));
  });
  return port;
}

test('Streamable HTTP: a remote server started on a free port serves a call; one that speaks only legacy SSE is reached by the fallback', async () => {
  const http = await everythingOverHttp('streamableHttp');
  const sse = await everythingOverHttp('sse');
  await scenario(
    [{ toolCalls: [{ id: 'c1', name: 'mcp__remote__get-sum', input: { a: 1, b: 2 } }, { id: 'c2', name: 'mcp__legacy__get-sum', input: { a: 3, b: 4 } }] }, { text: 'done' }],
    async (s) => {
      userConfig(s, {
        mcp: { startup_wait_ms: 20_000 },
        mcp_servers: { remote: { type: 'http', url: `http://127.0.0.1:${http}/mcp` }, legacy: { type: 'http', url: `http://127.0.0.1:${sse}/sse` } },
      });
      const result = await s.run(['-p', 'sum', '--allowedTools', 'mcp__remote', '--allowedTools', 'mcp__legacy']);
      expect(result.code).toBe(0);
      const results = s.requests[1]!.body.messages.at(-1).content;
      expect(results.map((r: any) => r.content)).toEqual(['The sum of 1 and 2 is 3.', 'The sum of 3 and 4 is 7.']);
      const list = await s.run(['mcp', 'list']);
      expect(list.stdout).toMatch(/^legacy {2}connected {2}sse {2}\d+ tools$/m);
      expect(list.stdout).toMatch(/^remote {2}connected {2}http {2}\d+ tools$/m);
    },
  );
});

/** The CLI as a child we can signal; resolves once the fake server and its child are up. */
async function startWithFakeServer(s: Scenario, pidFile: string): Promise<ChildProcess> {
  // A loaded machine can take longer than the default 1.5 s wait to start the server; without its
  // tools the model's call would fail at once and the turn would end before the test can signal.
  userConfig(s, { mcp: { startup_wait_ms: 20_000 }, mcp_servers: { fake: { type: 'stdio', command: process.execPath, args: [FAKE_SERVER, pidFile] } } });
  const bin = await prepareCli();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.env)) if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [bin, '-p', 'slow', '--allowedTools', 'mcp__fake'], { cwd: s.cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
  children.push(child);
  child.stdin!.end();
  await waitFor(() => fakePids({ pidFile } as never).length === 2, 10_000, 'the fake server to start');
  return child;
}

const slowTurn = [{ toolCalls: [{ id: 'c1', name: 'mcp__fake__slow', input: {} }] }, { text: 'done' }];

for (const [how, signal] of [
  ['Ctrl+C (SIGINT)', 'SIGINT'],
  ['a crash MewCode cannot catch (SIGKILL)', 'SIGKILL'],
] as const) {
  test(`no MCP server process outlives MewCode after ${how} (checked by PID, the server's own child included)`, async () => {
    await scenario(slowTurn, async (s) => {
      const pidFile = path.join(s.cwd, 'pids.txt');
      const child = await startWithFakeServer(s, pidFile);
      await waitFor(() => s.requests.length >= 1, 20_000, 'the first request');
      expect(toolNames(s.requests[0]!.body)).toContain('mcp__fake__slow');
      const pids = fakePids({ pidFile } as never);
      expect(pids.every(alive)).toBe(true);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
      await waitFor(() => pids.every((pid) => !alive(pid)), 5_000, `the server's processes to end after ${signal}`);
    });
  });
}

test('no MCP server process outlives a normal exit', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const pidFile = path.join(s.cwd, 'pids.txt');
    const child = await startWithFakeServer(s, pidFile);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const pids = fakePids({ pidFile } as never);
    expect(pids).toHaveLength(2);
    await waitFor(() => pids.every((pid) => !alive(pid)), 3_000, 'the server processes to end');
  });
});

test('mewcode mcp list: a server that fails is listed with its error and log, and the exit code is 1', async () => {
  await scenario([], async (s) => {
    userConfig(s, { mcp_servers: { broken: { type: 'stdio', command: 'mewcode-no-such-server', env: { TOKEN: '${NOT_SET_ANYWHERE}' } } } });
    const list = await s.run(['mcp', 'list']);
    expect(list.code).toBe(1);
    expect(list.stdout).toMatch(/^broken {2}failed {2}stdio {2}0 tools$/m);
    expect(list.stdout).toContain('unset variables: NOT_SET_ANYWHERE');
    expect(list.stdout).toMatch(/error: .*mewcode-no-such-server/);
    expect(list.stdout).toMatch(/log: ~\/\.mewcode\/logs\/mcp\/.*\/broken\.log/);
  });
});

test('mewcode mcp list: a server that answers initialize with an error is listed as failed (the command does not end early with nothing printed)', async () => {
  await scenario([], async (s) => {
    const server = path.join(s.home, 'refusing.mjs');
    writeFileSync(
      server,
      `import { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin })) {\n  const message = JSON.parse(line);\n  if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'not today' } }) + '\\n');\n}\n`,
    );
    userConfig(s, { mcp_servers: { refusing: { type: 'stdio', command: process.execPath, args: [server] } } });
    const list = await s.run(['mcp', 'list']);
    expect(list.stdout).toMatch(/^refusing {2}failed {2}stdio {2}0 tools$/m);
    expect(list.stdout).toContain('not today');
    expect(list.code).toBe(1);
  });
});

test('--strict-mcp-config: only --mcp-config\'s servers start; the configured ones and ~/.claude.json\'s do not', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    userConfig(s, { mcp: { startup_wait_ms: 20_000 }, mcp_servers: { mine: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
    writeFileSync(path.join(s.home, '.claude.json'), JSON.stringify({ mcpServers: { fromclaude: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    const result = await s.run(['-p', 'hi', '--strict-mcp-config', '--mcp-config', JSON.stringify(everythingStdio)]);
    expect(result.code).toBe(0);
    const names = toolNames(s.requests[0]!.body).filter((n) => n.startsWith('mcp__'));
    expect(names).toContain('mcp__everything__echo');
    expect(names.some((n) => n.startsWith('mcp__mine__') || n.startsWith('mcp__fromclaude__'))).toBe(false);
  });
});
