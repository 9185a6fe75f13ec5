/**
 * Claude Code's InstructionsLoaded hook, run by the built CLI against the scripted model server:
 * each instruction file as it joins the context — the user's, the project's and the local one at
 * the session's start, their imports (`include`), a subfolder's CLAUDE.md when a file tool first
 * touches a file under it (`nested_traversal`, with the file that brought it). The matcher is the
 * load reason; nothing a hook answers (exit 2 included) stops a file from loading.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

test('InstructionsLoaded runs for every instruction file with its memory type and load reason; its matcher is the reason; exit 2 blocks nothing', async () => {
  const turns = [{ toolCalls: [{ id: 'r1', name: 'read_file', input: { file_path: 'packages/api/src/x.ts' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    writeFileSync(path.join(s.cwd, 'CLAUDE.md'), 'Root rules. @docs/extra.md\n');
    mkdirSync(path.join(s.cwd, 'docs'));
    writeFileSync(path.join(s.cwd, 'docs', 'extra.md'), 'Extra.\n');
    writeFileSync(path.join(s.cwd, 'CLAUDE.local.md'), 'Local.\n');
    mkdirSync(path.join(s.cwd, 'packages', 'api', 'src'), { recursive: true });
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'CLAUDE.md'), 'API rules NESTED-MARK-1.\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'src', 'x.ts'), 'export const x = 1;\n');
    const dir = path.join(s.home, '.claude', 'hooks');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(s.home, '.claude', 'CLAUDE.md'), 'User rules.\n');
    const script = path.join(dir, 'record.py');
    writeFileSync(script, ['import json, sys', 'p = json.load(sys.stdin)', 'open(sys.argv[1], "a").write(json.dumps(p) + "\\n")', 'sys.stderr.write("no thanks\\n")', 'sys.exit(int(sys.argv[2]))'].join('\n'));
    const all = path.join(s.home, 'all.jsonl');
    const nested = path.join(s.home, 'nested.jsonl');
    writeFileSync(
      path.join(s.home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          InstructionsLoaded: [
            { hooks: [{ type: 'command', command: `python3 ${script} ${all} 0` }] },
            { matcher: 'nested_traversal', hooks: [{ type: 'command', command: `python3 ${script} ${nested} 2` }] },
          ],
        },
      }),
    );

    const r = await s.run(['-p', 'look']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('not supported by MewCode yet');
    const seen = records(all);
    const of = (file: string): Record<string, any> | undefined => seen.find((payload) => payload.file_path === file);
    expect(of(path.join(s.home, '.claude', 'CLAUDE.md'))).toMatchObject({ hook_event_name: 'InstructionsLoaded', memory_type: 'User', load_reason: 'session_start', session_id: expect.any(String), cwd: s.cwd });
    expect(of(path.join(s.cwd, 'CLAUDE.md'))).toMatchObject({ memory_type: 'Project', load_reason: 'session_start' });
    expect(of(path.join(s.cwd, 'CLAUDE.local.md'))).toMatchObject({ memory_type: 'Local', load_reason: 'session_start' });
    expect(of(path.join(s.cwd, 'docs', 'extra.md'))).toMatchObject({ memory_type: 'Project', load_reason: 'include', parent_file_path: path.join(s.cwd, 'CLAUDE.md') });
    const api = path.join(s.cwd, 'packages', 'api', 'CLAUDE.md');
    expect(of(api)).toMatchObject({ memory_type: 'Project', load_reason: 'nested_traversal', trigger_file_path: path.join(s.cwd, 'packages', 'api', 'src', 'x.ts') });
    // Each file once.
    expect(seen.filter((payload) => payload.file_path === api)).toHaveLength(1);
    expect(seen.filter((payload) => payload.file_path === path.join(s.cwd, 'CLAUDE.md'))).toHaveLength(1);
    // The matcher is the load reason: only the nested file ran the second group.
    expect(records(nested).map((payload) => payload.file_path)).toEqual([api]);
    // Its exit 2 decided nothing: the file is in the context.
    expect(toolResultOf(s.requests, 'r1').content).toContain('NESTED-MARK-1');
    expect(r.stderr).not.toContain('no thanks');
  });
}, 60_000);
