/**
 * `mewcode acp`: a prompt that is a typed `/deploy prod` (a user's command file) passes the user's
 * UserPromptSubmit hook as typed, before the command's `!` line runs: a block declines the turn
 * (`refusal`) with nothing run or sent; an allowed line runs the hook once, and its context
 * reaches the model with the expanded prompt.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, textOf, withAgent } from './acp-harness.js';
import { records, setUpSubmitHook } from './prompt-submit-setup.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test('a blocking UserPromptSubmit hook stops /deploy prod before its `!` line runs; the turn is declined', async () => {
  await scenario([{ text: 'deployed' }], async (s) => {
    const log = path.join(s.home, 'submit.jsonl');
    setUpSubmitHook(s, log, 2, '');
    await withAgent(s, async (client) => {
      const id = await newSession(client, s.cwd);
      const answer = await promptText(client, id, '/deploy prod');
      expect(answer.stopReason).toBe('refusal');
      expect(textOf(client.updatesOf(id), 'agent_message_chunk')).toContain('no deploys today');
    });
    expect(existsSync(path.join(s.cwd, 'DEPLOY-RAN.marker'))).toBe(false);
    expect(s.requests).toHaveLength(0);
    expect(records(log).map((record) => record.prompt)).toEqual(['/deploy prod']);
  });
}, 90_000);

test('an allowing UserPromptSubmit hook runs once on /deploy prod as typed; its context reaches the model', async () => {
  await scenario([{ text: 'deployed' }], async (s) => {
    const log = path.join(s.home, 'submit.jsonl');
    setUpSubmitHook(s, log, 0, 'SUBMIT-CONTEXT-79');
    await withAgent(s, async (client) => {
      const id = await newSession(client, s.cwd);
      const answer = await promptText(client, id, '/deploy prod');
      expect(answer.stopReason).toBe('end_turn');
    });
    expect(existsSync(path.join(s.cwd, 'DEPLOY-RAN.marker'))).toBe(true);
    expect(records(log).map((record) => record.prompt)).toEqual(['/deploy prod']);
    const sent = JSON.stringify(s.requests[0]!.body.messages);
    expect(sent).toContain('Deploy prod now.');
    expect(sent).toContain('SUBMIT-CONTEXT-79');
  });
}, 90_000);
