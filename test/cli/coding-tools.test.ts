/**
 * Issue 3 acceptance through the real CLI and the scripted server: the model reads a file,
 * edits it, runs a command that shows the change, and answers. The file changes on disk and
 * the tool results come back in the documented formats.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(async () => {
  await prepareCli();
});
afterAll(() => removeTempDirs());

function toolResultText(body: any, protocol: 'anthropic' | 'openai'): string {
  if (protocol === 'openai') return body.messages.filter((m: any) => m.role === 'tool').at(-1).content;
  const last = body.messages.at(-1);
  const block = last.content.find((b: any) => b.type === 'tool_result');
  return typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text).join('');
}

describe.each(['anthropic', 'openai'] as const)('read_file → edit_file → bash → answer (%s)', (protocol) => {
  test('changes the file on disk and returns results in the documented formats', async () => {
    const turns = [
      { toolCalls: [{ id: 'call_read', name: 'read_file', input: { path: 'greet.txt' } }] },
      { toolCalls: [{ id: 'call_edit', name: 'edit_file', input: { file_path: 'greet.txt', old_string: 'hello', new_string: 'goodbye' } }] },
      { toolCalls: [{ id: 'call_bash', name: 'bash', input: { command: 'cat greet.txt', description: 'Show the file' } }] },
      { text: 'The file now says goodbye world.' },
    ];
    await scenario(
      turns,
      async (s) => {
        writeFileSync(join(s.cwd, 'greet.txt'), 'hello world\nsecond line\n');
        const r = await s.run(['-p', 'change hello to goodbye', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
        expect(r.stderr).not.toContain('warning');
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, result: 'The file now says goodbye world.', num_turns: 4 });
        expect(readFileSync(join(s.cwd, 'greet.txt'), 'utf8')).toBe('goodbye world\nsecond line\n');

        const bodies = s.requests.map((q) => q.body);
        expect(bodies).toHaveLength(4);
        expect(toolResultText(bodies[1], protocol)).toMatch(/^ {5}1\thello world\n {5}2\tsecond line/);
        expect(toolResultText(bodies[2], protocol)).toContain('goodbye');
        expect(toolResultText(bodies[3], protocol)).toMatch(/^exit_code: 0\ngoodbye world\nsecond line/);
        // The built-in tools (then the skill and sub-agent tools) are offered, in a stable order, on every request.
        const names = (b: any): string[] => (protocol === 'anthropic' ? b.tools.map((t: any) => t.name) : b.tools.map((t: any) => t.function.name));
        expect(names(bodies[0])).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'todo_write', 'load_skill', 'install_skill', ...SUBAGENT_TOOLS]);
        expect(JSON.stringify(bodies[3].tools)).toBe(JSON.stringify(bodies[0].tools));
      },
      protocol,
    );
  });
});

/** The subagents plugin's tools: delegating changes nothing by itself (a sub-agent runs in the parent's mode). */
const SUBAGENT_TOOLS = ['agent', 'task_list', 'task_output', 'task_message', 'task_stop'];

test('plan mode offers only the read-only tools', async () => {
  await scenario([{ text: 'A plan.' }], async (s) => {
    const r = await s.run(['-p', 'plan', '--output-format', 'json', '--permission-mode', 'plan']);
    expect(r.code).toBe(0);
    expect(s.requests[0]!.body.tools.map((t: any) => t.name)).toEqual(['read_file', 'glob', 'grep', 'todo_write', 'load_skill', ...SUBAGENT_TOOLS]);
  });
});
