// The executable entry, bundled the way the build does it and run in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { buildSync } from 'esbuild';
import OpenAI from 'openai';

const here = dirname(fileURLToPath(import.meta.url));
let dir: string;
let bundle: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scripted-server-cli-'));
  bundle = join(dir, 'scripted-server.js');
  buildSync({
    entryPoints: [join(here, '../scripted-server/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /^scripted model server listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (match) resolve({ child, url: match[1]!, stdout: () => out });
    });
    child.stderr!.on('data', (data: Buffer) => (err += data.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test('serves the script to both SDKs, logs requests as JSON lines, stops on SIGTERM', async () => {
  const script = join(dir, 'turns.json');
  const log = join(dir, 'requests.jsonl');
  writeFileSync(
    script,
    JSON.stringify([{ text: 'from the cli' }, { toolCalls: [{ name: 'ls', input: { path: '.' } }] }]),
  );
  const { child, url, stdout } = await start(['--script', script, '--log', log]);
  try {
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 });
    const message = await anthropic.messages
      .stream({ model: 'claude-cli', max_tokens: 5, messages: [{ role: 'user', content: 'a' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'from the cli' }]);

    const openai = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions
      .stream({ model: 'gpt-cli', messages: [{ role: 'user', content: 'b' }] })
      .finalChatCompletion();
    expect(completion.choices[0]!.message.tool_calls![0]!.function).toEqual({ name: 'ls', arguments: '{"path":"."}' });

    const lines = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.protocol, line.body.model])).toEqual([
      ['anthropic', 'claude-cli'],
      ['openai', 'gpt-cli'],
    ]);
    expect(lines[0].body.messages).toEqual([{ role: 'user', content: 'a' }]);
  } finally {
    const exited = exitCode(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  expect(stdout()).toBe(`scripted model server listening on ${url}\n`);
});

test('honours --port and accepts {"turns": [...]}', async () => {
  const script = join(dir, 'wrapped.json');
  writeFileSync(script, JSON.stringify({ turns: [] }));
  const probe = await start(['--script', script]);
  const port = Number(new URL(probe.url).port);
  const probeExit = exitCode(probe.child);
  probe.child.kill('SIGINT');
  expect(await probeExit).toBe(0);

  const { child, url } = await start(['--script', script, '--port', String(port)]);
  expect(url).toBe(`http://127.0.0.1:${port}`);
  const exited = exitCode(child);
  child.kill('SIGINT');
  expect(await exited).toBe(0);
});

test('a missing --script fails with a usage message', async () => {
  await expect(start([])).rejects.toThrow(/--script is required/);
});
