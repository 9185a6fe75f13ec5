// Sub-agents seen from `mewcode -p` (issue 14, visibility): every stream-json line says which agent
// it is about (agent_id, parent_agent_id), a sub-agent's end is a `subagent_result` line, and the
// result object sums usage per agent and in total.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const AGENT_ID = /^agent-[0-9a-f]{8}$/;

const turns = [
  { toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { description: 'summarise', prompt: 'Summarise notes.txt', subagent_type: 'explore' } }], usage: { input: 100, output: 10 } },
  { toolCalls: [{ id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } }], usage: { input: 40, output: 4 } },
  { text: 'Notes are about cats.', usage: { input: 50, output: 6 } },
  { text: 'They are about cats.', usage: { input: 120, output: 8 } },
];

test('stream-json tags each line with its agent; the result object has usage per agent and in total', async () => {
  await scenario(turns, async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'cats\n');
    const r = await s.run(['-p', 'what are the notes about?', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const sub = lines.filter((l) => l.agent_id !== undefined && l.agent_id !== 'main');
    expect(sub.length).toBeGreaterThan(0);
    const childId = sub[0].agent_id;
    expect(childId).toMatch(AGENT_ID);
    for (const line of sub) expect(line).toMatchObject({ agent_id: childId, parent_agent_id: 'main' });
    // The sub-agent's own tool call and its text are its lines, not the main agent's.
    expect(sub.find((l) => l.type === 'tool_use')).toMatchObject({ name: 'read_file' });
    expect(sub.filter((l) => l.type === 'text_delta').map((l) => l.text).join('')).toBe('Notes are about cats.');
    expect(sub.at(-1)).toMatchObject({ type: 'subagent_result', result: 'Notes are about cats.', subagent_type: 'explore', description: 'summarise', is_error: false, num_turns: 2 });
    const main = lines.filter((l) => l.agent_id === 'main');
    expect(main.find((l) => l.type === 'tool_use')).toMatchObject({ name: 'agent' });
    expect(main.every((l) => l.parent_agent_id === undefined)).toBe(true);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: 'result', result: 'They are about cats.', is_error: false });
    expect(result.usage_by_agent).toEqual({
      main: { input_tokens: 220, output_tokens: 18, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      [childId]: { input_tokens: 90, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(result.usage).toEqual({ input_tokens: 310, output_tokens: 28, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});

test('json: without sub-agents the total is the main agent\'s', async () => {
  await scenario([{ text: 'hi', usage: { input: 5, output: 2 } }], async (s) => {
    const r = await s.run(['-p', 'hi', '--output-format', 'json']);
    const result = singleJsonObject(r.stdout);
    expect(result.usage).toMatchObject({ input_tokens: 5, output_tokens: 2 });
    expect(result.usage_by_agent).toEqual({ main: result.usage });
  });
});

test('a project\'s .claude/agents definition is used only once the project is trusted; until then the trust notice names it', async () => {
  await scenario([{ text: 'one' }, { text: 'two' }], async (s) => {
    mkdirSync(join(s.cwd, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(s.cwd, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews diffs for bugs\ntools: Read, Grep\n---\nYou review diffs.\n');
    const agentDescription = (index: number): string => s.requests[index]!.body.tools.find((t: any) => t.name === 'agent').description;
    const untrusted = await s.run(['-p', 'hi']);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('.claude/agents/reviewer.md: agents');
    expect(agentDescription(0)).not.toContain('reviewer');
    const trusted = await s.run(['-p', 'hi', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(agentDescription(1)).toContain('- reviewer: Reviews diffs for bugs');
  });
});
