/**
 * `mewcode acp` where a turn or a session ends unusually: a session loaded again while this agent
 * has it open keeps being saved; a call asked about when its turn was cancelled is failed, not
 * left pending; an answer cut at the output token limit ends `max_tokens`; a message over the
 * size the agent reads is answered with an error and the connection goes on.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
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

test(
  'a request over the size the agent reads is answered with an error naming it; the connection goes on',
  async () => {
    await scenario([{ text: 'Still here.' }], async (s) => {
      const client = await startAcp({ cwd: s.cwd, env: s.env });
      try {
        const id = await newSession(client, s.cwd);
        const big = 'y'.repeat(acp.DEFAULT_MAX_MESSAGE_BYTES + 1024);
        let failure: { code: number; message: string } | undefined;
        try {
          await client.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'resource', resource: { uri: 'file:///big.txt', text: big } }] });
        } catch (error) {
          failure = { code: (error as { code: number }).code, message: (error as Error).message };
        }
        expect(failure).toEqual({ code: -32600, message: expect.stringContaining('over the') });
        expect((await promptText(client, id, 'small')).stopReason).toBe('end_turn');
        expect(client.stderr()).toContain('is over the');
      } finally {
        expect(await client.close()).toBe(0);
      }
    });
  },
  TIMEOUT,
);
