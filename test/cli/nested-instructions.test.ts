/**
 * Claude Code's nested CLAUDE.md, end to end: a subfolder's instruction files join the context
 * when a file tool first touches a file under that folder, as a reminder with the tool's result
 * (their `@path` imports resolved as the root file's are), once per session; the stable system
 * prompt never changes; a file the read rules deny is not loaded.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

test("a subfolder's CLAUDE.md (and its imports) joins the result of the first read under it, once, never the system prompt", async () => {
  const turns = [
    { toolCalls: [{ id: 'r1', name: 'read_file', input: { file_path: 'packages/api/src/x.ts' } }] },
    { toolCalls: [{ id: 'r2', name: 'read_file', input: { file_path: 'packages/api/src/y.ts' } }, { id: 'r3', name: 'read_file', input: { file_path: 'top.ts' } }] },
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'tools/gen/new.ts', content: 'export {};\n' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    writeFileSync(path.join(s.cwd, 'CLAUDE.md'), 'Root rules ROOT-MARK-1.\n');
    writeFileSync(path.join(s.cwd, 'top.ts'), 'export const top = 1;\n');
    mkdirSync(path.join(s.cwd, 'packages', 'api', 'src'), { recursive: true });
    mkdirSync(path.join(s.cwd, 'packages', 'api', 'docs'), { recursive: true });
    writeFileSync(path.join(s.cwd, 'packages', 'CLAUDE.md'), 'Packages rules PKG-MARK-2.\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'CLAUDE.md'), 'API rules API-MARK-3. See @docs/style.md\nKey: @~/.ssh/id_rsa\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'CLAUDE.local.md'), 'Local API notes LOCAL-MARK-5.\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'docs', 'style.md'), 'Imported style STYLE-MARK-4.\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'src', 'x.ts'), 'export const x = 1;\n');
    writeFileSync(path.join(s.cwd, 'packages', 'api', 'src', 'y.ts'), 'export const y = 2;\n');
    mkdirSync(path.join(s.cwd, 'tools', 'gen'), { recursive: true });
    writeFileSync(path.join(s.cwd, 'tools', 'AGENTS.md'), 'Tools rules TOOLS-MARK-6.\n');
    mkdirSync(path.join(s.home, '.ssh'));
    writeFileSync(path.join(s.home, '.ssh', 'id_rsa'), 'SECRET-KEY-9\n');

    const r = await s.run(['-p', 'look', '--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    const first = toolResultOf(s.requests, 'r1').content;
    expect(first).toContain('export const x = 1;');
    expect(first).toContain('PKG-MARK-2');
    expect(first).toContain('API-MARK-3');
    expect(first).toContain('STYLE-MARK-4');
    expect(first).toContain('LOCAL-MARK-5');
    expect(first).toContain('<system-reminder>');
    expect(first).toContain(path.join(s.cwd, 'packages', 'api', 'CLAUDE.md'));
    // Outer folder first, then the inner one, then its import.
    expect(first.indexOf('PKG-MARK-2')).toBeLessThan(first.indexOf('API-MARK-3'));
    expect(first.indexOf('API-MARK-3')).toBeLessThan(first.indexOf('STYLE-MARK-4'));
    expect(first).not.toContain('ROOT-MARK-1'); // the root's is in the system prompt already
    expect(first).not.toContain('SECRET-KEY-9');
    expect(r.stderr).toContain('@~/.ssh/id_rsa is not imported: it is outside the project');
    // Once per session: the next read in the same folder, and a root file, add nothing.
    expect(toolResultOf(s.requests, 'r2').content).not.toContain('API-MARK-3');
    expect(toolResultOf(s.requests, 'r2').content).not.toContain('<system-reminder>');
    expect(toolResultOf(s.requests, 'r3').content).not.toContain('<system-reminder>');
    // A write under a folder with an AGENTS.md brings it.
    expect(toolResultOf(s.requests, 'w1').content).toContain('TOOLS-MARK-6');
    // The stable prefix is byte-identical across the turns and never holds a nested file.
    const systems = s.requests.map((request) => JSON.stringify(request.body.system));
    expect(new Set(systems).size).toBe(1);
    expect(systems[0]).toContain('ROOT-MARK-1');
    for (const mark of ['PKG-MARK-2', 'API-MARK-3', 'STYLE-MARK-4', 'TOOLS-MARK-6']) expect(systems[0]).not.toContain(mark);
  });
}, 60_000);

test('a nested CLAUDE.md the read rules deny is not loaded; a folder read loaded is not loaded again by an edit', async () => {
  const turns = [
    { toolCalls: [{ id: 'r1', name: 'read_file', input: { file_path: 'secret/a.txt' } }, { id: 'r2', name: 'read_file', input: { file_path: 'lib/deep/b.txt' } }] },
    { toolCalls: [{ id: 'e1', name: 'edit_file', input: { file_path: 'lib/deep/b.txt', old_string: 'old', new_string: 'new' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    mkdirSync(path.join(s.cwd, 'secret'));
    writeFileSync(path.join(s.cwd, 'secret', 'CLAUDE.md'), 'DENIED-MARK-7\n');
    writeFileSync(path.join(s.cwd, 'secret', 'a.txt'), 'plain\n');
    mkdirSync(path.join(s.cwd, 'lib', 'deep'), { recursive: true });
    writeFileSync(path.join(s.cwd, 'lib', 'deep', 'CLAUDE.md'), 'Deep rules DEEP-MARK-8.\n');
    writeFileSync(path.join(s.cwd, 'lib', 'deep', 'b.txt'), 'old\n');
    mkdirSync(path.join(s.home, '.claude'));
    writeFileSync(path.join(s.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(secret/CLAUDE.md)'] } }));

    const r = await s.run(['-p', 'look', '--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    expect(toolResultOf(s.requests, 'r1').content).toContain('plain');
    expect(JSON.stringify(s.requests.map((request) => request.body))).not.toContain('DENIED-MARK-7');
    expect(toolResultOf(s.requests, 'r2').content).toContain('DEEP-MARK-8');
    expect(toolResultOf(s.requests, 'e1').content).not.toContain('DEEP-MARK-8');
  });
}, 60_000);
