/**
 * `mewcode acp` where a turn or a session ends unusually: a session loaded again while this agent
 * has it open keeps being saved; a call asked about when its turn was cancelled is failed, not
 * left pending; an answer cut at the output token limit ends `max_tokens`; a message over the
 * size the agent reads is answered with an error and the connection goes on.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { prepareCli, REPO_ROOT, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, startAcp, textOf, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const TIMEOUT = 60_000;

function savedTexts(cwd: string, id: string): string {
  return readFileSync(join(cwd, '.mewcode', 'sessions', id, 'conversation.jsonl'), 'utf8');
}

test(
  'session/load of a session this agent has open (an editor re-opening a thread): the fresh kernel saves it, nothing is left unsaved',
  async () => {
    await scenario([{ text: 'First answer.' }, { text: 'After the reload.' }, { text: 'Again.' }], async (s) => {
      let stderr = '';
      let id = '';
      await withAgent(s, async (client) => {
        id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'one')).stopReason).toBe('end_turn');
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        expect((await promptText(client, id, 'two-after-reload')).stopReason).toBe('end_turn');
        expect(savedTexts(s.cwd, id)).toContain('two-after-reload');
        // Twice: the kernel that replaced the first is replaced in turn.
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        expect((await promptText(client, id, 'three-after-second-reload')).stopReason).toBe('end_turn');
        expect(savedTexts(s.cwd, id)).toContain('three-after-second-reload');
        stderr = client.stderr();
      });
      expect(stderr).not.toContain('not being saved');
      // After the agent ended: the reloaded session's answers are in its transcript.
      expect(savedTexts(s.cwd, id)).toContain('After the reload.');
    });
  },
  TIMEOUT,
);

/** The fake MCP server's processes still alive (it appends "<pid> " per start to `file`). */
function aliveServers(file: string): number[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => Number(line.split(' ')[0]))
    .filter((pid) => {
      if (!pid) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
}

test(
  'two session/loads of an open session at once: one kernel stays (one MCP server alive), both are answered, the next prompt is saved and replayed',
  async () => {
    const fakeServer = join(REPO_ROOT, 'test', 'plugins', 'mcp', 'fixtures', 'fake-server.mjs');
    await scenario([{ text: 'First answer.' }, { text: 'After the double load.' }], async (s) => {
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'config.yaml'), 'mcp:\n  startup_wait_ms: 20000\n');
      const pids = join(s.home, 'pids');
      const mcpServers: acp.McpServer[] = [{ name: 'fake', command: process.execPath, args: [fakeServer, pids], env: [{ name: 'FAKE_NO_CHILD', value: '1' }] }];
      let id = '';
      await withAgent(s, async (client) => {
        await client.initialize();
        id = (await client.agent.request('session/new', { cwd: s.cwd, mcpServers })).sessionId;
        expect((await promptText(client, id, 'one')).stopReason).toBe('end_turn');
        const both = await Promise.allSettled([
          client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers }),
          client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers }),
        ]);
        expect(both.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
        expect((await promptText(client, id, 'two-after-double-load')).stopReason).toBe('end_turn');
        // The servers of shut-down kernels stop, the open kernel's starts: given a moment, one is left.
        const deadline = Date.now() + 10_000;
        while (aliveServers(pids).length !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(aliveServers(pids)).toHaveLength(1);
        expect(savedTexts(s.cwd, id)).toContain('two-after-double-load');
        expect(client.stderr()).not.toContain('not being saved');
      });
      expect(aliveServers(pids)).toEqual([]);
      await withAgent(s, async (client) => {
        await client.initialize();
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        expect(textOf(client.updatesOf(id), 'user_message_chunk')).toContain('two-after-double-load');
      });
    });
  },
  TIMEOUT,
);

test(
  'a background sub-agent\'s call asked about after its turn ended belongs to it: a later turn does not fail it, and nothing follows a final status',
  async () => {
    const turns = [
      { toolCalls: [{ id: 'ag1', name: 'agent', input: { description: 'bg writer', prompt: 'write sub.txt', run_in_background: true } }] },
      { text: 'main done', delayMs: 300 },
      { toolCalls: [{ id: 'sw1', name: 'write_file', input: { file_path: 'sub.txt', content: 'SUB\n' } }], delayMs: 800 },
      { text: 'sub report' },
      { text: 'second answer' },
      { text: 'x' },
      { text: 'y' },
    ];
    await scenario(turns, async (s) => {
      await withAgent(s, async (client) => {
        let allow: (answer: acp.RequestPermissionResponse) => void = () => undefined;
        client.answer.permission = () => new Promise((resolve) => (allow = resolve));
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'start a background writer')).stopReason).toBe('end_turn');
        const deadline = Date.now() + 15_000;
        while (client.permissionRequests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(client.permissionRequests[0]?.toolCall.toolCallId).toBe('sw1');
        // Another turn runs and ends while the sub-agent's question is open: the call is not its.
        expect((await promptText(client, id, 'next')).stopReason).toBe('end_turn');
        const statuses = () => client.updatesOf(id).flatMap((u) => ((u as { toolCallId?: string }).toolCallId === 'sw1' ? [(u as { status?: string }).status] : []));
        expect(statuses()).toEqual(['pending']);
        allow({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
        while (!statuses().includes('completed') && Date.now() < deadline + 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(statuses()).toEqual(['pending', 'in_progress', 'completed']);
        expect(readFileSync(join(s.cwd, 'sub.txt'), 'utf8')).toBe('SUB\n');
      });
    });
  },
  TIMEOUT,
);

test(
  'a turn cancelled while the editor is asked about a call: the call ends failed, live and in the replay',
  async () => {
    const write = { text: 'Writing.', toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'new.txt', content: 'N\n' } }] };
    await scenario([write, { text: 'never' }], async (s) => {
      let id = '';
      await withAgent(s, async (client) => {
        id = await newSession(client, s.cwd);
        client.answer.permission = async (request) => {
          // As an editor does: session/cancel, then the question answered `cancelled`.
          await client.agent.notify('session/cancel', { sessionId: request.sessionId });
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { outcome: { outcome: 'cancelled' } };
        };
        expect((await promptText(client, id, 'go')).stopReason).toBe('cancelled');
        const calls = client.updatesOf(id).filter((u) => (u as { toolCallId?: string }).toolCallId === 'w1');
        expect(calls[0]).toMatchObject({ sessionUpdate: 'tool_call', status: 'pending' });
        expect(calls.at(-1)).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'failed' });
      });
      await withAgent(s, async (client) => {
        await client.initialize();
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        const replayed = client.updatesOf(id).filter((u) => (u as { toolCallId?: string }).toolCallId === 'w1');
        expect(replayed.at(-1)).toMatchObject({ status: 'failed' });
      });
    });
  },
  TIMEOUT,
);

test(
  'an answer that stops at the output token limit ends the turn `max_tokens`; a whole answer after it ends `end_turn`',
  async () => {
    await scenario([{ text: 'Cut off in the mid', stopReason: 'max_tokens' }, { text: 'Whole.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'long')).stopReason).toBe('max_tokens');
        expect((await promptText(client, id, 'short')).stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toBe('Cut off in the midWhole.');
      });
    });
  },
  TIMEOUT,
);

test.each([
  ['one long word', () => 'y'.repeat(acp.DEFAULT_MAX_MESSAGE_BYTES + 1024)],
  // Read in one pass: escapes (a newline every 100 bytes, as a file's text) cost no second look.
  ['a text with an escape every 100 bytes', () => `${'x'.repeat(99)}\n`.repeat(Math.ceil((acp.DEFAULT_MAX_MESSAGE_BYTES + 2 * 1024 * 1024) / 100))],
])(
  'a request over the size the agent reads (%s) is answered with an error naming it, at once; the connection goes on',
  async (_what, text) => {
    await scenario([{ text: 'Still here.' }], async (s) => {
      const client = await startAcp({ cwd: s.cwd, env: s.env });
      try {
        const id = await newSession(client, s.cwd);
        const big = text();
        const started = Date.now();
        let failure: { code: number; message: string } | undefined;
        try {
          await client.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'resource', resource: { uri: 'file:///big.txt', text: big } }] });
        } catch (error) {
          failure = { code: (error as { code: number }).code, message: (error as Error).message };
        }
        expect(failure).toEqual({ code: -32600, message: expect.stringContaining('over the') });
        expect(Date.now() - started).toBeLessThan(15_000);
        expect((await promptText(client, id, 'small')).stopReason).toBe('end_turn');
        expect(client.stderr()).toContain('is over the');
      } finally {
        expect(await client.close()).toBe(0);
      }
    });
  },
  TIMEOUT,
);
