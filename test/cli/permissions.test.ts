/**
 * Issue 4 acceptance through the real CLI and the scripted server. Only harmless commands are
 * used: GNU `rm -rf /` refuses without --no-preserve-root, and HOME is a temporary directory.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(async () => {
  await prepareCli();
});
afterAll(() => removeTempDirs());

function lastToolResult(body: any): { content: string; is_error?: boolean } {
  const block = body.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
  return { content: typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text).join(''), is_error: block.is_error };
}

function auditLines(cwd: string): any[] {
  return readFileSync(join(cwd, '.mewcode', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

const writeCall = { toolCalls: [{ id: 'call_w', name: 'write_file', input: { path: 'new.txt', content: 'hello\n' } }] };
const bashCall = (command: string) => ({ toolCalls: [{ id: 'call_b', name: 'bash', input: { command } }] });

/** The user's `sandbox: false`: bash asks again as it does where no OS sandbox holds the boundary. */
function sandboxOff(home: string): void {
  mkdirSync(join(home, '.mewcode'), { recursive: true });
  writeFileSync(join(home, '.mewcode', 'settings.yaml'), 'sandbox: false\n');
}

test('default mode: a write is denied with guidance naming the rule and the flag; the audit log records it', async () => {
  await scenario([writeCall, { text: 'ok' }], async (s) => {
    const r = await s.run(['-p', 'write a file', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const result = lastToolResult(s.requests[1]!.body);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('write_file needs approval');
    expect(result.content).toContain('--allowedTools');
    expect(result.content).toContain('--permission-mode acceptEdits');
    expect(existsSync(join(s.cwd, 'new.txt'))).toBe(false);
    const decisions = auditLines(s.cwd).filter((l) => l.type === 'decision');
    expect(decisions).toEqual([expect.objectContaining({ tool: 'write_file', tool_call_id: 'call_w', layer: 'permission-mode', verdict: 'ask', allowed: false })]);
    // The start's trust decision is recorded too (its write waits for the first decision).
    expect(auditLines(s.cwd).filter((l) => l.type === 'trust')).toEqual([expect.objectContaining({ trusted: false, source: 'none' })]);
  });
});

test('a run that makes no decision still records the trust decision before it exits', async () => {
  await scenario([{ text: 'just text' }], async (s) => {
    const r = await s.run(['-p', 'hi', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(auditLines(s.cwd).map((l) => l.type)).toEqual(['trust']);
  });
});

test('acceptEdits: the write runs; bash still needs approval and is denied', async () => {
  await scenario([writeCall, bashCall('echo hi'), { text: 'done' }], async (s) => {
    sandboxOff(s.home);
    const r = await s.run(['-p', 'write then run', '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.cwd, 'new.txt'), 'utf8')).toBe('hello\n');
    expect(lastToolResult(s.requests[1]!.body)).toMatchObject({ content: expect.stringContaining('Wrote 6 bytes (1 line) to new.txt') });
    const bash = lastToolResult(s.requests[2]!.body);
    expect(bash.is_error).toBe(true);
    expect(bash.content).toContain('bash needs approval');
    const audit = auditLines(s.cwd);
    expect(audit.filter((l) => l.type === 'decision').map((l) => [l.tool, l.layer, l.verdict, l.allowed])).toEqual([
      ['write_file', 'permission-mode', 'allow', true],
      ['bash', 'permission-mode', 'ask', false],
    ]);
    expect(audit.filter((l) => l.type === 'executed')).toEqual([expect.objectContaining({ tool: 'write_file', tool_call_id: 'call_w', is_error: false })]);
  });
});

test('bypassPermissions: rm -rf / is still blocked by the blacklist, also inside a compound command', async () => {
  await scenario([bashCall('git status && rm -rf /'), { text: 'blocked' }], async (s) => {
    const r = await s.run(['-p', 'clean up', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    const result = lastToolResult(s.requests[1]!.body);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('Permission denied by permission-blacklist');
    expect(auditLines(s.cwd).find((l) => l.type === 'decision')).toMatchObject({ tool: 'bash', layer: 'permission-blacklist', verdict: 'deny' });
  });
});

test('bypassPermissions: a project deny rule on Read(secret.txt) holds; the sandbox holds too', async () => {
  const turns = [
    { toolCalls: [{ id: 'call_secret', name: 'read_file', input: { path: 'secret.txt' } }, { id: 'call_outside', name: 'read_file', input: { path: '/etc/hostname' } }, { id: 'call_ok', name: 'read_file', input: { path: 'public.txt' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    mkdirSync(join(s.cwd, '.mewcode'));
    writeFileSync(join(s.cwd, '.mewcode', 'settings.yaml'), 'permissions:\n  deny:\n    - Read(secret.txt)\n');
    writeFileSync(join(s.cwd, 'secret.txt'), 'TOP SECRET\n');
    writeFileSync(join(s.cwd, 'public.txt'), 'public\n');
    const r = await s.run(['-p', 'read them', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    const results = s.requests[1]!.body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result');
    expect(results.map((b: any) => [b.tool_use_id, b.is_error === true])).toEqual([
      ['call_secret', true],
      ['call_outside', true],
      ['call_ok', false],
    ]);
    expect(JSON.stringify(s.requests[1]!.body)).not.toContain('TOP SECRET');
    const layers = auditLines(s.cwd).filter((l) => l.type === 'decision').map((l) => [l.tool_call_id, l.layer, l.verdict]);
    expect(layers).toEqual([
      ['call_secret', 'permission-rules:project', 'deny'],
      ['call_outside', 'permission-sandbox', 'deny'],
      ['call_ok', 'permission-mode', 'allow'],
    ]);
  });
});

test('--allowedTools allows exactly the named command for the session', async () => {
  await scenario([bashCall('echo allowed'), bashCall('echo other'), { text: 'done' }], async (s) => {
    sandboxOff(s.home);
    const r = await s.run(['-p', 'run', '--output-format', 'json', '--allowedTools', 'Bash(echo allowed)']);
    expect(r.code).toBe(0);
    expect(lastToolResult(s.requests[1]!.body).content).toBe('exit_code: 0\nallowed');
    expect(lastToolResult(s.requests[2]!.body)).toMatchObject({ is_error: true, content: expect.stringContaining('bash needs approval') });
  });
});

test('a Read deny on a file holds for grep and glob over its directory too', async () => {
  const turns = [
    { toolCalls: [{ id: 'call_grep', name: 'grep', input: { pattern: 'TOKEN' } }, { id: 'call_glob', name: 'glob', input: { pattern: '**/*.txt' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    mkdirSync(join(s.cwd, '.mewcode'));
    writeFileSync(join(s.cwd, '.mewcode', 'settings.yaml'), 'permissions:\n  deny:\n    - Read(secret.txt)\n');
    writeFileSync(join(s.cwd, 'secret.txt'), 'TOKEN=hunter2\n');
    writeFileSync(join(s.cwd, 'public.txt'), 'TOKEN=public\n');
    const r = await s.run(['-p', 'search', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    const results = s.requests[1]!.body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result');
    const text = (id: string): string => results.find((b: any) => b.tool_use_id === id).content;
    expect(text('call_grep')).toBe('public.txt:1: TOKEN=public');
    expect(text('call_glob')).toBe('public.txt');
    expect(JSON.stringify(s.requests[1]!.body)).not.toContain('hunter2');
  });
});

test("an untrusted project's ask rule does not turn the user's deny into a question: the user's deny decides", async () => {
  const turns = [
    { toolCalls: [{ id: 'call_read', name: 'read_file', input: { path: 'secret.txt' } }, { id: 'call_curl', name: 'bash', input: { command: 'curl -s http://127.0.0.1:9/x' } }] },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    const userSettings = join(s.home, '.mewcode', 'settings.yaml');
    mkdirSync(join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(userSettings, 'permissions:\n  deny: ["Read(./secret.txt)", "Bash(curl:*)"]\n');
    // The repository's own file (never trusted here): asks about exactly what the user denies.
    mkdirSync(join(s.cwd, '.mewcode'));
    writeFileSync(join(s.cwd, '.mewcode', 'settings.yaml'), 'permissions:\n  ask: ["Read(./secret.txt)", "Bash(curl:*)"]\n');
    writeFileSync(join(s.cwd, 'secret.txt'), 'TOP SECRET\n');
    const r = await s.run(['-p', 'read it', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const results = s.requests[1]!.body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result');
    const text = (b: any): string => (typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text).join(''));
    expect(results.map((b: any) => b.tool_use_id)).toEqual(['call_read', 'call_curl']);
    for (const [result, rule] of [[results[0], 'Read(./secret.txt)'], [results[1], 'Bash(curl:*)']] as const) {
      expect(result.is_error).toBe(true);
      expect(text(result)).toContain(`deny user rule (${userSettings}:2:`);
      expect(text(result)).toContain(`"${rule}"`);
      // not a question headless mode refuses (with an invitation to allow it), nor the project's rule
      expect(text(result)).not.toContain('needs approval');
      expect(text(result)).not.toContain('project rule');
    }
    expect(JSON.stringify(s.requests[1]!.body)).not.toContain('TOP SECRET');
    const decisions = auditLines(s.cwd).filter((l) => l.type === 'decision').map((l) => [l.tool_call_id, l.layer, l.verdict, l.allowed]);
    expect(decisions).toEqual([
      ['call_read', 'permission-rules:user', 'deny', false],
      ['call_curl', 'permission-rules:user', 'deny', false],
    ]);
  });
});
