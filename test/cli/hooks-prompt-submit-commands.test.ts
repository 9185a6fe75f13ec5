/**
 * Claude Code's UserPromptSubmit hook and a typed `/name` (a command file, a skill), run by the
 * built CLI against the scripted model server: the hook sees the line as typed (`/deploy prod`),
 * before anything of the command happens (its `!` lines have not run when exit 2 blocks it), and
 * it runs once per typed line: the expanded prompt goes to the model without passing it again,
 * with the hook's context.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { records, setUpSubmitHook as setUp } from './prompt-submit-setup.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

const cases = [
  { kind: 'a command file', line: '/deploy prod', marker: 'DEPLOY-RAN.marker', body: 'Deploy prod now.' },
  { kind: 'a skill', line: '/ship prod', marker: 'SHIP-RAN.marker', body: 'Ship prod carefully.' },
];

test.each(cases)('exit 2 from UserPromptSubmit stops $kind typed as $line before its `!` line runs; the hook saw the line as typed', async ({ line, marker }) => {
  await scenario([{ text: 'deployed' }], async (s) => {
    const log = path.join(s.home, 'submit.jsonl');
    setUp(s, log, 2, '');
    const r = await s.run(['-p', line]);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('no deploys today');
    expect(existsSync(path.join(s.cwd, marker))).toBe(false);
    expect(s.requests).toHaveLength(0);
    const seen = records(log);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: line });
  });
}, 60_000);

test.each(cases)('a UserPromptSubmit hook that allows $kind runs once, on the typed line; its context reaches the model with the expanded prompt', async ({ line, marker, body }) => {
  await scenario([{ text: 'done' }], async (s) => {
    const log = path.join(s.home, 'submit.jsonl');
    setUp(s, log, 0, 'SUBMIT-CONTEXT-77');
    const r = await s.run(['-p', line]);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(s.cwd, marker))).toBe(true);
    const seen = records(log);
    expect(seen.map((record) => record.prompt)).toEqual([line]);
    expect(s.requests).toHaveLength(1);
    // A command file's body is the user's message; an active skill's is in the system prompt's Active Skills.
    expect(JSON.stringify(s.requests[0]!.body)).toContain(body);
    expect(JSON.stringify(s.requests[0]!.body.messages)).toContain('SUBMIT-CONTEXT-77');
  });
}, 60_000);

test('a plain prompt still passes UserPromptSubmit once, as typed', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const log = path.join(s.home, 'submit.jsonl');
    setUp(s, log, 0, 'SUBMIT-CONTEXT-78');
    const r = await s.run(['-p', 'hello there']);
    expect(r.code).toBe(0);
    expect(records(log).map((record) => record.prompt)).toEqual(['hello there']);
    expect(JSON.stringify(s.requests[0]!.body.messages)).toContain('SUBMIT-CONTEXT-78');
  });
}, 60_000);
