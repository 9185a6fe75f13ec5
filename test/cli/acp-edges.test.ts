/**
 * `mewcode acp` at its edges, as editors drive it: a prompt sent right after session/cancel (Zed
 * and CodeCompanion do not wait for the cancelled answer) runs once the cancelled turn has ended;
 * a session/load that fails leaves the open session it named as it was; a notice reaches an
 * editor that shows notices once.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { expectOnlyJsonRpc, newSession, promptText, slowAnswer, startAcp, textOf, until, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const TIMEOUT = 60_000;



const errorOf = async (promise: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message };
  }
  throw new Error('the request succeeded; an error was expected');
};

/** Roles alternate from a user message. */
function expectAlternating(messages: { role: string }[]): void {
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    if (index > 0) expect(message.role).not.toBe(messages[index - 1]!.role);
  });
}

test(
  'a prompt sent right after session/cancel waits for the cancelled turn, then runs: both answered, the history valid',
  async () => {
    // The model is slow to answer: the cancel comes while the request is still open.
    const slow = { delayMs: 1500, text: 'never shown' };
    await scenario([slow, { text: 'The new question, answered.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        const first = promptText(client, id, 'talk for a while');
        await until(() => s.requests.length > 0);
        // Written together, as an editor does when the user sends a new message mid-answer.
        void client.agent.notify('session/cancel', { sessionId: id });
        const second = promptText(client, id, 'a new question');
        expect((await first).stopReason).toBe('cancelled');
        expect((await second).stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toContain('The new question, answered.');
        expect(s.requests).toHaveLength(2);
        const messages = s.requests[1]!.body.messages as { role: string }[];
        expectAlternating(messages);
        expect(JSON.stringify(messages.at(-1))).toContain('a new question');
      });
    });
  },
  TIMEOUT,
);

test(
  'a second prompt while one runs (no cancel) is refused clearly, and the running one is not disturbed',
  async () => {
    const slow = slowAnswer(20, 50);
    await scenario([slow], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        const first = promptText(client, id, 'talk');
        await client.waitForUpdate(id, 'agent_message_chunk');
        const refused = await errorOf(promptText(client, id, 'interrupting'));
        expect([refused.code, refused.message]).toEqual([-32600, expect.stringContaining('already running')]);
        expect((await first).stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toBe(slow.text.join(''));
        expect(s.requests).toHaveLength(1);
      });
    });
  },
  TIMEOUT,
);

test(
  'a session/load that fails (another cwd) leaves the open session of that id open and usable',
  async () => {
    await scenario([{ text: 'First.' }, { text: 'Still open.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'one')).stopReason).toBe('end_turn');
        const elsewhere = join(s.cwd, 'elsewhere');
        mkdirSync(elsewhere);
        const failed = await errorOf(client.agent.request('session/load', { sessionId: id, cwd: elsewhere, mcpServers: [] }));
        expect(failed.code).toBe(-32002);
        const missing = await errorOf(client.agent.request('session/load', { sessionId: id, cwd: join(s.cwd, 'missing'), mcpServers: [] }));
        expect(missing.code).toBe(-32602);
        await client.agent.request('session/set_mode', { sessionId: id, modeId: 'plan' });
        expect((await promptText(client, id, 'two')).stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toBe('First.Still open.');
        expectAlternating(s.requests[1]!.body.messages);
        expect(s.requests[1]!.body.messages).toHaveLength(3);
        // Loaded again where it lives: the open kernel makes way for a fresh one, which replays it.
        const before = client.updatesOf(id).length;
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        expect(textOf(client.updatesOf(id).slice(before), 'user_message_chunk')).toBe('onetwo');
      });
    });
  },
  TIMEOUT,
);

test(
  'an editor that shows notices gets each notice once (a provider retry)',
  async () => {
    await scenario([{ httpError: { status: 500 } }, { text: 'Answered after a retry.' }], async (s) => {
      await withAgent(s, async (client) => {
        await client.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { session: { notices: {} } } } as acp.InitializeRequest);
        const { sessionId } = await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] });
        expect((await promptText(client, sessionId, 'hi')).stopReason).toBe('end_turn');
        const notices = client.updatesOf(sessionId).filter((u) => u.sessionUpdate === 'notice');
        expect(notices.map((n) => (n as { title?: string }).title)).toEqual([expect.stringContaining('retrying')]);
        expect(client.stderr()).not.toContain('retrying');
      });
    });
  },
  TIMEOUT,
);

test(
  'the editor closing stdin mid-turn: the agent exits 0, and the saved turn is ended (the partial answer kept), not left dangling',
  async () => {
    const slow = slowAnswer(60, 100);
    await scenario([slow], async (s) => {
      const client = await startAcp({ cwd: s.cwd, env: s.env });
      const id = await newSession(client, s.cwd);
      void promptText(client, id, 'talk for a while').catch(() => undefined);
      await client.waitForUpdate(id, 'agent_message_chunk');
      await until(() => textOf(client.updatesOf(id), 'agent_message_chunk').length >= 12);
      client.child.stdin.end();
      const code = await client.close();
      expect(code).toBe(0);
      expectOnlyJsonRpc(client.stdoutLines());
      const lines = readFileSync(join(s.cwd, '.mewcode', 'sessions', id, 'conversation.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      const messages = lines.filter((entry) => entry.type === 'message').map((entry) => entry.message as { role: string; content: { type: string; text?: string }[] });
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(JSON.stringify(messages[1]!.content)).toContain('word0');
    });
  },
  TIMEOUT,
);

test(
  '$/cancel_request for a running session/prompt cancels its turn like session/cancel: answered "cancelled", the session goes on',
  async () => {
    const slow = slowAnswer(60, 100);
    await scenario([slow, { text: 'Next.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        const stop = new AbortController();
        const first = promptText(client, id, 'talk for a while', { cancellationSignal: stop.signal });
        await client.waitForUpdate(id, 'agent_message_chunk');
        stop.abort();
        expect((await first).stopReason).toBe('cancelled');
        expect((await promptText(client, id, 'next')).stopReason).toBe('end_turn');
        expect(JSON.stringify(s.requests[1]!.body.messages[1])).not.toContain('word59');
      });
    });
  },
  TIMEOUT,
);

test(
  'a sub-agent\'s call the editor is asked about is not left pending: it ends with its result, or failed when denied',
  async () => {
    const turns = [
      { toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { description: 'write files', prompt: 'write x.txt and y.txt' } }] },
      { toolCalls: [{ id: 'toolu_sub_x', name: 'write_file', input: { file_path: 'x.txt', content: 'x\n' } }] },
      { toolCalls: [{ id: 'toolu_sub_y', name: 'write_file', input: { file_path: 'y.txt', content: 'y\n' } }] },
      { text: 'Sub-agent done.' },
      { text: 'All done.' },
    ];
    await scenario(turns, async (s) => {
      await withAgent(s, async (client) => {
        client.answer.permission = (request) => ({ outcome: { outcome: 'selected', optionId: request.toolCall.toolCallId === 'toolu_sub_x' ? 'allow_once' : 'deny' } });
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'delegate')).stopReason).toBe('end_turn');
        expect(client.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['toolu_sub_x', 'toolu_sub_y']);
        const lastOf = (toolCallId: string) =>
          client
            .updatesOf(id)
            .filter((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === toolCallId && u.status != null)
            .at(-1) as { status?: string; content?: unknown[] } | undefined;
        expect(lastOf('toolu_sub_x')).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: join(s.cwd, 'x.txt'), newText: 'x\n' }] });
        expect(lastOf('toolu_sub_y')).toMatchObject({ status: 'failed' });
        expect(lastOf('toolu_agent')).toMatchObject({ status: 'completed' });
      });
    });
  },
  TIMEOUT,
);

test(
  'a permission request answered "cancelled" (the editor cancelled the turn) ends the prompt "cancelled": the call does not run, the model is not asked again',
  async () => {
    await scenario([{ toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { file_path: 'never.txt', content: 'x' } }] }, { text: 'Should not be asked.' }, { text: 'Next prompt.' }], async (s) => {
      await withAgent(s, async (client) => {
        client.answer.permission = () => ({ outcome: { outcome: 'cancelled' } });
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'write never.txt')).stopReason).toBe('cancelled');
        expect(s.requests).toHaveLength(1);
        expect(existsSync(join(s.cwd, 'never.txt'))).toBe(false);
        expect((await promptText(client, id, 'go on')).stopReason).toBe('end_turn');
        const messages = s.requests[1]!.body.messages as { role: string; content: unknown }[];
        expectAlternating(messages);
        expect(JSON.stringify(messages)).toContain('"tool_use_id":"toolu_w"');
      });
    });
  },
  TIMEOUT,
);

test(
  "a sub-agent's tool result reaches the editor as the organisation's required redaction let it out, never raw",
  async () => {
    const turns = [
      { toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { description: 'look', prompt: 'read secrets.txt' } }] },
      { toolCalls: [{ id: 'toolu_sub_read', name: 'read_file', input: { file_path: 'secrets.txt' } }] },
      { text: 'Sub-agent done.' },
      { text: 'All done.' },
    ];
    await scenario(turns, async (s) => {
      writeFileSync(join(s.cwd, 'secrets.txt'), 'aws_access_key_id = AKIAABCDEFGHIJKLMNOP\n');
      // The organisation's redactor, required through managed settings (as test/extension's story installs one).
      const managed = join(s.home, 'managed');
      mkdirSync(join(managed, 'node_modules', 'acme-dlp'), { recursive: true });
      writeFileSync(join(managed, 'node_modules', 'acme-dlp', 'package.json'), JSON.stringify({ name: 'acme-dlp', version: '1.0.0', type: 'module', main: 'index.js' }));
      writeFileSync(
        join(managed, 'node_modules', 'acme-dlp', 'index.js'),
        "export default { name: 'acme-dlp', version: '1.0.0', apply(kernel) { kernel.hooks.postToolUse.tapPromise('acme-dlp', async (result) => ({ ...result, content: result.content.replace(/AKIA[0-9A-Z]{16}/g, '[REDACTED BY ACME]') })); } };\n",
      );
      writeFileSync(join(managed, 'managed-settings.yaml'), 'plugins: [acme-dlp]\n');
      // The sub-agent's read is one the editor is asked about (so the editor is shown its result).
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'settings.yaml'), 'permissions:\n  ask: [Read]\n');
      await withAgent(
        s,
        async (client) => {
          client.answer.permission = () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
          const id = await newSession(client, s.cwd);
          expect((await promptText(client, id, 'delegate')).stopReason).toBe('end_turn');
          const sent = JSON.stringify(client.updatesOf(id).filter((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === 'toolu_sub_read'));
          expect(sent).toContain('[REDACTED BY ACME]');
          expect(sent).not.toContain('AKIAABCDEFGHIJKLMNOP');
        },
        { env: { MEWCODE_MANAGED_SETTINGS: join(managed, 'managed-settings.yaml') } },
      );
    });
  },
  TIMEOUT,
);

test(
  'two sub-agents of one turn that both need an answer: the editor is asked one question at a time',
  async () => {
    const turns = [
      {
        toolCalls: [
          { id: 'toolu_a1', name: 'agent', input: { description: 'write one', prompt: 'write one.txt' } },
          { id: 'toolu_a2', name: 'agent', input: { description: 'write two', prompt: 'write two.txt' } },
        ],
      },
      { toolCalls: [{ name: 'write_file', input: { file_path: 'one.txt', content: '1\n' } }] },
      { toolCalls: [{ name: 'write_file', input: { file_path: 'two.txt', content: '2\n' } }] },
      { text: 'sub done' },
      { text: 'sub done' },
      { text: 'all done' },
    ];
    await scenario(turns, async (s) => {
      await withAgent(s, async (client) => {
        let open = 0;
        let most = 0;
        client.answer.permission = async () => {
          most = Math.max(most, ++open);
          await new Promise((resolve) => setTimeout(resolve, 700));
          open--;
          return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
        };
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'go')).stopReason).toBe('end_turn');
        expect(client.permissionRequests).toHaveLength(2);
        expect(most).toBe(1);
        expect(readFileSync(join(s.cwd, 'one.txt'), 'utf8') + readFileSync(join(s.cwd, 'two.txt'), 'utf8')).toBe('1\n2\n');
      });
    });
  },
  TIMEOUT,
);
