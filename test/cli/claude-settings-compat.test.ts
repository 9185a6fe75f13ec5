/**
 * Claude Code settings habits through the built CLI and the scripted server: a `settings.json`
 * is read by every reader (its deny rules too, not only its `sandbox: false`), a bare tool name in
 * deny takes the tool out of the request, and allow rules look through `timeout`/`nice`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(async () => {
  await prepareCli();
});
afterAll(() => removeTempDirs());

function toolResults(body: any): { content: string; is_error?: boolean }[] {
  return body.messages
    .at(-1)
    .content.filter((b: any) => b.type === 'tool_result')
    .map((b: any) => ({ content: typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text).join(''), is_error: b.is_error }));
}

function userSettings(home: string, name: string, text: string): void {
  mkdirSync(join(home, '.mewcode'), { recursive: true });
  writeFileSync(join(home, '.mewcode', name), text);
}

test('~/.mewcode/settings.json: its deny rule holds beside its sandbox: false', async () => {
  const turns = [{ toolCalls: [{ id: 'call_r', name: 'read_file', input: { file_path: '.env' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    userSettings(s.home, 'settings.json', '{"sandbox": false, "permissions":{"deny":["Read(./.env)"]}}');
    writeFileSync(join(s.cwd, '.env'), 'SECRET=1\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const [result] = toolResults(s.requests[1]!.body);
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('settings.json:1:') });
    expect(result!.content).not.toContain('SECRET');
  });
});

test('a bare tool name in deny: the tool is not offered to the model', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    userSettings(s.home, 'settings.yaml', 'permissions:\n  deny: [Bash]\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--disallowedTools', 'Write']);
    expect(r.code).toBe(0);
    const names = (s.requests[0]!.body as any).tools.map((t: any) => t.name);
    expect(names).toContain('read_file');
    expect(names).not.toContain('bash');
    expect(names).not.toContain('write_file');
  });
});

test('allow rules look through timeout and nice; the wrapped command runs', async () => {
  const turns = [
    { toolCalls: [{ id: 'call_t', name: 'bash', input: { command: 'timeout 5 touch made-by-timeout' } }, { id: 'call_n', name: 'bash', input: { command: 'nice -n 5 touch made-by-nice' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    userSettings(s.home, 'settings.yaml', 'sandbox: false\npermissions:\n  allow: ["Bash(touch:*)"]\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(toolResults(s.requests[1]!.body).map((x) => x.is_error ?? false)).toEqual([false, false]);
    expect(existsSync(join(s.cwd, 'made-by-timeout'))).toBe(true);
    expect(existsSync(join(s.cwd, 'made-by-nice'))).toBe(true);
  });
});
