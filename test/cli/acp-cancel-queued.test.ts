/**
 * `mewcode acp`: session/cancel cancels everything in progress for the session, a prompt still
 * waiting for a cancelled turn to end included. The editor's stop button stops the message the
 * user sent after the first stop too: it never reaches the model and ends `cancelled`.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, until, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const TIMEOUT = 60_000;

test(
  'a prompt queued behind a cancelled turn that is still ending, then cancelled itself: it ends `cancelled` without calling the model; the next prompt runs',
  async () => {
    const write = { toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'new.txt', content: 'N\n' } }] };
    await scenario([write, { text: 'queued answer (must not run)' }, { text: 'The third.' }], async (s) => {
      await withAgent(
        s,
        async (client) => {
          let writeSeen = false;
          // The editor takes a while to write: the cancelled turn ends only after that.
          client.answer.writeTextFile = async () => {
            writeSeen = true;
            await new Promise((resolve) => setTimeout(resolve, 1500));
            return {};
          };
          await client.initialize({ fs: { readTextFile: true, writeTextFile: true } });
          const id = (await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] })).sessionId;
          const first = promptText(client, id, 'one');
          await until(() => writeSeen);
          void client.agent.notify('session/cancel', { sessionId: id });
          const second = promptText(client, id, 'two');
          await new Promise((resolve) => setTimeout(resolve, 300));
          // The user stops again: the message sent after the first stop is stopped as well.
          void client.agent.notify('session/cancel', { sessionId: id });
          expect((await first).stopReason).toBe('cancelled');
          expect((await second).stopReason).toBe('cancelled');
          expect(s.requests).toHaveLength(1);
          // A prompt sent after the cancels runs.
          expect((await promptText(client, id, 'three')).stopReason).toBe('end_turn');
          expect(s.requests).toHaveLength(2);
          expect(JSON.stringify(s.requests[1]!.body.messages)).toContain('three');
        },
        { args: ['--permission-mode', 'acceptEdits'] },
      );
    });
  },
  TIMEOUT,
);
