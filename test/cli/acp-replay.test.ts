/**
 * `mewcode acp`: session/load replays only what the user sent, as the blocks it was sent as, and
 * what the agent said: never a hook's added context, a compaction summary or its recovered
 * context as if the user had typed them, and not the `(Cancelled.)` note the editor never saw.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, textOf, until, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const userChunks = (updates: readonly acp.SessionUpdate[]): acp.ContentBlock[] =>
  updates.flatMap((u) => (u.sessionUpdate === 'user_message_chunk' ? [u.content] : []));

test('a replay shows the user\'s prompts as sent (an embedded resource as a resource), no hook context, summary or cancel note', async () => {
  const turns = [
    { toolCalls: [{ id: 'g1', name: 'glob', input: { pattern: '*' } }] },
    { text: 'answer one' },
    { text: 'SUMMARY-OF-CONVERSATION' },
    { text: 'answer two' },
    { delayMs: 1500, text: 'never shown' },
  ];
  await scenario(turns, async (s) => {
    mkdirSync(join(s.cwd, '.claude'));
    const context = `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"HOOK-CONTEXT: internal ticket 4711"}}'`;
    writeFileSync(join(s.cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: context }] }] } }));
    const env = { MEWCODE_TRUST_PROJECT: '1' };
    let id = '';
    await withAgent(
      s,
      async (client) => {
        id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'USER-TYPED-ONE')).stopReason).toBe('end_turn');
        expect((await promptText(client, id, '/compact')).stopReason).toBe('end_turn');
        const resource: acp.ContentBlock = { type: 'resource', resource: { uri: 'file:///x/notes.md', text: 'NOTES', mimeType: 'text/markdown' } };
        expect((await client.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'USER-TYPED-TWO' }, resource] })).stopReason).toBe('end_turn');
        // The model saw the hook's context (it is in the history, only not shown as typed).
        expect(JSON.stringify(s.requests.at(-1)!.body.messages)).toContain('HOOK-CONTEXT');
        const third = promptText(client, id, 'USER-TYPED-THREE');
        await until(() => s.requests.length === 5);
        void client.agent.notify('session/cancel', { sessionId: id });
        expect((await third).stopReason).toBe('cancelled');
      },
      { env },
    );
    await withAgent(
      s,
      async (client) => {
        await client.initialize();
        await client.agent.request('session/load', { sessionId: id, cwd: s.cwd, mcpServers: [] });
        const replayed = client.updatesOf(id);
        expect(userChunks(replayed)).toEqual([
          { type: 'text', text: 'USER-TYPED-TWO' },
          { type: 'resource', resource: { uri: 'file:///x/notes.md', text: 'NOTES', mimeType: 'text/markdown' } },
          { type: 'text', text: 'USER-TYPED-THREE' },
        ]);
        const agent = textOf(replayed, 'agent_message_chunk');
        expect(agent).toContain('answer two');
        expect(agent).not.toContain('(Cancelled.)');
        expect(JSON.stringify(replayed)).not.toMatch(/HOOK-CONTEXT|SUMMARY-OF-CONVERSATION|Recovered context/);
      },
      { env },
    );
  });
}, 60_000);
