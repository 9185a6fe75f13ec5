/**
 * plugins/sandbox-os/session-transcripts.ts: which session records are hidden from commands — the
 * projects ~/.mewcode/sessions.jsonl lists, the most recent first, within a bound.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessionRecordPaths } from '../../../plugins/sandbox-os/session-transcripts.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'mc-records-'));
  mkdirSync(path.join(home, '.mewcode'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const listed = (...roots: string[]): void => writeFileSync(path.join(home, '.mewcode', 'sessions.jsonl'), [...roots.map((root, i) => JSON.stringify({ v: 1, root, id: `20261201-12000${i}-abcd` })), '{torn'].join('\n') + '\n');

test("other projects' .mewcode, the most recent first and once each; this project's earlier sessions; none under /tmp", async () => {
  listed('/srv/a', '/srv/b', '/srv/a', '/work/p', '/tmp/scratch', 'relative');
  expect(await sessionRecordPaths(home, ['/work/p'])).toEqual({ paths: ['/work/p/.mewcode/sessions', '/work/p/.mewcode/tool-output', '/srv/a/.mewcode', '/srv/b/.mewcode'], truncated: false });
});

test('at most the bound of other projects, and it says so', async () => {
  listed('/srv/a', '/srv/b', '/srv/c');
  expect(await sessionRecordPaths(home, ['/work/p'], 3)).toEqual({ paths: ['/work/p/.mewcode/sessions', '/work/p/.mewcode/tool-output', '/srv/c/.mewcode', '/srv/b/.mewcode', '/srv/a/.mewcode'], truncated: false });
  expect(await sessionRecordPaths(home, ['/work/p'], 2)).toEqual({ paths: ['/work/p/.mewcode/sessions', '/work/p/.mewcode/tool-output', '/srv/c/.mewcode', '/srv/b/.mewcode'], truncated: true });
});

test('no list: only this project', async () => {
  expect(await sessionRecordPaths(home, ['/work/p'])).toEqual({ paths: ['/work/p/.mewcode/sessions', '/work/p/.mewcode/tool-output'], truncated: false });
});
