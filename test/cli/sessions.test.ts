// Saved sessions through the built CLI (C1–C4): -p then --continue / --resume, `mewcode
// sessions`, a damaged transcript, a transcript that cannot be written, and kill -9 at many points
// of a multi-tool run, each followed by --continue whose request must be valid.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedTurn } from '../scripted-server/index.js';
import { anthropicEnv, prepareCli, removeTempDirs, scenario, singleJsonObject, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

interface AnthropicBody {
  messages: { role: string; content: { type: string; id?: string; tool_use_id?: string; is_error?: boolean; content?: string; text?: string }[] }[];
}

/** Roles alternate from a user message, and every tool_use is answered in the next message. */
function expectValidHistory(body: AnthropicBody): void {
  const { messages } = body;
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    if (index > 0) expect(message.role).not.toBe(messages[index - 1]!.role);
    const calls = message.role === 'assistant' ? message.content.filter((block) => block.type === 'tool_use').map((block) => block.id) : [];
    if (calls.length === 0) return;
    const answered = (messages[index + 1]?.content ?? []).filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
    expect(answered).toEqual(calls);
  });
}

describe('continue and resume', () => {
  test.concurrent('-p, then --continue -p: the second request carries the first exchange, in the same session', async () => {
    await scenario([{ text: 'Noted: kiwi.' }, { text: 'The word was kiwi.' }], async (s) => {
      const first = await s.run(['-p', 'remember the word kiwi', '--output-format', 'json']);
      expect(first.code).toBe(0);
      const id = singleJsonObject(first.stdout).session_id as string;
      const second = await s.run(['--continue', '-p', 'what was the word?', '--output-format', 'json']);
      expect(second.code).toBe(0);
      expect(singleJsonObject(second.stdout).session_id).toBe(id);
      const texts = (s.requests[1]!.body as AnthropicBody).messages.map((m) => `${m.role}: ${m.content.map((b) => b.text ?? '').join('')}`);
      expect(texts).toEqual(['user: remember the word kiwi', 'assistant: Noted: kiwi.', 'user: what was the word?']);

      const listed = await s.run(['sessions']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^${id}  just now  x  4 msg  remember the word kiwi\\n`));
    });
  });

  test.concurrent('--resume <id> picks that session; an unknown id, nothing to continue and both flags are clear errors (exit 2)', async () => {
    await scenario([{ text: 'one' }, { text: 'two' }, { text: 'resumed' }], async (s) => {
      const a = singleJsonObject((await s.run(['-p', 'session A', '--output-format', 'json'])).stdout).session_id as string;
      await s.run(['-p', 'session B']);
      const resumed = await s.run(['-r', a, '-p', 'back to A']);
      expect(resumed.code).toBe(0);
      expect((s.requests[2]!.body as AnthropicBody).messages[0]!.content[0]!.text).toBe('session A');

      const unknown = await s.run(['--resume', '20200101-000000-dead', '-p', 'x']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('mewcode: cannot continue the session: no session 20200101-000000-dead in this project');
      const both = await s.run(['-c', '-r', a, '-p', 'x']);
      expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--continue and --resume cannot be used together')]);
      expect(s.requests).toHaveLength(3);
    });
    await scenario([], async (s) => {
      const none = await s.run(['--continue', '-p', 'x']);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain(`mewcode: no saved session to continue in ${s.cwd}`);
    });
  });
});

describe('damage and failures', () => {
  test.concurrent('a transcript cut off by a crash: damaged lines skipped with a warning, the unanswered call answered, the next request valid', async () => {
    await scenario([{ text: 'Carrying on.' }], async (s) => {
      const id = '20261201-101010-beef';
      const dir = join(s.cwd, '.mewcode', 'sessions', id);
      mkdirSync(dir, { recursive: true });
      // Started on this machine: the CLI resumes only sessions its user's ~/.mewcode lists.
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'sessions.jsonl'), `${JSON.stringify({ v: 1, root: s.cwd, id })}\n`);
      const record = (message: object): string => JSON.stringify({ v: 1, type: 'message', time: new Date().toISOString(), message });
      writeFileSync(
        join(dir, 'conversation.jsonl'),
        [
          record({ role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }),
          '{"v":1,"type":"message","message":{"role":"ass',
          record({ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }], toolCalls: [{ id: 'toolu_cut', name: 'read_file', input: '{"path":"a.txt"}' }] }),
          '{"v":1,"type":"message","time":"2026-12-01T10:10:10.000Z","message":{"role":"to',
        ].join('\n'),
      );
      const r = await s.run(['--continue', '-p', 'go on']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`session: ${join(dir, 'conversation.jsonl')}: 1 damaged line skipped; its last line was cut off mid-write`);
      const body = s.requests[0]!.body as AnthropicBody;
      expectValidHistory(body);
      const result = body.messages[2]!.content.find((block) => block.type === 'tool_result');
      expect(result).toMatchObject({ tool_use_id: 'toolu_cut', is_error: true, content: expect.stringMatching(/^No result was recorded for this call: the session was interrupted/) });
    });
  });

  test.concurrent('a transcript that cannot be written is one warning; the run still answers', async () => {
    await scenario([{ text: 'Answered anyway.' }], async (s) => {
      mkdirSync(join(s.cwd, '.mewcode'));
      writeFileSync(join(s.cwd, '.mewcode', 'sessions'), 'not a directory');
      const r = await s.run(['-p', 'hello']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('Answered anyway.\n');
      expect(r.stderr.match(/session: this session is not being saved: /g)).toHaveLength(1);
    });
  });
});

describe('kill -9 at any point', () => {
  /**
   * Where to kill, relative to the run's progress so a slow machine changes nothing: `afterRequest`
   * = the number of model requests the server has seen (0: shortly after spawn, before any), plus
   * a delay that lands in the middle of streaming, tool execution or the append that follows.
   */
  const KILL_POINTS = [
    { afterRequest: 0, delayMs: 10 },
    { afterRequest: 1, delayMs: 0 },
    { afterRequest: 1, delayMs: 25 },
    { afterRequest: 2, delayMs: 5 },
    { afterRequest: 2, delayMs: 40 },
    { afterRequest: 3, delayMs: 15 },
    { afterRequest: 4, delayMs: 0 },
    { afterRequest: 4, delayMs: 60 },
    { afterRequest: 5, delayMs: 30 },
    { afterRequest: 6, delayMs: 2 },
  ];
  const TOOL_TURNS: ScriptedTurn[] = [1, 2, 3, 4, 5].map((n) => ({ text: `Step ${n}.`, chunkDelayMs: 10, toolCalls: [{ id: `toolu_${n}`, name: 'read_file', input: { path: 'notes.txt' } }] }));

  test('every interrupted session continues with a valid request', async () => {
    const bin = await prepareCli();
    for (const point of KILL_POINTS) {
      const cwd = tempDir('mewcode-kill-cwd-');
      const home = tempDir('mewcode-kill-home-');
      writeFileSync(join(cwd, 'notes.txt'), 'some notes\n');
      let kill = (): void => undefined;
      const killed = await startScriptedServer({
        turns: [...TOOL_TURNS, { text: 'All done.', chunkDelayMs: 10 }],
        onRequest: () => {
          if (killed.requests.length === point.afterRequest) setTimeout(() => kill(), point.delayMs);
        },
      });
      try {
        const child = spawn(process.execPath, [bin, '-p', 'read notes.txt five times', '--permission-mode', 'bypassPermissions'], { cwd, env: anthropicEnv(killed, home), stdio: 'ignore' });
        kill = () => child.kill('SIGKILL');
        if (point.afterRequest === 0) setTimeout(kill, point.delayMs);
        const signal = await new Promise((resolve) => child.once('close', (_code, how) => resolve(how)));
        expect([point, signal]).toEqual([point, 'SIGKILL']); // it really died mid-run
      } finally {
        await killed.close();
      }
      const next = await startScriptedServer({ turns: [...TOOL_TURNS, { text: 'Resumed.' }] });
      try {
        const r = await runTo(bin, ['--continue', '-p', 'please continue', '--permission-mode', 'bypassPermissions'], cwd, anthropicEnv(next, home));
        if (point.afterRequest === 0) {
          // Killed before its first request: nothing may have been saved yet, and then there is nothing to continue.
          const sessions = join(cwd, '.mewcode', 'sessions');
          const saved = existsSync(sessions) && readdirSync(sessions).some((name) => existsSync(join(sessions, name, 'conversation.jsonl')));
          if (!saved) {
            expect([point, r.code, r.stderr]).toEqual([point, 2, expect.stringContaining('no saved session to continue')]);
            continue;
          }
        }
        // The prompt is on disk before the first request is sent, so every later point resumes.
        expect([point, r.code, r.stderr]).toEqual([point, 0, expect.any(String)]);
        expectValidHistory(next.requests[0]!.body as AnthropicBody);
      } finally {
        await next.close();
      }
    }
  }, 120_000);
});

function runTo(bin: string, args: string[], cwd: string, env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}
