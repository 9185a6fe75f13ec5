/**
 * The file tools take Claude Code's field names (`file_path`, `offset`, `limit`, `content`,
 * `old_string`, `new_string`, `replace_all`), accept the older `path`, and a wrong or missing
 * field is an input error naming the field, never a permission denial. Through the built CLI.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

/**
 * These hooks are the user's own, run as Claude Code runs them: on the host, in a project the
 * user trusts (in an untrusted one they run in the OS sandbox, test/plugins/hooks/untrusted-project.test.ts).
 */
const trustedScenario: typeof scenario = (turns, body, protocol) =>
  scenario(turns, (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    return body(s);
  }, protocol);

const results = (body: any): any[] => (body.messages.at(-1).content as any[]).filter((b) => b.type === 'tool_result');

test('the tool definitions name file_path, and every file tool runs with it (and with the older path)', async () => {
  const turns = [
    {
      toolCalls: [
        { id: 'r1', name: 'read_file', input: { file_path: 'notes.txt', offset: 2, limit: 1 } },
        { id: 'r2', name: 'read_file', input: { path: 'notes.txt' } },
      ],
    },
    {
      toolCalls: [
        { id: 'w1', name: 'write_file', input: { file_path: 'new.txt', content: 'fresh\n' } },
        { id: 'e1', name: 'edit_file', input: { path: 'notes.txt', old_string: 'two', new_string: 'TWO' } },
      ],
    },
    { toolCalls: [{ id: 'e2', name: 'edit_file', input: { file_path: 'new.txt', old_string: 'fresh', new_string: 'FRESH', replace_all: true } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    writeFileSync(path.join(s.cwd, 'notes.txt'), 'one\ntwo\nthree\n');
    const run = await s.run(['-p', 'go', '--permission-mode', 'acceptEdits']);
    expect(run.code).toBe(0);
    const tools = Object.fromEntries((s.requests[0]!.body.tools as any[]).map((t) => [t.name, t.input_schema]));
    for (const name of ['read_file', 'write_file', 'edit_file']) {
      expect(tools[name].required).toContain('file_path');
      expect(tools[name].properties.path).toBeUndefined();
    }
    const [window, whole] = results(s.requests[1]!.body);
    expect(window).toMatchObject({ is_error: false });
    expect(window.content).toMatch(/^\s+2\ttwo(\n|$)/);
    expect(window.content).not.toContain('three');
    expect(whole.content).toContain('3\tthree');
    expect(results(s.requests[2]!.body).map((r) => r.is_error)).toEqual([false, false]);
    expect(results(s.requests[3]!.body).map((r) => r.is_error)).toEqual([false]);
    expect(readFileSync(path.join(s.cwd, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(path.join(s.cwd, 'new.txt'), 'utf8')).toBe('FRESH\n');
  });
});

test('a missing or misnamed field is an input error that names the field, not a permission denial', async () => {
  const turns = [
    {
      toolCalls: [
        { id: 'a', name: 'read_file', input: { filename: 'notes.txt' } },
        { id: 'b', name: 'write_file', input: { file_path: 'x.txt', text: 'hi' } },
        { id: 'c', name: 'edit_file', input: { file_path: 'notes.txt', old_str: 'one', new_string: '1' } },
        { id: 'd', name: 'read_file', input: { file_path: 'notes.txt', path: 'other.txt' } },
        { id: 'e', name: 'read_file', input: { file_path: 'notes.txt', offset: 'two' } },
      ],
    },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    writeFileSync(path.join(s.cwd, 'notes.txt'), 'one\n');
    expect((await s.run(['-p', 'go', '--permission-mode', 'acceptEdits'])).code).toBe(0);
    const [a, b, c, d, e] = results(s.requests[1]!.body);
    for (const r of [a, b, c, d, e]) {
      expect(r.is_error).toBe(true);
      expect(r.content).not.toMatch(/Permission denied/);
    }
    expect(a.content).toMatch(/^Invalid arguments for read_file: "file_path" is required/);
    expect(b.content).toMatch(/^Invalid arguments for write_file: "content" is required/);
    expect(c.content).toMatch(/^Invalid arguments for edit_file: "old_string" is required/);
    expect(d.content).toMatch(/^Invalid arguments for read_file: "file_path" and "path" \(its older name\) give different values/);
    expect(e.content).toMatch(/^Invalid arguments for read_file: "offset" must be an integer/);
    expect(existsSync(path.join(s.cwd, 'x.txt'))).toBe(false);
  });
});

test('either field name: a path outside the project is still refused by the sandbox, and hooks see tool_input.file_path', async () => {
  const outside = tempDir('mewcode-outside-');
  const turns = [
    {
      toolCalls: [
        { id: 'w1', name: 'write_file', input: { file_path: path.join(outside, 'a.txt'), content: 'x' } },
        { id: 'w2', name: 'write_file', input: { path: path.join(outside, 'b.txt'), content: 'x' } },
        { id: 'w3', name: 'edit_file', input: { path: path.join(outside, 'c.txt'), old_string: '', new_string: 'x' } },
      ],
    },
    { text: 'done' },
  ];
  await trustedScenario(turns, async (s) => {
    const log = path.join(s.home, 'pre.log');
    const hook = path.join(s.home, 'pre.py');
    writeFileSync(hook, `import json, sys\np = json.load(sys.stdin)\nopen(${JSON.stringify(log)}, 'a').write(p["tool_name"] + " " + p["tool_input"]["file_path"] + "\\n")\n`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: `python3 ${hook}` }] }] } }));
    expect((await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'])).code).toBe(0);
    for (const r of results(s.requests[1]!.body)) {
      expect(r.is_error).toBe(true);
      expect(r.content).toMatch(/^Permission denied by permission-sandbox: .* is outside the project/);
    }
    for (const name of ['a.txt', 'b.txt', 'c.txt']) expect(existsSync(path.join(outside, name))).toBe(false);
    expect(readFileSync(log, 'utf8').trim().split('\n').sort()).toEqual([`Edit ${path.join(outside, 'c.txt')}`, `Write ${path.join(outside, 'a.txt')}`, `Write ${path.join(outside, 'b.txt')}`]);
  });
});
