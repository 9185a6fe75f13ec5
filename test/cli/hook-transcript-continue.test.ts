/**
 * The Claude-shaped transcript hooks read (`transcript_path`) across `-c` runs, through the built
 * CLI: a continued session's earlier lines stay exactly as they were written (same uuid, same
 * timestamp) and the new exchange is appended; a /compact in one run and a prompt in the next keep
 * the first prompt's line and add a compact_boundary line, as Claude Code appends rather than rewrites.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

test('-c appends to the transcript hooks read; /compact adds a boundary and keeps the earlier lines', async () => {
  const turns = [{ text: 'answer-1' }, { text: 'answer-2' }, { text: 'SUMMARY of the talk' }, { text: 'answer-3' }];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
    const transcript = () => {
      const sessions = path.join(s.cwd, '.mewcode', 'sessions');
      const [id] = readdirSync(sessions).filter((name) => !name.startsWith('.'));
      return readFileSync(path.join(sessions, id!, 'claude-transcript.jsonl'), 'utf8');
    };
    const parsed = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

    expect((await s.run(['-p', 'first'])).code).toBe(0);
    const afterFirst = transcript();
    const first = parsed(afterFirst);
    expect(first.map((line) => line.type)).toEqual(['user', 'assistant']);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect((await s.run(['-c', '-p', 'second'])).code).toBe(0);
    const afterSecond = transcript();
    expect(afterSecond.startsWith(afterFirst)).toBe(true);
    const second = parsed(afterSecond);
    expect(second.slice(0, 2)).toEqual(first);
    expect(second.slice(2).map((line) => [line.type, typeof line.message.content === 'string' ? line.message.content : line.message.content[0].text])).toEqual([
      ['user', 'second'],
      ['assistant', 'answer-2'],
    ]);
    expect(second[2]!.parentUuid).toBe(second[1]!.uuid);

    expect((await s.run(['-c', '-p', '/compact'])).code).toBe(0);
    expect((await s.run(['-c', '-p', 'next'])).code).toBe(0);
    const afterNext = transcript();
    expect(afterNext.startsWith(afterSecond)).toBe(true);
    const all = parsed(afterNext);
    expect(all[0]!.message.content).toBe('first');
    const boundary = all.filter((line) => line.type === 'system' && line.subtype === 'compact_boundary');
    expect(boundary).toHaveLength(1);
    expect(boundary[0]!.compactMetadata).toMatchObject({ trigger: 'manual' });
    expect(afterNext).toContain('SUMMARY of the talk');
    expect(all.at(-1)!.message.content[0].text).toBe('answer-3');
    // The messages the compaction kept are written again after the boundary, with the times they had.
    const kept = all.slice(all.indexOf(boundary[0]!) + 1).find((line) => line.type === 'user' && line.message.content === 'second');
    expect(kept?.timestamp).toBe(second[2]!.timestamp);
    expect(new Set(all.map((line) => line.uuid)).size).toBe(all.length);
  });
}, 60_000);
