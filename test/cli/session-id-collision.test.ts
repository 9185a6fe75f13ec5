/**
 * Two sessions started in the same second in one project never share an id, even when their
 * random suffixes are drawn alike (forced here with a Math.random that always draws 0.5): two
 * `mewcode -p` runs side by side, and two `session/new` of one `mewcode acp`. Each keeps its own
 * transcript.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from './helpers.js';
import { promptText, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const FIXED_RANDOM = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'preload', 'fixed-random.mjs');
const SAME_DRAWS = { NODE_OPTIONS: `--import=${FIXED_RANDOM}` };

function transcripts(cwd: string): Map<string, string> {
  const root = path.join(cwd, '.mewcode', 'sessions');
  const found = new Map<string, string>();
  for (const id of readdirSync(root)) {
    const file = path.join(root, id, 'conversation.jsonl');
    if (existsSync(file)) found.set(id, readFileSync(file, 'utf8'));
  }
  return found;
}

test('two `mewcode -p` started together in one project: two sessions, each transcript holds only its own run', async () => {
  await scenario([{ text: 'one answer' }, { text: 'another answer' }], async (s) => {
    const [a, b] = await Promise.all(['first-run-prompt', 'second-run-prompt'].map((prompt) => s.run(['-p', prompt, '--output-format', 'json'], { env: SAME_DRAWS })));
    expect([a!.code, b!.code]).toEqual([0, 0]);
    expect(a!.stderr + b!.stderr).not.toContain('not being saved');
    const ids = [singleJsonObject(a!.stdout).session_id, singleJsonObject(b!.stdout).session_id];
    expect(ids[0]).not.toBe(ids[1]);
    const saved = transcripts(s.cwd);
    expect([...saved.keys()].sort()).toEqual([...ids].sort());
    expect(saved.get(ids[0])).toContain('first-run-prompt');
    expect(saved.get(ids[0])).not.toContain('second-run-prompt');
    expect(saved.get(ids[1])).toContain('second-run-prompt');
  });
}, 60_000);

test('two session/new of one `mewcode acp` at once: two ids, two kernels, each prompt saved in its own session', async () => {
  await scenario([{ text: 'answer A' }, { text: 'answer B' }], async (s) => {
    await withAgent(
      s,
      async (client) => {
        await client.initialize();
        const [a, b] = await Promise.all([0, 1].map(() => client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] })));
        expect(a!.sessionId).not.toBe(b!.sessionId);
        expect((await promptText(client, a!.sessionId, 'prompt-for-a')).stopReason).toBe('end_turn');
        expect((await promptText(client, b!.sessionId, 'prompt-for-b')).stopReason).toBe('end_turn');
        expect(client.stderr()).not.toContain('not being saved');
        const saved = transcripts(s.cwd);
        expect(saved.get(a!.sessionId)).toContain('prompt-for-a');
        expect(saved.get(a!.sessionId)).not.toContain('prompt-for-b');
        expect(saved.get(b!.sessionId)).toContain('prompt-for-b');
      },
      { env: SAME_DRAWS },
    );
  });
}, 60_000);

test('a reserved id whose session saved nothing leaves no directory behind (the initialize inspection, a session never prompted)', async () => {
  await scenario([{ text: 'unused' }], async (s) => {
    await withAgent(s, async (client) => {
      await client.initialize();
      await client.agent.request('session/new', { cwd: s.cwd, mcpServers: [] });
    });
    const root = path.join(s.cwd, '.mewcode', 'sessions');
    expect(existsSync(root) ? readdirSync(root).filter((name) => !name.startsWith('.')) : []).toEqual([]);
  });
}, 60_000);

test('a command that only inspects (doctor, mcp list) leaves no .mewcode folder in a project that had none', async () => {
  await scenario([{ text: 'unused' }], async (s) => {
    expect(existsSync(path.join(s.cwd, '.mewcode'))).toBe(false);
    for (const args of [['doctor'], ['mcp', 'list']]) {
      await s.run(args);
      expect(existsSync(path.join(s.cwd, '.mewcode'))).toBe(false);
    }
    // A project that has its .mewcode keeps it (and its sessions root) after an inspection.
    const run = await s.run(['-p', 'hi']);
    expect(run.code).toBe(0);
    await s.run(['doctor']);
    expect(readdirSync(path.join(s.cwd, '.mewcode', 'sessions')).filter((name) => !name.startsWith('.'))).toHaveLength(1);
  });
}, 60_000);
