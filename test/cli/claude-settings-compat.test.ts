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

// Claude Code's own settings files: `~/.claude/settings.json` (user), `.claude/settings.json`
// (project) and `.claude/settings.local.json` (local) hold hooks and permission rules that apply
// as in Claude Code, beside MewCode's own settings files and under the same trust rules.

function claudeSettings(dir: string, name: string, value: unknown): string {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  const file = join(dir, '.claude', name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

const blockHook = (matcher: string, word: string) => ({ PreToolUse: [{ matcher, hooks: [{ type: 'command', command: `echo "${word}" >&2; exit 2` }] }] });

test(".claude/settings.json: its deny rule holds in an untrusted project; ~/.claude/settings.json's exit-2 PreToolUse hook blocks", async () => {
  const turns = [
    { toolCalls: [{ id: 'call_env', name: 'read_file', input: { file_path: '.env' } }] },
    { toolCalls: [{ id: 'call_b', name: 'bash', input: { command: 'touch made-by-bash' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    claudeSettings(s.cwd, 'settings.json', { permissions: { deny: ['Read(./.env)'] } });
    claudeSettings(s.home, 'settings.json', { hooks: blockHook('Bash', 'user hook says no') });
    writeFileSync(join(s.cwd, '.env'), 'SECRET=1\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    const [denied] = toolResults(s.requests[1]!.body);
    expect(denied).toMatchObject({ is_error: true, content: expect.stringContaining(join('.claude', 'settings.json')) });
    expect(denied!.content).not.toContain('SECRET');
    const [blocked] = toolResults(s.requests[2]!.body);
    expect(blocked).toMatchObject({ is_error: true, content: expect.stringContaining('user hook says no') });
    expect(existsSync(join(s.cwd, 'made-by-bash'))).toBe(false);
  });
});

test('.claude/settings.json: a project hook does not run untrusted (the trust notice lists it) and runs trusted', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const marker = join(s.cwd, 'hook-ran');
    claudeSettings(s.cwd, 'settings.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] }, permissions: { allow: ['Bash(touch *)'] } });
    const untrusted = await s.run(['-p', 'hi']);
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.stderr).toContain('.claude/settings.json: hooks');
    expect(untrusted.stderr).toContain('.claude/settings.json: permissions.allow');
    s.server.push({ text: 'ok' });
    const trusted = await s.run(['-p', 'hi', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

test('.claude/settings.local.json over .claude/settings.json: its defaultMode decides (both need trust)', async () => {
  const turns = [{ toolCalls: [{ id: 'call_w', name: 'write_file', input: { file_path: 'notes.md', content: 'hi\n' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    claudeSettings(s.cwd, 'settings.json', { permissions: { defaultMode: 'plan' } });
    claudeSettings(s.cwd, 'settings.local.json', { permissions: { defaultMode: 'acceptEdits' } });
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--trust-project']);
    expect(r.code).toBe(0);
    expect(toolResults(s.requests[1]!.body).map((x) => x.is_error ?? false)).toEqual([false]);
    expect(existsSync(join(s.cwd, 'notes.md'))).toBe(true);
  });
});

test('mewcode hooks and doctor list the Claude settings files; keys MewCode has no equivalent for are named once', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const user = claudeSettings(s.home, 'settings.json', { model: 'opus', env: { FOO: '1' }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user-stop' }] }] } });
    const project = claudeSettings(s.cwd, 'settings.json', { $schema: 'https://json.schemastore.org/claude-code-settings.json', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project-stop' }] }] } });
    const run = await s.run(['-p', 'hi']);
    expect(run.code).toBe(0);
    const notices = run.stderr.split('\n').filter((line) => line.includes('no equivalent'));
    expect(notices).toEqual([expect.stringContaining(`${user}: env, model`)]);
    const list = await s.run(['hooks']);
    expect(list.stdout).toContain(`${user} (user, your own file)`);
    expect(list.stdout).toMatch(/ {2}Stop: echo user-stop\n/);
    expect(list.stdout).toContain(`${project} (project, untrusted: its hooks do not run`);
    const doctor = await s.run(['doctor']);
    expect(doctor.stdout).toMatch(/^ok +settings +user file ~\/\.claude\/settings\.json \(Claude Code's: its hooks and permissions\)$/m);
    expect(doctor.stdout).toMatch(/^ok +settings +project file \.claude\/settings\.json \(Claude Code's/m);
    expect(doctor.stdout).toContain('.claude/settings.json: hooks');
  });
});

test('Claude settings files with only hooks and permissions: no notice about other keys', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    claudeSettings(s.home, 'settings.json', { permissions: { deny: ['Read(./x)'] } });
    const r = await s.run(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
