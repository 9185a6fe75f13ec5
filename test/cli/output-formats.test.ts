// `mewcode -p` output formats (U2): json result object, text, stream-json; thinking never
// leaks into the answer.
import { prepareCli, removeTempDirs, scenario, singleJsonObject, SESSION_ID_RE } from './helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

describe('--output-format json', () => {
  test.concurrent('Anthropic: one result object with the scripted text, turns, duration, session id and usage', async () => {
    await scenario([{ text: 'The answer is 42.', usage: { input: 11, output: 7, cacheWrite: 3, cacheRead: 5 } }], async (s) => {
      const r = await s.run(['-p', 'hi', '--output-format', 'json']);
      expect(r.code).toBe(0);
      const result = singleJsonObject(r.stdout);
      expect(result).toMatchObject({
        type: 'result',
        is_error: false,
        result: 'The answer is 42.',
        num_turns: 1,
        usage: { input_tokens: 11, output_tokens: 7, cache_creation_input_tokens: 3, cache_read_input_tokens: 5 },
      });
      expect(Object.keys(result.usage).sort()).toEqual(['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens']);
      expect(typeof result.duration_ms).toBe('number');
      expect(result.duration_ms).toBeGreaterThanOrEqual(0);
      expect(result.session_id).toMatch(SESSION_ID_RE);
      // the request really went to the Anthropic endpoint with the prompt
      expect(s.requests).toHaveLength(1);
      expect(s.requests[0]!.path).toBe('/v1/messages');
      expect(s.requests[0]!.body.messages[0].content).toEqual([{ type: 'text', text: 'hi' }]);
    });
  });

  test.concurrent('OpenAI: the same shape; cached_tokens map to cache_read_input_tokens, uncached input only in input_tokens', async () => {
    await scenario(
      [{ text: 'Open answer.', usage: { input: 11, output: 7, cacheRead: 5 } }],
      async (s) => {
        const r = await s.run(['-p', 'hi', '--output-format', 'json']);
        expect(r.code).toBe(0);
        const result = singleJsonObject(r.stdout);
        expect(result).toMatchObject({
          type: 'result',
          is_error: false,
          result: 'Open answer.',
          num_turns: 1,
          // the wire says prompt_tokens 16 with prompt_tokens_details.cached_tokens 5
          usage: { input_tokens: 11, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 5 },
        });
        expect(result.session_id).toMatch(SESSION_ID_RE);
        expect(typeof result.duration_ms).toBe('number');
        expect(s.requests).toHaveLength(1);
        expect(s.requests[0]!.path).toBe('/v1/chat/completions');
        expect(s.requests[0]!.body.model).toBe('x');
      },
      'openai',
    );
  });

  test.concurrent('num_turns counts the iterations of a run with a tool round', async () => {
    await scenario([{ toolCalls: [{ name: 'no_such_tool', input: {} }] }, { text: 'done' }], async (s) => {
      const r = await s.run(['-p', 'go', '--output-format', 'json']);
      expect(r.code).toBe(0);
      const result = singleJsonObject(r.stdout);
      expect(result).toMatchObject({ is_error: false, result: 'done', num_turns: 2 });
      // usage is the sum of both requests (defaults: input 100, output 20 each)
      expect(result.usage).toMatchObject({ input_tokens: 200, output_tokens: 40 });
    });
  });
});

describe('thinking never reaches the answer', () => {
  const SECRET = 'PRIVATE-CHAIN-OF-THOUGHT-7f3a';

  test.concurrent('Anthropic thinking block + text: json result and text stdout hold only the text', async () => {
    const turn = { thinking: { text: `${SECRET} let me think`, signature: 'sig-abc' }, text: 'Final answer.' };
    await scenario([turn, turn], async (s) => {
      const [json, text] = await Promise.all([s.run(['-p', 'q', '--output-format', 'json']), s.run(['-p', 'q'])]);
      expect(json.code).toBe(0);
      const result = singleJsonObject(json.stdout);
      expect(result.result).toBe('Final answer.');
      expect(json.stdout).not.toContain(SECRET);
      expect(text.code).toBe(0);
      expect(text.stdout).toBe('Final answer.\n');
      // sanity: the server really sent thinking on both streams
      expect(s.requests).toHaveLength(2);
    });
  });

  test.concurrent('OpenAI reasoning_content + text: json result and text stdout hold only the text', async () => {
    const turn = { thinking: { text: `${SECRET} reasoning`, signature: '' }, text: 'Reasoned answer.' };
    await scenario(
      [turn, turn],
      async (s) => {
        const [json, text] = await Promise.all([s.run(['-p', 'q', '--output-format', 'json']), s.run(['-p', 'q'])]);
        expect(json.code).toBe(0);
        expect(singleJsonObject(json.stdout).result).toBe('Reasoned answer.');
        expect(json.stdout).not.toContain(SECRET);
        expect(text.code).toBe(0);
        expect(text.stdout).toBe('Reasoned answer.\n');
      },
      'openai',
    );
  });
});

describe('--output-format text and stream-json', () => {
  test.concurrent('text (the default) prints just the answer and a newline', async () => {
    await scenario([{ text: ['Hello', ', ', 'world', '!'] }, { text: 'Second.' }], async (s) => {
      const [implicit, explicit] = await Promise.all([s.run(['-p', 'hi']), s.run(['-p', 'hi', '--output-format', 'text'])]);
      for (const r of [implicit, explicit]) {
        expect(r.code).toBe(0);
        expect(['Hello, world!\n', 'Second.\n']).toContain(r.stdout);
      }
      expect(implicit.stdout).not.toBe(explicit.stdout);
    });
  });

  test.concurrent('stream-json: init line first, events, the result object last; every line parses', async () => {
    await scenario(
      [
        { thinking: { text: 'hmm', signature: 's' }, toolCalls: [{ name: 'no_such_tool', input: { a: 1 } }] },
        { text: 'Streamed answer, in several deltas.', usage: { input: 9, output: 4 } },
      ],
      async (s) => {
        const r = await s.run(['-p', 'hi', '--output-format', 'stream-json']);
        expect(r.code).toBe(0);
        expect(r.stdout.endsWith('\n')).toBe(true);
        const lines = r.stdout.slice(0, -1).split('\n');
        const events = lines.map((line) => {
          const value: unknown = JSON.parse(line);
          expect(typeof value).toBe('object');
          expect(Array.isArray(value)).toBe(false);
          return value as Record<string, any>;
        });
        expect(events.length).toBeGreaterThanOrEqual(3);
        const first = events[0]!;
        expect(first).toMatchObject({ type: 'system', subtype: 'init', model: 'x', permission_mode: 'default', cwd: s.cwd });
        expect(first.session_id).toMatch(SESSION_ID_RE);
        const last = events.at(-1)!;
        expect(last).toMatchObject({ type: 'result', is_error: false, result: 'Streamed answer, in several deltas.', num_turns: 2, session_id: first.session_id });
        const middle = events.slice(1, -1);
        expect(middle.some((e) => e.type === 'result' || e.type === 'system')).toBe(false);
        const deltas = middle.filter((e) => e.type === 'text_delta');
        expect(deltas.length).toBeGreaterThan(1);
        expect(deltas.map((e) => e.text).join('')).toBe(last.result);
        expect(middle.some((e) => e.type === 'tool_use' && e.name === 'no_such_tool')).toBe(true);
        expect(middle.some((e) => e.type === 'tool_result' && e.is_error === true)).toBe(true);
        for (const e of events) expect(e.session_id).toBe(first.session_id);
      },
    );
  });
});

test.concurrent("the json result has Claude Code's duration_api_ms: the time spent in model requests, within duration_ms", async () => {
  await scenario([{ delayMs: 400, toolCalls: [{ id: 'toolu_r', name: 'read_file', input: { path: 'notes.txt' } }] }, { delayMs: 400, text: 'read' }], async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'notes\n');
    const r = await s.run(['-p', 'read it', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const result = singleJsonObject(r.stdout);
    expect(typeof result.duration_api_ms).toBe('number');
    expect(result.duration_api_ms).toBeGreaterThanOrEqual(800);
    expect(result.duration_api_ms).toBeLessThanOrEqual(result.duration_ms);
  });
});
