/**
 * `mewcode acp`: session/cancel stops a running slash command, as it stops a model's turn. A
 * `/compact` whose summary is slow ends `cancelled` at once, its summary request aborted, and the
 * history stays as it was (the next prompt sends it whole). A command file's slow `!` line is
 * killed (its side effect never happens), no later `!` line starts, the model is never called.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, textOf, until, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('session/cancel during /compact: `cancelled` promptly, the summary request aborted, the history unchanged', async () => {
  await scenario([{ text: 'first answer' }, { text: 'SUMMARY-NEVER-APPLIED', delayMs: 15_000 }, { text: 'after' }], async (s) => {
    await withAgent(s, async (client) => {
      const id = await newSession(client, s.cwd);
      expect((await promptText(client, id, 'hello')).stopReason).toBe('end_turn');
      const compacting = promptText(client, id, '/compact keep names');
      await until(() => s.requests.length === 2);
      const t0 = Date.now();
      void client.agent.notify('session/cancel', { sessionId: id });
      expect((await compacting).stopReason).toBe('cancelled');
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(textOf(client.updatesOf(id), 'agent_message_chunk')).not.toMatch(/Compacted the conversation/);
      expect((await promptText(client, id, 'after cancel')).stopReason).toBe('end_turn');
    });
    // The history the next turn sent is the one before /compact: hello, its answer, the new prompt.
    const sent = s.requests[2]!.body.messages as Array<{ role: string; content: unknown }>;
    const texts = JSON.stringify(sent);
    expect(texts).toContain('hello');
    expect(texts).toContain('first answer');
    expect(texts).not.toContain('SUMMARY-NEVER-APPLIED');
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
}, 60_000);

test("session/cancel during a command's `!` line: its process is killed, no later line runs, `cancelled` promptly, no model call", async () => {
  await scenario([{ text: 'MODEL CALLED' }, { text: 'second' }], async (s) => {
    const commands = path.join(s.home, '.claude', 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(
      path.join(commands, 'slow.md'),
      '---\ndescription: slow\nallowed-tools: Bash(sleep:*), Bash(touch:*)\n---\nStarted: !`touch STARTED; sleep 4 && touch BANGDONE`\nThen: !`touch SECOND`\nSummarise.\n',
    );
    await withAgent(s, async (client) => {
      const id = await newSession(client, s.cwd);
      const running = promptText(client, id, '/slow');
      await until(() => existsSync(path.join(s.cwd, 'STARTED')));
      const t0 = Date.now();
      void client.agent.notify('session/cancel', { sessionId: id });
      expect((await running).stopReason).toBe('cancelled');
      expect(Date.now() - t0).toBeLessThan(3_000);
      // Past the time the line would have finished: its process was killed, the next line never started.
      await sleep(5_000);
      expect(existsSync(path.join(s.cwd, 'BANGDONE'))).toBe(false);
      expect(existsSync(path.join(s.cwd, 'SECOND'))).toBe(false);
      expect(s.requests).toHaveLength(0);
      // The session goes on.
      expect((await promptText(client, id, 'next')).stopReason).toBe('end_turn');
    });
  });
}, 60_000);
