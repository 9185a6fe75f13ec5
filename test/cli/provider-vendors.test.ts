// Vendors through the built CLI: sessions that move between providers of both protocols (tool ids,
// DeepSeek's reasoning_content), thinking on Chat Completions entries, refusals and content
// filters, answers cut by the output limit or a failure, and the wording of provider errors. The
// scripted server answers in each vendor's shape (ids, reasoning deltas, Azure filter results).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedRequest, ScriptedTurn } from '../scripted-server/index.js';
import { prepareCli, removeTempDirs, scenario, SESSION_ID_RE, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

interface Vendor {
  name: string;
  protocol: 'anthropic' | 'openai';
  model: string;
  /** The tool call ids this vendor's API produces. */
  ids: [string, string];
  extra?: string;
}

/** One entry per vendor, with tool ids of the shape each one streams. */
const VENDORS: Vendor[] = [
  { name: 'claude', protocol: 'anthropic', model: 'claude-sonnet-4-5', ids: ['toolu_01A09q90qw90lq917835lq9', 'toolu_01BkRqzGd7o7s1CMbPpH9XyZ'] },
  { name: 'gpt', protocol: 'openai', model: 'gpt-4.1', ids: ['call_Ajf8XbQeTd2KcMcEjpnyRqV3', 'call_9UqPz1bWcY3tLkR0sNdVxE2h'] },
  { name: 'azure', protocol: 'openai', model: 'gpt-4o', ids: ['call_8VuUMJ5tY7y3QXUdXKHvj0wd', 'call_1aFqWzT6pN3oLcE0rYkBvS8m'] },
  // Kimi numbers its calls `functions.<name>:<n>`: not a valid Anthropic id.
  { name: 'kimi', protocol: 'openai', model: 'kimi-k2-0905-preview', ids: ['functions.glob:0', 'functions.glob:1'] },
  // DeepSeek's ids are longer than the 40 characters api.openai.com accepts.
  { name: 'deepseek', protocol: 'openai', model: 'deepseek-chat', ids: ['call_0_6a3f2b9c-1e4d-4f7a-9b2c-8d5e7f1a3b4c', 'call_1_0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f'] },
  { name: 'groq', protocol: 'openai', model: 'llama-3.3-70b-versatile', ids: ['call_d5wg', 'call_x3nf'] },
  { name: 'grok', protocol: 'openai', model: 'grok-4', ids: ['call_91546839', 'call_20184675'] },
  { name: 'qwen', protocol: 'openai', model: 'qwen-plus', ids: ['call_ea2a5c3e1d2b4f4e6a9c7d0e', 'call_0f1e2d3c4b5a69788796a5b4'] },
  // A local server that numbers calls per answer: the same id every turn.
  { name: 'local', protocol: 'openai', model: 'llama3.1', ids: ['call_0', 'call_0'] },
  // An Anthropic-protocol gateway whose ids another vendor's rules may refuse (long, with a dot).
  { name: 'claude-gw', protocol: 'anthropic', model: 'claude-gw-model', ids: ['gw.toolu.0123456789abcdefghijklmnopqrstuvwxyz0123456789', 'functions_glob_0'] },
];

/** The vendors as `providers:` entries of the user's configuration, all served by the scripted server. */
function writeVendors(s: Scenario, vendors: readonly Vendor[]): void {
  const lines = ['providers:'];
  for (const v of vendors) {
    const url = v.protocol === 'anthropic' ? s.server.url : `${s.server.url}/v1`;
    lines.push(`  - {name: ${v.name}, protocol: ${v.protocol}, model: ${v.model}, api_key: k, base_url: "${url}", max_retries: 0${v.extra ? `, ${v.extra}` : ''}}`);
  }
  mkdirSync(join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(join(s.home, '.mewcode', 'config.yaml'), `${lines.join('\n')}\n`);
}

/** The configuration picks the provider (not the test environment's variables). */
const CONFIGURED = { MEWCODE_PROVIDER: undefined, MEWCODE_MODEL: undefined };

interface IdPairs {
  /** ids of the calls, in history order */
  calls: string[];
  /** [result id, ids of the calls of the assistant message it answers] */
  results: [string, string[]][];
}

function idPairs(request: LoggedRequest): IdPairs {
  const calls: string[] = [];
  const results: [string, string[]][] = [];
  let lastCalls: string[] = [];
  for (const message of request.body.messages as any[]) {
    if (request.protocol === 'anthropic') {
      const blocks: any[] = Array.isArray(message.content) ? message.content : [];
      if (message.role === 'assistant') {
        lastCalls = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id as string);
        calls.push(...lastCalls);
      }
      for (const b of blocks) if (b.type === 'tool_result') results.push([b.tool_use_id, lastCalls]);
    } else {
      if (message.role === 'assistant') {
        lastCalls = (message.tool_calls ?? []).map((c: any) => c.id as string);
        calls.push(...lastCalls);
      }
      if (message.role === 'tool') results.push([message.tool_call_id, lastCalls]);
    }
  }
  return { calls, results };
}

/** What the vendor's API checks: the id syntax, unique ids, every result answering a call of the turn before. */
function expectValidIds(vendor: Vendor, request: LoggedRequest, callsExpected: number): void {
  const { calls, results } = idPairs(request);
  expect(calls).toHaveLength(callsExpected);
  const syntax = vendor.protocol === 'anthropic' ? /^[a-zA-Z0-9_-]+$/ : /^[\x21-\x7e]{1,40}$/;
  for (const id of calls) expect([vendor.name, id, syntax.test(id)]).toEqual([vendor.name, id, true]);
  expect(new Set(calls).size).toBe(calls.length);
  expect(results).toHaveLength(callsExpected);
  for (const [id, answered] of results) expect([vendor.name, answered.includes(id)]).toEqual([vendor.name, true]);
}

describe('a session moved across every vendor', () => {
  test('tool ids are mapped to a form each vendor accepts, stably, and a vendor gets its own ids back', async () => {
    // Each vendor in turn makes two tool calls (one answer each) in the same session; then every
    // vendor is sent the whole history, which holds every other vendor's ids.
    const turns: ScriptedTurn[] = [];
    for (const v of VENDORS) {
      for (const id of v.ids) turns.push({ toolCalls: [{ id, name: 'glob', input: { pattern: '*.md' } }] });
      turns.push({ text: `done on ${v.name}` });
    }
    for (let i = 0; i < VENDORS.length + 2; i++) turns.push({ text: 'ok' });
    await scenario(turns, async (s) => {
      writeVendors(s, VENDORS);
      for (const [i, v] of VENDORS.entries()) {
        const r = await s.run([...(i === 0 ? [] : ['--continue']), '-p', `list on ${v.name}`, '--provider', v.name], { env: CONFIGURED });
        expect([v.name, r.code, r.stderr]).toEqual([v.name, 0, expect.any(String)]);
      }
      const built = s.requests.length;
      for (const v of VENDORS) {
        const r = await s.run(['--continue', '-p', 'check', '--provider', v.name], { env: CONFIGURED });
        expect([v.name, r.code, r.stderr]).toEqual([v.name, 0, expect.any(String)]);
      }
      const checks = s.requests.slice(built);
      const callCount = VENDORS.length * 2;
      VENDORS.forEach((v, i) => expectValidIds(v, checks[i]!, callCount));
      // A vendor's own ids come back unchanged wherever it accepts them (Kimi's after Anthropic's).
      const kimiCheck = idPairs(checks[VENDORS.findIndex((v) => v.name === 'kimi')]!);
      expect(kimiCheck.calls).toEqual(expect.arrayContaining(['functions.glob:0', 'functions.glob:1', 'toolu_01A09q90qw90lq917835lq9']));
      const claudeCheck = idPairs(checks[0]!);
      expect(claudeCheck.calls).toEqual(expect.arrayContaining(['toolu_01A09q90qw90lq917835lq9', 'call_Ajf8XbQeTd2KcMcEjpnyRqV3', 'functions_glob_0']));
      // Stable: the same history maps to the same ids on the next request (the cached prefix holds).
      await s.run(['--continue', '-p', 'again', '--provider', 'claude'], { env: CONFIGURED });
      await s.run(['--continue', '-p', 'again', '--provider', 'kimi'], { env: CONFIGURED });
      const [claudeAgain, kimiAgain] = s.requests.slice(-2);
      expect(idPairs(claudeAgain!).calls).toEqual(claudeCheck.calls);
      expect(idPairs(kimiAgain!).calls).toEqual(kimiCheck.calls);
    });
  }, 120_000);
});

describe('reasoning_content', () => {
  const loop = (thinking: string): ScriptedTurn[] => [
    { thinking: { text: thinking, signature: '' }, toolCalls: [{ id: 'call_0_1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b', name: 'glob', input: { pattern: '*.ts' } }] },
    { thinking: { text: 'Nothing found.', signature: '' }, text: 'No TypeScript files.' },
  ];

  test('deepseek-reasoner gets its reasoning back on the tool loop turn; the prefix stays byte-identical', async () => {
    await scenario([...loop('I should list the files.'), { text: 'ok' }], async (s) => {
      writeVendors(s, [{ name: 'ds', protocol: 'openai', model: 'deepseek-reasoner', ids: ['', ''] }]);
      const r = await s.run(['-p', 'find ts files'], { env: CONFIGURED });
      expect(r.code).toBe(0);
      const second = s.requests[1]!.body.messages as any[];
      const assistant = second.find((m) => m.role === 'assistant');
      expect(assistant.reasoning_content).toBe('I should list the files.');
      expect(assistant.tool_calls).toHaveLength(1);
      const next = await s.run(['--continue', '-p', 'thanks'], { env: CONFIGURED });
      expect(next.code).toBe(0);
      const third = s.requests[2]!.body.messages as any[];
      expect(JSON.stringify(third.slice(0, second.length))).toBe(JSON.stringify(second));
    });
  });

  test('configurable per provider entry: off for a model that needs it, on for one that is not known to', async () => {
    await scenario([...loop('a'), ...loop('b'), ...loop('c')], async (s) => {
      writeVendors(s, [
        { name: 'ds-off', protocol: 'openai', model: 'deepseek-reasoner', ids: ['', ''], extra: 'reasoning_content: false' },
        { name: 'custom-on', protocol: 'openai', model: 'my-reasoner', ids: ['', ''], extra: 'reasoning_content: true' },
        { name: 'plain', protocol: 'openai', model: 'llama-3.3-70b-versatile', ids: ['', ''] },
      ]);
      for (const name of ['ds-off', 'custom-on', 'plain']) expect((await s.run(['-p', 'go', '--provider', name], { env: CONFIGURED })).code).toBe(0);
      const assistantOf = (i: number) => (s.requests[i]!.body.messages as any[]).find((m) => m.role === 'assistant');
      expect('reasoning_content' in assistantOf(1)).toBe(false);
      expect(assistantOf(3).reasoning_content).toBe('b');
      // Groq and others reject fields they do not know: nothing is added for them.
      expect('reasoning_content' in assistantOf(5)).toBe(false);
    });
  });
});

describe('thinking on a Chat Completions entry', () => {
  test('maps to reasoning_effort (by budget), or to Qwen\'s enable_thinking', async () => {
    await scenario([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }], async (s) => {
      writeVendors(s, [
        { name: 'o-low', protocol: 'openai', model: 'o4-mini', ids: ['', ''], extra: 'thinking: {budget_tokens: 2048}' },
        { name: 'o-default', protocol: 'openai', model: 'gpt-5', ids: ['', ''], extra: 'thinking: true' },
        { name: 'o-high', protocol: 'openai', model: 'grok-3-mini', ids: ['', ''], extra: 'thinking: {budget_tokens: 20000}, max_tokens: 32000' },
        { name: 'qwen', protocol: 'openai', model: 'qwen3-235b-a22b', ids: ['', ''], extra: 'thinking: {budget_tokens: 4096}' },
      ]);
      for (const name of ['o-low', 'o-default', 'o-high', 'qwen']) {
        const r = await s.run(['-p', 'hi', '--provider', name], { env: CONFIGURED });
        expect([name, r.code, r.stderr]).toEqual([name, 0, expect.any(String)]);
      }
      expect(s.requests.map((r) => r.body.reasoning_effort)).toEqual(['low', 'medium', 'high', undefined]);
      expect([s.requests[3]!.body.enable_thinking, s.requests[3]!.body.thinking_budget]).toEqual([true, 4096]);
    });
  });
});

describe('refusals and content filters', () => {
  test('Anthropic refusal after partial text: the partial turn is not sent back, and the user is told', async () => {
    const partial = 'Here is the first step of the exploit: ';
    await scenario([{ text: partial, refusal: { category: 'cyber', explanation: null } }, { text: 'fine' }], async (s) => {
      const first = await s.run(['-p', 'write an exploit']);
      expect(first.stdout).toContain(partial.trim());
      expect(first.stderr).toMatch(/The model declined to continue \(category: cyber\)/);
      expect(first.stderr).toMatch(/characters of answer that arrived before the refusal were shown but are not kept/);
      const next = await s.run(['--continue', '-p', 'something else then']);
      expect(next.code).toBe(0);
      const sent = JSON.stringify(s.requests[1]!.body.messages);
      expect(sent).not.toContain('first step of the exploit');
      expect(sent).toContain('declined');
    });
  });

  test('an Azure content filter stop names the filter and its category, and text mode prints what arrived', async () => {
    await scenario(
      [{ text: 'The battle began at dawn and', stopReason: 'content_filter', contentFilterResults: { hate: { filtered: false, severity: 'safe' }, violence: { filtered: true, severity: 'medium' } } }],
      async (s) => {
        writeVendors(s, [{ name: 'azure', protocol: 'openai', model: 'gpt-4o', ids: ['', ''] }]);
        const r = await s.run(['-p', 'tell a story'], { env: CONFIGURED });
        expect(r.code).not.toBe(0);
        expect(r.stdout).toBe('The battle began at dawn and\n');
        expect(r.stderr).toContain('The content filter of provider "azure" stopped the answer');
        expect(r.stderr).toContain('category: violence');
        expect(r.stderr).not.toContain('The model declined');
      },
      'openai',
    );
  });
});

describe('a tool call cut off by the output limit', () => {
  for (const protocol of ['anthropic', 'openai'] as const) {
    test(`${protocol}: does not run and says the output limit cut it, so the model splits the work`, async () => {
      const cut = '{"file_path": "big.txt", "path": "big.txt", "content": "line one\\nline two\\nline th';
      await scenario(
        [{ toolCalls: [{ id: 'call_cut_1', name: 'write_file', input: cut }], stopReason: 'max_tokens' }, { text: 'I will write it in parts.' }],
        async (s) => {
          const r = await s.run(['-p', 'write a big file', '--permission-mode', 'acceptEdits']);
          expect(r.code).toBe(0);
          const sent = JSON.stringify(s.requests[1]!.body.messages);
          expect(sent).toContain("reached the model's output token limit");
          expect(sent).toContain('split the work into smaller calls');
          expect(sent).not.toContain('Send the call again');
          expect(existsSync(join(s.cwd, 'big.txt'))).toBe(false);
        },
        protocol,
      );
    });
  }
});

describe('a failure in the middle of an answer', () => {
  for (const protocol of ['anthropic', 'openai'] as const) {
    test(`${protocol}: the text the user saw stays in history, marked as interrupted`, async () => {
      const partial = 'The first half of a long answer, which the user already read, then';
      await scenario(
        [{ text: partial, streamError: { afterEvents: 6, type: 'api_error', message: 'Internal server error' } }, { text: 'ok' }],
        async (s) => {
          const first = await s.run(['-p', 'explain']);
          expect(first.code).not.toBe(0);
          const next = await s.run(['--continue', '-p', 'go on']);
          expect(next.code).toBe(0);
          const sent = JSON.stringify(s.requests.at(-1)!.body.messages);
          expect(sent).toContain('The first half of a long answer');
          expect(sent).toMatch(/Interrupted here: the request failed/);
        },
        protocol,
      );
    });
  }
});

describe('provider error messages', () => {
  test('a gateway 404 hints at base_url and names the provider entry; no doubled status', async () => {
    await scenario([{ httpError: { status: 404, body: '404 page not found', headers: { 'content-type': 'text/plain; charset=utf-8' } } }], async (s) => {
      writeVendors(s, [{ name: 'my-gateway', protocol: 'openai', model: 'm', ids: ['', ''] }]);
      const r = await s.run(['-p', 'hi'], { env: CONFIGURED });
      expect(r.code).not.toBe(0);
      expect(r.stderr).not.toContain('404 404');
      expect(r.stderr).toContain('Check `base_url` of provider "my-gateway"');
    });
  });

  test('an Anthropic gateway 404 says the same', async () => {
    await scenario([{ httpError: { status: 404, body: '404 page not found', headers: { 'content-type': 'text/plain; charset=utf-8' } } }], async (s) => {
      writeVendors(s, [{ name: 'proxy', protocol: 'anthropic', model: 'm', ids: ['', ''] }]);
      const r = await s.run(['-p', 'hi'], { env: CONFIGURED });
      expect(r.stderr).not.toContain('404 404');
      expect(r.stderr).toContain('Check `base_url` of provider "proxy"');
    });
  });

  test('a vendor message ending in a full stop is followed by one, not two', async () => {
    await scenario([{ httpError: { status: 401 } }], async (s) => {
      const r = await s.run(['-p', 'hi']);
      expect(r.stderr).toContain('api-keys. Check the API key');
      expect(r.stderr).not.toContain('..');
    }, 'openai');
  });
});

describe('a provider switch at resume', () => {
  test('--continue --provider <other> gives the switch notice and records the switch in the transcript', async () => {
    await scenario([{ text: 'one' }, { text: 'two' }, { text: 'three' }], async (s) => {
      writeVendors(s, [VENDORS[0]!, VENDORS[3]!]);
      expect((await s.run(['-p', 'hi', '--provider', 'claude'], { env: CONFIGURED })).code).toBe(0);
      const switchedRun = await s.run(['--continue', '-p', 'go on', '--provider', 'kimi'], { env: CONFIGURED });
      expect(switchedRun.code).toBe(0);
      expect(switchedRun.stderr).toContain('Model switched to kimi-k2-0905-preview (provider "kimi", context window 128,000 tokens) from claude-sonnet-4-5 (provider "claude")');
      const sameRun = await s.run(['--continue', '-p', 'more', '--provider', 'kimi'], { env: CONFIGURED });
      expect(sameRun.stderr).not.toContain('Model switched');
      const sessions = join(s.cwd, '.mewcode', 'sessions');
      const [id] = readdirSync(sessions).filter((name) => SESSION_ID_RE.test(name));
      const records = readFileSync(join(sessions, id!, 'conversation.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      const switches = records.filter((r) => r.type === 'provider_switch');
      expect(switches).toEqual([expect.objectContaining({ from: { provider: 'claude', model: 'claude-sonnet-4-5' }, to: { provider: 'kimi', model: 'kimi-k2-0905-preview' } })]);
      // The switch comes before the first message sent to the new provider.
      const switchAt = records.findIndex((r) => r.type === 'provider_switch');
      const goOnAt = records.findIndex((r) => r.type === 'message' && JSON.stringify(r.message).includes('go on'));
      expect(switchAt).toBeLessThan(goOnAt);
    });
  });
});

describe('compaction right after a switch to a smaller window', () => {
  test('a summary that would replace only a sliver of the history is not asked for, and the user is told why', async () => {
    await scenario([{ text: 'hello' }, { text: 'answer' }, { text: 'spare' }], async (s) => {
      writeVendors(s, [
        { name: 'big', protocol: 'anthropic', model: 'big-model', ids: ['', ''] },
        { name: 'small', protocol: 'anthropic', model: 'small-model', ids: ['', ''], extra: 'context_window: 50000' },
      ]);
      expect((await s.run(['-p', 'hi', '--provider', 'big'], { env: CONFIGURED })).code).toBe(0);
      // ≈ 24,000 tokens in the new prompt: over the smaller window's threshold by itself.
      const paste = 'a line of a long log that the user pasted\n'.repeat(2_300);
      const r = await s.run(['--continue', '-p', '--provider', 'small'], { env: CONFIGURED, input: paste });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('answer\n');
      // One request: no summary call was spent on the two short messages before the paste.
      expect(s.requests).toHaveLength(2);
      expect(s.requests[1]!.body.model).toBe('small-model');
      expect(r.stderr).toMatch(/compaction: not run automatically: a summary could replace only the 1 oldest message \(~\d+ of ~[\d,]+ tokens\)/);
    });
  });
});

test('a Chat Completions stream cut short names the provider entry', async () => {
  await scenario([{ text: 'partial', endEarly: { afterEvents: 1 } }], async (s) => {
    writeVendors(s, [{ name: 'edge-proxy', protocol: 'openai', model: 'm', ids: ['', ''] }]);
    const r = await s.run(['-p', 'hi'], { env: CONFIGURED });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('OpenAI-compatible API "edge-proxy": the response stream ended before the model finished');
  });
});
