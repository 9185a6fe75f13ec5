/**
 * Claude Code hook scripts in `~/.claude/settings.json`, run by the built CLI against the scripted
 * model server: Read, Glob and Grep give PostToolUse Claude's `tool_response` shapes; a
 * PostToolUse `updatedToolOutput` is what the model reads; PostToolBatch runs after a turn's calls
 * and its block reason reaches the model; PermissionDenied runs for a call `-p` cannot ask about;
 * a PreToolUse `defer` under `-p` leaves the call to the permission rules, with a warning.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

/** A recorder script (appends its payload to `log`) and, per event, an optional JSON answer. */
function claudeHooks(s: Scenario, log: string, hooks: Record<string, { matcher?: string; answer?: unknown }[]>, permissions: Record<string, unknown> = {}): string {
  const dir = path.join(s.home, '.claude', 'hooks');
  mkdirSync(dir, { recursive: true });
  const script = path.join(dir, 'hook.py');
  writeFileSync(script, ['import json, sys', 'p = json.load(sys.stdin)', `open(${JSON.stringify(log)}, "a").write(json.dumps(p) + "\\n")`, 'if len(sys.argv) > 1: print(sys.argv[1])'].join('\n'));
  const settings = path.join(s.home, '.claude', 'settings.json');
  const quoted = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
  writeFileSync(
    settings,
    JSON.stringify({
      permissions,
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([event, groups]) => [
          event,
          groups.map((group) => ({ ...(group.matcher ? { matcher: group.matcher } : {}), hooks: [{ type: 'command', command: `python3 ${script}${group.answer !== undefined ? ` ${quoted(JSON.stringify(group.answer))}` : ''}` }] })),
        ]),
      ),
    }),
  );
  return settings;
}

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

test("Read, Glob and Grep give PostToolUse Claude Code's tool_response; updatedToolOutput is what the model reads; PostToolBatch's block reaches it", async () => {
  const turns = [
    {
      toolCalls: [
        { id: 'r1', name: 'read_file', input: { file_path: 'src/a.ts' } },
        { id: 'g1', name: 'glob', input: { pattern: 'src/*.ts' } },
        { id: 'g2', name: 'grep', input: { pattern: 'TODO', output_mode: 'files_with_matches' } },
      ],
    },
    { text: 'all done' },
  ];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    mkdirSync(path.join(s.cwd, 'src'));
    writeFileSync(path.join(s.cwd, 'src', 'a.ts'), 'const token = "zq-secret-77";\n// TODO tidy\n');
    writeFileSync(path.join(s.cwd, 'src', 'b.ts'), 'export {};\n');
    const log = path.join(s.home, 'hooks.jsonl');
    claudeHooks(s, log, {
      PostToolUse: [{ matcher: 'Read|Glob|Grep' }, { matcher: 'Read', answer: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'a.ts: 2 lines, token hidden' } } }],
      PostToolBatch: [{ answer: { decision: 'block', reason: 'lint the files you read' } }],
    });
    const result = await s.run(['-p', 'look around']);
    expect(result.code).toBe(0);
    const seen = records(log);
    const post = (tool: string): Record<string, any> => seen.find((payload) => payload.hook_event_name === 'PostToolUse' && payload.tool_name === tool)!;
    expect(post('Read').tool_response).toMatchObject({ type: 'text', file: { filePath: expect.stringMatching(/src\/a\.ts$/), content: 'const token = "zq-secret-77";\n// TODO tidy', numLines: 2, startLine: 1, totalLines: 2 } });
    expect(post('Read').tool_input.file_path).toMatch(/src\/a\.ts$/);
    expect(post('Glob').tool_response).toMatchObject({ filenames: expect.arrayContaining(['src/a.ts', 'src/b.ts']), numFiles: 2, truncated: false, durationMs: expect.any(Number) });
    expect(post('Grep').tool_response).toMatchObject({ mode: 'files_with_matches', filenames: ['src/a.ts'], numFiles: 1 });

    expect(toolResultOf(s.requests, 'r1').content).toBe('a.ts: 2 lines, token hidden');
    const batch = seen.filter((payload) => payload.hook_event_name === 'PostToolBatch');
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatchObject({ session_id: expect.any(String), cwd: expect.any(String), permission_mode: 'default' });
    expect(batch[0]!.tool_calls.map((c: any) => [c.tool_name, c.tool_use_id])).toEqual([['Read', 'r1'], ['Glob', 'g1'], ['Grep', 'g2']]);
    expect(JSON.stringify(s.requests[1]!.body)).toContain('lint the files you read');
    expect(JSON.stringify(s.requests[1]!.body)).not.toContain('zq-secret-77');
  });
}, 60_000);

test('under -p: PermissionDenied runs for a write nobody can approve; a defer leaves the call to the rules, with a warning naming the file', async () => {
  const turns = [
    {
      toolCalls: [
        { id: 'w1', name: 'write_file', input: { file_path: 'notes.txt', content: 'hi' } },
        { id: 'b1', name: 'bash', input: { command: 'echo deferred-ran' } },
      ],
    },
    { text: 'all done' },
  ];
  await scenario(turns, async (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    const log = path.join(s.home, 'hooks.jsonl');
    const settings = claudeHooks(s, log, {
      PermissionDenied: [{ matcher: 'Write' }],
      PreToolUse: [{ matcher: 'Bash', answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } } }],
    }, { allow: ['Bash(echo *)'] });
    const result = await s.run(['-p', 'write and echo']);
    expect(result.code).toBe(0);
    const denied = records(log).filter((payload) => payload.hook_event_name === 'PermissionDenied');
    expect(denied).toEqual([expect.objectContaining({ tool_name: 'Write', tool_use_id: 'w1', tool_input: expect.objectContaining({ file_path: path.join(s.cwd, 'notes.txt') }), reason: expect.any(String), permission_mode: 'default' })]);
    expect(existsSync(path.join(s.cwd, 'notes.txt'))).toBe(false);
    expect(toolResultOf(s.requests, 'b1').content).toContain('deferred-ran');
    expect(result.stderr).toContain('defer');
    expect(result.stderr).toContain(settings);
  });
}, 60_000);
