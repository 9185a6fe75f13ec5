/**
 * `mewcode acp` end to end: the built CLI driven by the ACP SDK's client side over its stdio,
 * against the scripted model server. A prompt whose tool calls stream as tool_call updates with an
 * edit shown as a diff; approvals asked with session/request_permission (allow-always remembered);
 * a cancel mid-stream and one while a question is pending (history stays valid, the next prompt
 * works); session/load replaying a saved session before it answers; set_mode; slash commands;
 * bad requests answered with JSON-RPC errors on a session that stays usable; nothing but JSON-RPC
 * on stdout; a missing provider key as an authentication error.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { prepareCli, REPO_ROOT, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, slowAnswer, textOf, until, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const TIMEOUT = 90_000;



function toolCalls(updates: readonly acp.SessionUpdate[]): Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' }>[] {
  return updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' }> => u.sessionUpdate === 'tool_call');
}

function toolUpdates(updates: readonly acp.SessionUpdate[], id: string): Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }>[] {
  return updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }> => u.sessionUpdate === 'tool_call_update' && u.toolCallId === id);
}

/** Roles alternate from a user message, and every tool_use is answered in the next message. */
function expectValidHistory(body: any): void {
  const messages: any[] = body.messages;
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    if (index > 0) expect(message.role).not.toBe(messages[index - 1].role);
    const calls = message.role === 'assistant' && Array.isArray(message.content) ? message.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id) : [];
    if (calls.length === 0) return;
    const answered = (messages[index + 1]?.content ?? []).filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id);
    expect(answered).toEqual(calls);
  });
}

const errorOf = async (promise: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message };
  }
  throw new Error('the request succeeded; an error was expected');
};

test(
  'initialize is honest; a prompt streams a read and an approved edit as tool calls, the edit as a whole-file diff; the commands are advertised',
  async () => {
    const turns = [
      { thinking: { text: 'Let me look at the file.', signature: 'sig' }, toolCalls: [{ id: 'toolu_read', name: 'read_file', input: { file_path: 'greet.txt' } }] },
      { text: 'Changing it now.', toolCalls: [{ id: 'toolu_edit', name: 'edit_file', input: { file_path: 'greet.txt', old_string: 'hello world', new_string: 'hello ACP' } }] },
      { text: 'Done: the greeting says hello ACP.' },
    ];
    await scenario(turns, async (s) => {
      writeFileSync(join(s.cwd, 'greet.txt'), 'hello world\nsecond line\n');
      await withAgent(s, async (client) => {
        const init = await client.initialize();
        expect(init.agentCapabilities).toEqual({ loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: true } });
        expect(init.authMethods?.map((m) => m.id)).toEqual(expect.arrayContaining(['env-anthropic', 'env-openai']));
        expect(init.agentInfo?.name).toBe('mewcode');

        const opened = await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] });
        expect(opened.modes?.currentModeId).toBe('default');
        expect(opened.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions']);
        const id = opened.sessionId;
        const commands = (await client.waitForUpdate(id, 'available_commands_update')) as Extract<acp.SessionUpdate, { sessionUpdate: 'available_commands_update' }>;
        expect(commands.availableCommands.map((c) => c.name)).toEqual(expect.arrayContaining(['help', 'compact']));

        const answer = await promptText(client, id, 'Make greet.txt say hello ACP');
        expect(answer.stopReason).toBe('end_turn');
        const updates = client.updatesOf(id);
        expect(textOf(updates, 'agent_thought_chunk')).toBe('Let me look at the file.');
        expect(textOf(updates, 'agent_message_chunk')).toBe('Changing it now.Done: the greeting says hello ACP.');

        const [read, edit] = toolCalls(updates);
        expect(read).toMatchObject({ toolCallId: 'toolu_read', title: 'Read greet.txt', kind: 'read', locations: [{ path: join(s.cwd, 'greet.txt') }] });
        expect(toolUpdates(updates, 'toolu_read').at(-1)).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: expect.stringContaining('hello world') } }] });
        // Announced (pending, with the change it proposes) before the question.
        expect(edit).toMatchObject({ toolCallId: 'toolu_edit', title: 'Edit greet.txt', kind: 'edit', status: 'pending', locations: [{ path: join(s.cwd, 'greet.txt') }] });
        expect(client.permissionRequests).toHaveLength(1);
        const asked = client.permissionRequests[0]!;
        expect(asked.toolCall).toMatchObject({ toolCallId: 'toolu_edit', kind: 'edit', content: [{ type: 'content', content: { type: 'text', text: expect.stringContaining(join(s.cwd, 'greet.txt')) } }, { type: 'diff', path: join(s.cwd, 'greet.txt'), oldText: 'hello world\nsecond line\n', newText: 'hello ACP\nsecond line\n' }] });
        expect(asked.options.map((o) => [o.optionId, o.kind])).toEqual([
          ['allow_always', 'allow_always'],
          ['allow_session', 'allow_always'],
          ['allow_once', 'allow_once'],
          ['deny', 'reject_once'],
        ]);
        expect(toolUpdates(updates, 'toolu_edit').at(-1)).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: join(s.cwd, 'greet.txt'), oldText: 'hello world\nsecond line\n', newText: 'hello ACP\nsecond line\n' }] });
        expect(readFileSync(join(s.cwd, 'greet.txt'), 'utf8')).toBe('hello ACP\nsecond line\n');
        // In order: the thought, the read, the text that led to the edit, the edit, its question, its result, the answer.
        const order = client.order.filter((o) => o !== 'update:available_commands_update');
        expect(order.indexOf('update:agent_message_chunk')).toBeLessThan(order.indexOf('request_permission'));
        expect(s.requests).toHaveLength(3);
      });
    });
  },
  TIMEOUT,
);

test(
  'allow-always: the answer is remembered, so the next identical call does not ask, in this session or the next one',
  async () => {
    const write = { name: 'write_file', input: { file_path: 'notes.txt', content: 'one\n' } };
    await scenario([{ toolCalls: [write] }, { text: 'Written.' }, { toolCalls: [write] }, { text: 'Written again.' }, { toolCalls: [write] }, { text: 'And again.' }], async (s) => {
      await withAgent(s, async (client) => {
        client.answer.permission = () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'write notes')).stopReason).toBe('end_turn');
        expect(client.permissionRequests).toHaveLength(1);
        expect(readFileSync(join(s.cwd, 'notes.txt'), 'utf8')).toBe('one\n');
        client.answer.permission = () => {
          throw new Error('asked again');
        };
        expect((await promptText(client, id, 'write them again')).stopReason).toBe('end_turn');
        expect(client.permissionRequests).toHaveLength(1);
        // Saved for the project in ~/.mewcode: a new session does not ask either.
        const next = (await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] })).sessionId;
        expect((await promptText(client, next, 'once more')).stopReason).toBe('end_turn');
        expect(client.permissionRequests).toHaveLength(1);
        expect(textOf(client.updatesOf(next), 'agent_message_chunk')).toBe('And again.');
        expect(client.stderr()).not.toContain('could not save');
      });
      const saved = readdirSync(join(s.home, '.mewcode', 'approvals'));
      expect(saved).toHaveLength(1);
      expect(readFileSync(join(s.home, '.mewcode', 'approvals', saved[0]!), 'utf8')).toContain('Write(./notes.txt)');
    });
  },
  TIMEOUT,
);

test(
  'a cancel mid-stream ends the prompt "cancelled"; the history stays valid and the next prompt works',
  async () => {
    const slow = slowAnswer(60, 100);
    await scenario([slow, { text: 'Still here.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        const prompt = promptText(client, id, 'talk for a while');
        await client.waitForUpdate(id, 'agent_message_chunk');
        await client.agent.notify('session/cancel', { sessionId: id });
        expect((await prompt).stopReason).toBe('cancelled');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk').length).toBeLessThan(slow.text.join('').length);

        const next = await promptText(client, id, 'are you there?');
        expect(next.stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toContain('Still here.');
        expect(s.requests).toHaveLength(2);
        expectValidHistory(s.requests[1]!.body);
        expect(JSON.stringify(s.requests[1]!.body.messages.at(-1))).toContain('are you there?');
      });
    });
  },
  TIMEOUT,
);

test(
  'a cancel while a permission question is pending: the call does not run, the prompt ends "cancelled", the session goes on',
  async () => {
    await scenario([{ toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { file_path: 'never.txt', content: 'x' } }] }, { text: 'Fine.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        let answerCancelled: () => void = () => undefined;
        client.answer.permission = () => new Promise((resolve) => (answerCancelled = () => resolve({ outcome: { outcome: 'cancelled' } })));
        const prompt = promptText(client, id, 'write never.txt');
        await until(() => client.permissionRequests.length > 0);
        await client.agent.notify('session/cancel', { sessionId: id });
        answerCancelled(); // what the protocol asks of a client after session/cancel
        expect((await prompt).stopReason).toBe('cancelled');
        expect(existsSync(join(s.cwd, 'never.txt'))).toBe(false);
        client.answer.permission = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
        expect((await promptText(client, id, 'never mind')).stopReason).toBe('end_turn');
        expectValidHistory(s.requests.at(-1)!.body);
      });
    });
  },
  TIMEOUT,
);

test(
  'session/load (after the agent was stopped with SIGTERM) replays a saved session (user and agent messages, tool calls and results) before it answers; the next prompt continues it',
  async () => {
    await scenario([{ toolCalls: [{ id: 'toolu_r', name: 'read_file', input: { file_path: 'a.txt' } }] }, { text: 'It says apple.' }, { text: 'Yes, apple.' }], async (s) => {
      writeFileSync(join(s.cwd, 'a.txt'), 'apple\n');
      const id = await withAgent(s, async (client) => {
        const sessionId = await newSession(client, s.cwd);
        expect((await promptText(client, sessionId, 'what does a.txt say?')).stopReason).toBe('end_turn');
        return sessionId;
      }, { stopWith: 'SIGTERM' }); // as an editor stops its agent: the session is closed cleanly, so it can be loaded
      await withAgent(s, async (client) => {
        await client.initialize();
        const loaded = await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        client.order.push('load answered');
        expect(loaded.modes?.currentModeId).toBe('default');
        const replayed = client.updatesOf(id).filter((u) => u.sessionUpdate !== 'available_commands_update');
        expect(replayed.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk']);
        expect(textOf(replayed, 'user_message_chunk')).toBe('what does a.txt say?');
        expect(replayed[1]).toMatchObject({ toolCallId: 'toolu_r', kind: 'read', title: 'Read a.txt' });
        expect(replayed[2]).toMatchObject({ toolCallId: 'toolu_r', status: 'completed' });
        expect(textOf(replayed, 'agent_message_chunk')).toBe('It says apple.');
        const answered = client.order.indexOf('load answered');
        expect(client.order.slice(answered).filter((o) => o !== 'update:available_commands_update')).toEqual(['load answered']);

        expect((await promptText(client, id, 'sure?')).stopReason).toBe('end_turn');
        const body = s.requests.at(-1)!.body;
        expectValidHistory(body);
        expect(JSON.stringify(body.messages[0])).toContain('what does a.txt say?');
        expect(body.messages).toHaveLength(5);

        const unknown = await errorOf(client.agent.request('session/load', { sessionId: '20200101-000000-dead', cwd: s.cwd, mcpServers: [] }));
        expect(unknown.code).toBe(-32002);
        expect(unknown.message).toContain('20200101-000000-dead');
      });
    });
  },
  TIMEOUT,
);

test(
  'set_mode: plan offers the model only read-only tools; acceptEdits writes without asking; an unknown mode is an error and the session stays usable',
  async () => {
    await scenario([{ text: 'A plan.' }, { toolCalls: [{ name: 'write_file', input: { file_path: 'b.txt', content: 'b' } }] }, { text: 'Wrote b.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        await client.agent.request('session/set_mode', { sessionId: id, modeId: 'plan' });
        expect(client.updatesOf(id).filter((u) => u.sessionUpdate === 'current_mode_update')).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }]);
        await promptText(client, id, 'plan something');
        const tools = (s.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
        expect(tools).toContain('read_file');
        expect(tools).not.toContain('write_file');
        expect(tools).not.toContain('bash');

        const bad = await errorOf(client.agent.request('session/set_mode', { sessionId: id, modeId: 'yolo' }));
        expect(bad.code).toBe(-32602);
        expect(bad.message).toContain('unknown mode "yolo"');

        await client.agent.request('session/set_mode', { sessionId: id, modeId: 'acceptEdits' });
        client.answer.permission = () => {
          throw new Error('acceptEdits should not ask for a write in the project');
        };
        expect((await promptText(client, id, 'write b')).stopReason).toBe('end_turn');
        expect(client.permissionRequests).toHaveLength(0);
        expect(readFileSync(join(s.cwd, 'b.txt'), 'utf8')).toBe('b');
      });
    });
  },
  TIMEOUT,
);

test(
  'bad requests get JSON-RPC errors and the session stays usable; slash commands run as commands; resources are inlined',
  async () => {
    await scenario([{ text: 'Got the buffer.' }], async (s) => {
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        const unknownSession = await errorOf(promptText(client, 'no-such-session', 'hi'));
        expect(unknownSession.code).toBe(-32002);
        const malformed = await errorOf(client.agent.request('session/prompt', { sessionId: id, prompt: 'not a list' } as never));
        expect(malformed.code).toBe(-32602);
        const image = await errorOf(client.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }));
        expect([image.code, image.message]).toEqual([-32602, expect.stringContaining('"image"')]);
        const relative = await errorOf(client.agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] }));
        expect([relative.code, relative.message]).toEqual([-32602, expect.stringContaining('absolute')]);
        const unknownMethod = await errorOf(client.agent.request('session/frobnicate', { sessionId: id }));
        expect(unknownMethod.code).toBe(-32601);

        const help = await promptText(client, id, '/help');
        expect(help.stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toContain('/compact');
        const unknownCommand = await promptText(client, id, '/no-such-command now');
        expect(unknownCommand.stopReason).toBe('end_turn');
        expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toContain('Unknown command /no-such-command');
        expect(s.requests).toHaveLength(0);

        const answer = await client.agent.request('session/prompt', {
          sessionId: id,
          prompt: [
            { type: 'text', text: 'Look at these:' },
            { type: 'resource_link', uri: `file://${join(s.cwd, 'src', 'main.ts')}`, name: 'main.ts' },
            { type: 'resource', resource: { uri: `file://${join(s.cwd, 'draft.md')}`, text: 'unsaved buffer text', mimeType: 'text/markdown' } },
          ],
        });
        expect(answer.stopReason).toBe('end_turn');
        const sent = JSON.stringify(s.requests[0]!.body.messages.at(-1));
        expect(sent).toContain(`[file: ${join(s.cwd, 'src', 'main.ts')}]`);
        expect(sent).toContain(`<resource uri=\\"${join(s.cwd, 'draft.md')}\\">\\nunsaved buffer text\\n</resource>`);
      });
    });
  },
  TIMEOUT,
);

test(
  'only protocol messages on stdout: a plugin printing to standard output lands on stderr',
  async () => {
    await scenario([{ text: 'Quiet.' }], async (s) => {
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      const plugin = join(s.home, 'noisy.mjs');
      writeFileSync(
        plugin,
        `export default { name: 'noisy', apply(kernel) { console.log('NOISE FROM APPLY'); kernel.hooks.userPromptSubmit.tapPromise('noisy', async (p) => { process.stdout.write('NOISE FROM A TAP\\n'); return undefined; }); } };\n`,
      );
      writeFileSync(join(s.home, '.mewcode', 'config.yaml'), `plugins:\n  - ${plugin}\n`);
      await withAgent(s, async (client) => {
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'hello')).stopReason).toBe('end_turn');
        expect(client.stderr()).toContain('NOISE FROM APPLY');
        expect(client.stderr()).toContain('NOISE FROM A TAP');
        expect(client.stdoutLines().join('\n')).not.toContain('NOISE');
      });
    });
  },
  TIMEOUT,
);

test(
  'no provider key: initialize names the environment keys, session/new is an authentication error saying what to set',
  async () => {
    await scenario([], async (s) => {
      const env = { ANTHROPIC_API_KEY: undefined, MEWCODE_PROVIDER: undefined };
      await withAgent(
        s,
        async (client) => {
          const init = await client.initialize();
          const anthropic = init.authMethods?.find((m) => m.id === 'env-anthropic');
          expect(anthropic?.description).toContain('ANTHROPIC_API_KEY');
          const refused = await errorOf(client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] }));
          expect(refused.code).toBe(-32000);
          expect(refused.message).toContain('ANTHROPIC_API_KEY');
          const auth = await errorOf(client.agent.request('authenticate', { methodId: 'env-anthropic' }));
          expect([auth.code, auth.message]).toEqual([-32000, expect.stringContaining('ANTHROPIC_API_KEY is not set')]);
        },
        { env },
      );
    });
  },
  TIMEOUT,
);

test(
  'MCP servers from session/new join the project\'s for that session: the model calls their tools',
  async () => {
    const fakeServer = join(REPO_ROOT, 'test', 'plugins', 'mcp', 'fixtures', 'fake-server.mjs');
    await scenario([{ toolCalls: [{ id: 'toolu_m', name: 'mcp__fake__echo', input: { text: 'from the editor' } }] }, { text: 'Echoed.' }], async (s) => {
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'config.yaml'), 'mcp:\n  startup_wait_ms: 20000\n');
      await withAgent(s, async (client) => {
        await client.initialize();
        const { sessionId } = await client.agent.request('session/new', {
          cwd: s.cwd,
          mcpServers: [{ name: 'fake', command: process.execPath, args: [fakeServer, join(s.home, 'pids')], env: [{ name: 'FAKE_NO_CHILD', value: '1' }] }],
        });
        expect((await promptText(client, sessionId, 'echo something')).stopReason).toBe('end_turn');
        const tools = (s.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
        expect(tools).toContain('mcp__fake__echo');
        const updates = client.updatesOf(sessionId);
        expect(toolCalls(updates)[0]).toMatchObject({ toolCallId: 'toolu_m', kind: 'other' });
        expect(toolUpdates(updates, 'toolu_m').at(-1)).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: expect.stringContaining('echo: from the editor') } }] });
      });
    });
  },
  TIMEOUT,
);

test(
  'two sessions in one agent keep apart: each is saved to its own file and loads with its own history',
  async () => {
    await scenario([{ text: 'Alpha noted.' }, { text: 'Beta noted.' }], async (s) => {
      const ids = await withAgent(s, async (client) => {
        const a = await newSession(client, s.cwd);
        const b = (await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] })).sessionId;
        expect(b).not.toBe(a);
        expect((await promptText(client, a, 'remember alpha')).stopReason).toBe('end_turn');
        expect((await promptText(client, b, 'remember beta')).stopReason).toBe('end_turn');
        return { a, b };
      }, { stopWith: 'SIGTERM' });
      await withAgent(s, async (client) => {
        await client.initialize();
        for (const [id, said, answered] of [[ids.a, 'remember alpha', 'Alpha noted.'], [ids.b, 'remember beta', 'Beta noted.']] as const) {
          await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
          const replayed = client.updatesOf(id).filter((u) => u.sessionUpdate !== 'available_commands_update');
          expect(textOf(replayed, 'user_message_chunk')).toBe(said);
          expect(textOf(replayed, 'agent_message_chunk')).toBe(answered);
        }
      });
    });
  },
  TIMEOUT,
);

test(
  'todo_write: each change of the list reaches the editor as a plan update with every entry; another session gets none',
  async () => {
    const first = [
      { content: 'Read the config', status: 'in_progress', activeForm: 'Reading the config' },
      { content: 'Fix the bug', status: 'pending', priority: 'high' },
    ];
    const second = [
      { content: 'Read the config', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress', priority: 'high' },
      { content: 'Run the tests', status: 'pending', priority: 'low' },
    ];
    await scenario(
      [{ text: 'Planning.', toolCalls: [{ id: 'toolu_todo1', name: 'todo_write', input: { todos: first } }] }, { toolCalls: [{ id: 'toolu_todo2', name: 'todo_write', input: { todos: second } }] }, { text: 'Planned.' }],
      async (s) => {
        await withAgent(s, async (client) => {
          const id = await newSession(client, s.cwd);
          const other = (await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] })).sessionId;
          expect((await promptText(client, id, 'plan the fix')).stopReason).toBe('end_turn');
          const updates = client.updatesOf(id);
          const plans = updates.filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'plan' }> => u.sessionUpdate === 'plan');
          expect(plans.map((p) => p.entries)).toEqual([
            [
              { content: 'Read the config', priority: 'medium', status: 'in_progress' },
              { content: 'Fix the bug', priority: 'high', status: 'pending' },
            ],
            [
              { content: 'Read the config', priority: 'medium', status: 'completed' },
              { content: 'Fix the bug', priority: 'high', status: 'in_progress' },
              { content: 'Run the tests', priority: 'low', status: 'pending' },
            ],
          ]);
          // Read-only: never asked about; shown as the agent thinking, completed.
          expect(client.permissionRequests).toHaveLength(0);
          expect(toolCalls(updates).map((c) => [c.toolCallId, c.kind])).toEqual([
            ['toolu_todo1', 'think'],
            ['toolu_todo2', 'think'],
          ]);
          expect(toolUpdates(updates, 'toolu_todo2').at(-1)).toMatchObject({ status: 'completed' });
          // The first plan arrives after the text that led to it and before the answer.
          const kinds = updates.map((u) => u.sessionUpdate);
          expect(kinds.indexOf('agent_message_chunk')).toBeLessThan(kinds.indexOf('plan'));
          expect(kinds.lastIndexOf('plan')).toBeLessThan(kinds.lastIndexOf('agent_message_chunk'));
          expect(client.updatesOf(other).some((u) => u.sessionUpdate === 'plan')).toBe(false);
          // The model saw the tool and its checklist result.
          expect(s.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain('todo_write');
          expect(JSON.stringify(s.requests[2]!.body.messages.at(-1))).toContain('[~] Fix the bug');
        });
      },
    );
  },
  TIMEOUT,
);

test(
  'session/load: the saved session\'s to-do list comes back as a plan update after the replayed history',
  async () => {
    const todos = [
      { content: 'Read the config', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress', priority: 'high' },
    ];
    await scenario([{ toolCalls: [{ id: 'toolu_todo', name: 'todo_write', input: { todos } }] }, { text: 'Planned.' }], async (s) => {
      const id = await withAgent(s, async (client) => {
        const opened = await newSession(client, s.cwd);
        expect((await promptText(client, opened, 'plan it')).stopReason).toBe('end_turn');
        return opened;
      });
      await withAgent(s, async (client) => {
        await client.initialize();
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        const replayed = client.updatesOf(id).filter((u) => u.sessionUpdate !== 'available_commands_update');
        expect(replayed.at(-1)).toEqual({
          sessionUpdate: 'plan',
          entries: [
            { content: 'Read the config', priority: 'medium', status: 'completed' },
            { content: 'Fix the bug', priority: 'high', status: 'in_progress' },
          ],
        });
        expect(replayed.filter((u) => u.sessionUpdate === 'plan')).toHaveLength(1);
      });
    });
  },
  TIMEOUT,
);
