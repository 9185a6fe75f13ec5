/**
 * The programmatic API against the scripted model server: query() yields exactly what
 * `--output-format stream-json` prints, asks canUseTool where a person would be asked, stops on
 * interrupt() with a result and a valid history, takes streaming input, and several queries run
 * at once in one process without mixing anything.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type StreamMessage, type ToolResultMessage } from '../../api/index.js';
import { removeTempDirs, runCli } from '../cli/helpers.js';
import { startScriptedServer } from '../scripted-server/index.js';
import { anthropicEnv } from '../cli/helpers.js';
import { collect, normalised, withPlace } from './helpers.js';
import { addMarketplace } from '../../config/claude-plugins/marketplaces.js';
import { installPlugin } from '../../config/claude-plugins/install.js';
import { writeCatalogue, writeFiles, writePlugin } from '../support/claude-marketplace.js';

afterEach(removeTempDirs);

const readThenAnswer = [
  { text: 'Let me look.', toolCalls: [{ id: 'c1', name: 'read_file', input: { file_path: 'notes.txt' } }] },
  { text: 'The notes say hello.' },
];

const results = (messages: StreamMessage[]) => messages.filter((m): m is ToolResultMessage => m.type === 'tool_result');
const last = (messages: StreamMessage[]) => messages.at(-1) as Extract<StreamMessage, { type: 'result' }>;

test('the messages equal what mewcode -p --output-format stream-json prints for the same scenario', async () => {
  await withPlace(readThenAnswer, async (place) => {
    writeFileSync(path.join(place.cwd, 'notes.txt'), 'hello\n');
    const cli = await runCli(['-p', 'read the notes', '--output-format', 'stream-json'], { cwd: place.cwd, env: place.env });
    expect(cli.code).toBe(0);
    const printed = cli.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);

    const again = await startScriptedServer({ turns: readThenAnswer });
    try {
      const messages = await collect(query({ prompt: 'read the notes', options: { ...place.options, env: anthropicEnv(again, place.home) } }));
      expect(normalised(messages)).toEqual(normalised(printed));
      expect(messages.map((m) => m.type)).toEqual(['system', 'iteration', 'text_delta', 'usage', 'tool_use', 'tool_result', 'iteration', 'text_delta', 'text_delta', 'usage', 'result']);
      expect(last(messages)).toMatchObject({ subtype: 'success', result: 'The notes say hello.', num_turns: 2 });
      // The same request went to the model: same tools, same system prompt.
      expect(again.requests[0]!.body.system).toEqual(place.server.requests[0]!.body.system);
      expect(again.requests[0]!.body.tools).toEqual(place.server.requests[0]!.body.tools);
    } finally {
      await again.close();
    }
  });
});

const writeCall = (content: string) => ({ toolCalls: [{ id: 'w1', name: 'write_file', input: { file_path: 'out.txt', content } }] });

test('canUseTool is asked where a person would be: a deny\'s message reaches the model and nothing is written', async () => {
  await withPlace([writeCall('from the model\n'), { text: 'ok, not written' }], async (place) => {
    const asked: { tool: string; input: unknown; id: string; signal: boolean }[] = [];
    const messages = await collect(
      query({
        prompt: 'write it',
        options: {
          ...place.options,
          canUseTool: async (tool, input, context) => {
            asked.push({ tool, input, id: context.toolUseId, signal: context.signal instanceof AbortSignal });
            return { behavior: 'deny', message: 'no writes in this test' };
          },
        },
      }),
    );
    expect(asked).toEqual([{ tool: 'write_file', input: { file_path: 'out.txt', content: 'from the model\n' }, id: 'w1', signal: true }]);
    expect(existsSync(path.join(place.cwd, 'out.txt'))).toBe(false);
    expect(results(messages)[0]).toMatchObject({ tool_use_id: 'w1', is_error: true });
    expect(String(results(messages)[0]!.content)).toContain('no writes in this test');
    expect(messages.some((m) => m.type === 'approval_request')).toBe(true);
    const sent = place.server.requests[1]!.body.messages.at(-1).content[0];
    expect(sent).toMatchObject({ type: 'tool_result', tool_use_id: 'w1', is_error: true });
    expect(last(messages)).toMatchObject({ subtype: 'success' });
  });
});

test('canUseTool allow runs the call; updatedInput runs it with the caller\'s arguments, still under every permission layer', async () => {
  await withPlace([writeCall('from the model\n'), writeCall('second\n'), { toolCalls: [{ id: 'w3', name: 'write_file', input: { file_path: 'inside.txt', content: 'x' } }] }, { text: 'done' }], async (place) => {
    let calls = 0;
    const messages = await collect(
      query({
        prompt: 'write it',
        options: {
          ...place.options,
          canUseTool: (_tool, input) => {
            calls++;
            if (calls === 1) return { behavior: 'allow' };
            if (calls === 2) return { behavior: 'allow', updatedInput: { ...input, content: 'changed by the caller\n' } };
            // Out of the project: the sandbox layer's deny stands whoever allowed the call.
            return { behavior: 'allow', updatedInput: { file_path: '/etc/mewcode-api-test', content: 'x' } };
          },
        },
      }),
    );
    expect(calls).toBe(3);
    expect(readFileSync(path.join(place.cwd, 'out.txt'), 'utf8')).toBe('changed by the caller\n');
    const [first, second, third] = results(messages);
    expect(first).toMatchObject({ tool_use_id: 'w1', is_error: false });
    // The scripted model reuses the id w1 on its second turn: the loop gives that call its own id.
    expect(second).toMatchObject({ tool_use_id: 'w1_2', is_error: false });
    expect(third).toMatchObject({ tool_use_id: 'w3', is_error: true });
    expect(String(third!.content)).toMatch(/Permission denied by/);
    expect(existsSync('/etc/mewcode-api-test')).toBe(false);
    expect(existsSync(path.join(place.cwd, 'inside.txt'))).toBe(false);
  });
});

test('the audit log records the decision on the arguments canUseTool gave, not the first verdict', async () => {
  await withPlace([writeCall('from the model\n'), { text: 'done' }], async (place) => {
    writeFileSync(path.join(place.home, '.mewcode', 'settings.yaml'), 'permissions:\n  ask: ["Write(./special.txt)"]\n');
    const messages = await collect(
      query({
        prompt: 'write it',
        options: {
          ...place.options,
          settingSources: ['user'],
          canUseTool: (_tool, input) => ({ behavior: 'allow', updatedInput: { ...input, file_path: 'special.txt' } }),
        },
      }),
    );
    expect(results(messages)[0]).toMatchObject({ tool_use_id: 'w1', is_error: false });
    const audit = readFileSync(path.join(place.cwd, '.mewcode', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    // out.txt asked by the mode; special.txt, which ran, asked by the rule: its record says so.
    expect(audit.filter((record) => record.type === 'decision')).toEqual([
      expect.objectContaining({ tool: 'write_file', target: expect.stringContaining('special.txt'), layer: 'permission-rules:user', verdict: 'ask', allowed: true }),
    ]);
  });
});

test('without canUseTool an ask is a deny that says how to allow it', async () => {
  await withPlace([writeCall('x'), { text: 'fine' }], async (place) => {
    const messages = await collect(query({ prompt: 'write', options: place.options }));
    expect(String(results(messages)[0]!.content)).toContain('no canUseTool callback');
    expect(existsSync(path.join(place.cwd, 'out.txt'))).toBe(false);
  });
});

test('interrupt() mid-run: the run ends with a result, and the saved history stays valid for the next query', async () => {
  const slowBash = { toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'sleep 30' } }] };
  await withPlace([slowBash, { text: 'resumed fine' }], async (place) => {
    const q = query({ prompt: 'sleep', options: { ...place.options, permissionMode: 'bypassPermissions' } });
    const seen: StreamMessage[] = [];
    const started = Date.now();
    for await (const message of q) {
      seen.push(message);
      if (message.type === 'tool_use') await q.interrupt();
    }
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(last(seen)).toMatchObject({ type: 'result', stop_reason: 'cancelled', is_error: true });

    // The saved session continues: its history has a result for the interrupted call.
    const resumed = await collect(query({ prompt: 'go on', options: { ...place.options, continue: true } }));
    expect(last(resumed)).toMatchObject({ subtype: 'success', result: 'resumed fine' });
    const history = place.server.requests[1]!.body.messages as { role: string; content: unknown }[];
    const toolUse = JSON.stringify(history);
    expect(toolUse).toContain('"tool_use_id":"b1"');
    expect(last(resumed).session_id).toBe(last(seen).session_id);
  });
}, 30_000);

test('streaming input: two user messages are two turns of one session, each with its own result', async () => {
  await withPlace([{ text: 'first answer' }, { text: 'second answer' }], async (place) => {
    async function* prompts() {
      yield { type: 'user' as const, message: { role: 'user' as const, content: 'one' } };
      yield { type: 'user' as const, message: { role: 'user' as const, content: [{ type: 'text', text: 'two' }] } };
    }
    const messages = await collect(query({ prompt: prompts(), options: place.options }));
    const ends = messages.filter((m) => m.type === 'result');
    expect(ends.map((m) => (m as { result: string }).result)).toEqual(['first answer', 'second answer']);
    expect(messages.filter((m) => m.type === 'system')).toHaveLength(2);
    expect(new Set(messages.map((m) => (m as { session_id?: string }).session_id)).size).toBe(1);
    const second = place.server.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(second[2]!.content)).toContain('two');
  });
});

test('two queries at once in one process, each on its own server and project: nothing is mixed', async () => {
  // B's last answer comes after A has finished and shut its kernel down: B must not lose anything by it.
  const turnsFor = (id: string, lastDelayMs: number) => [
    { delayMs: 150, toolCalls: [{ id: `r-${id}`, name: 'read_file', input: { file_path: 'who.txt' } }] },
    { delayMs: lastDelayMs, text: `answer of ${id}` },
  ];
  await withPlace(turnsFor('a', 150), async (a) => {
    await withPlace(turnsFor('b', 1500), async (b) => {
      writeFileSync(path.join(a.cwd, 'who.txt'), 'project A\n');
      writeFileSync(path.join(b.cwd, 'who.txt'), 'project B\n');
      const run = (place: typeof a) => collect(query({ prompt: 'who', options: place.options }));
      const runningB = run(b);
      const fromA = await run(a);
      // A's kernel has shut down while B still runs: B's session is still held (its lock, its files).
      const bSession = readdirSync(path.join(b.cwd, '.mewcode', 'sessions')).find((name) => !name.startsWith('.')) ?? '';
      expect(existsSync(path.join(b.cwd, '.mewcode', 'sessions', bSession, 'lock'))).toBe(true);
      const fromB = await runningB;
      expect(last(fromA)).toMatchObject({ subtype: 'success', result: 'answer of a' });
      expect(last(fromB)).toMatchObject({ subtype: 'success', result: 'answer of b' });
      expect(String(results(fromA)[0]!.content)).toContain('project A');
      expect(String(results(fromB)[0]!.content)).toContain('project B');
      expect(fromA[0]).toMatchObject({ type: 'system', cwd: a.cwd });
      expect(fromB[0]).toMatchObject({ type: 'system', cwd: b.cwd });
      expect(last(fromA).session_id).not.toBe(last(fromB).session_id);
      // Each model saw only its own project's requests, and each project saved only its own session.
      expect(a.server.requests).toHaveLength(2);
      expect(b.server.requests).toHaveLength(2);
      expect(JSON.stringify(a.server.requests[1]!.body)).not.toContain('project B');
      expect(JSON.stringify(b.server.requests[1]!.body)).not.toContain('project A');
      const saved = (place: typeof a) => readdirSync(path.join(place.cwd, '.mewcode', 'sessions')).filter((f) => existsSync(path.join(place.cwd, '.mewcode', 'sessions', f, 'conversation.jsonl')));
      expect(saved(a)).toEqual([last(fromA).session_id]);
      expect(saved(b)).toEqual([last(fromB).session_id]);
      expect(readFileSync(path.join(a.cwd, '.mewcode', 'sessions', last(fromA).session_id, 'conversation.jsonl'), 'utf8')).not.toContain('project B');
      expect(readFileSync(path.join(b.cwd, '.mewcode', 'sessions', last(fromB).session_id, 'conversation.jsonl'), 'utf8')).toContain('answer of b');
      // They overlapped: the second request of each went out after the first of the other.
      expect(a.server.requests[1]!.receivedAt).toBeGreaterThan(b.server.requests[0]!.receivedAt);
      expect(b.server.requests[1]!.receivedAt).toBeGreaterThan(a.server.requests[0]!.receivedAt);
    });
  });
});

test('settingSources: nothing of the user\'s or the project\'s files by default, each layer when asked; systemPrompt is appended, the same on every request', async () => {
  const turns = [{ toolCalls: [{ id: 'g1', name: 'glob', input: { pattern: '*' } }] }, { text: 'done' }];
  await withPlace([...turns, ...turns], async (place) => {
    writeFileSync(path.join(place.home, '.mewcode', 'AGENTS.md'), 'USER-RULE');
    writeFileSync(path.join(place.home, '.mewcode', 'config.yaml'), 'max_turns: 1\n');
    writeFileSync(path.join(place.cwd, 'CLAUDE.md'), 'PROJECT-RULE');
    const system = (index: number) => (place.server.requests[index]!.body.system as { text: string }[]).map((block) => block.text).join('\n');

    const plain = await collect(query({ prompt: 'look', options: { ...place.options, systemPrompt: 'APPENDED-BY-CALLER' } }));
    expect(last(plain)).toMatchObject({ subtype: 'success', num_turns: 2 }); // the user's max_turns: 1 was not read
    expect(system(0)).not.toMatch(/USER-RULE|PROJECT-RULE/);
    // The end of the stable part (the per-request environment follows it, after the cache breakpoint).
    const stable = (index: number) => (place.server.requests[index]!.body.system as { text: string }[])[0]!.text;
    expect(stable(0).trimEnd().endsWith('APPENDED-BY-CALLER')).toBe(true);
    expect(stable(1)).toBe(stable(0));

    const all = await collect(query({ prompt: 'look', options: { ...place.options, settingSources: ['user', 'project'], systemPrompt: { append: 'APPENDED-BY-CALLER' } } }));
    expect(last(all)).toMatchObject({ subtype: 'error_max_turns', num_turns: 1 }); // the user's max_turns: 1
    expect(system(2)).toContain('USER-RULE');
    expect(system(2)).toContain('PROJECT-RULE');
    expect(system(2).indexOf('PROJECT-RULE')).toBeLessThan(system(2).indexOf('APPENDED-BY-CALLER'));
  });
});

test('a bad option is a TypeError naming it, and a plugin module that cannot be loaded fails the query naming it', async () => {
  await withPlace([], async (place) => {
    await expect(collect(query({ prompt: 'x', options: { ...place.options, permissionMode: 'yolo' as never } }))).rejects.toThrow(/options.permissionMode must be one of/);
    await expect(collect(query({ prompt: 'x', options: { ...place.options, settingSources: ['system' as never] } }))).rejects.toThrow(/options.settingSources: "system"/);
    await expect(collect(query({ prompt: 'x', options: { ...place.options, plugins: ['./no-such-plugin.mjs'] } }))).rejects.toThrow(/no-such-plugin/);
    expect(place.server.requests).toHaveLength(0);
  });
});

test('plugins: a plugin object joins the run (its tool is offered and called)', async () => {
  await withPlace([{ toolCalls: [{ id: 'p1', name: 'shout', input: { text: 'hi' } }] }, { text: 'done' }], async (place) => {
    const plugin = {
      name: 'shouting',
      apply(kernel: { tools: { register(tool: unknown): void } }) {
        kernel.tools.register({
          name: 'shout',
          description: 'Upper-cases text.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          readOnly: true,
          async execute(input: { text: string }) {
            return { content: input.text.toUpperCase() };
          },
        });
      },
    };
    const messages = await collect(query({ prompt: 'shout', options: { ...place.options, plugins: [plugin as never] } }));
    expect((place.server.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).toContain('shout');
    expect(results(messages)[0]).toMatchObject({ tool_use_id: 'p1', is_error: false, content: 'HI' });
  });
});

test('a saved session one query holds is not written by another query of the same process at the same time', async () => {
  await withPlace([{ text: 'first' }, { delayMs: 1500, text: 'second' }], async (place) => {
    const options = { ...place.options };
    const first = last(await collect(query({ prompt: 'one', options })));
    const holding = collect(query({ prompt: 'two', options: { ...options, resume: first.session_id } }));
    while (place.server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const other = await startScriptedServer({ turns: [{ text: 'third' }] });
    const otherErr: string[] = [];
    try {
      const third = await collect(query({ prompt: 'three', options: { ...options, env: anthropicEnv(other, place.home), resume: first.session_id, stderr: (t) => otherErr.push(t) } }));
      expect(last(third)).toMatchObject({ result: 'third' });
    } finally {
      await other.close();
    }
    expect(otherErr.join('')).toContain(`session ${first.session_id} is open in another session of this process (a concurrent query)`);
    expect(last(await holding)).toMatchObject({ result: 'second', session_id: first.session_id });
    // The holder's transcript has its own turns only.
    const transcript = readFileSync(path.join(place.cwd, '.mewcode', 'sessions', first.session_id, 'conversation.jsonl'), 'utf8');
    expect(transcript).toContain('second');
    expect(transcript).not.toContain('three');
  });
});

test('abortController: aborting stops the running prompt with a result, and no later prompt of the stream runs', async () => {
  await withPlace([{ delayMs: 300, chunkDelayMs: 200, text: 'a long answer that is cut short' }, { text: 'never' }], async (place) => {
    const abortController = new AbortController();
    let pulled = 0;
    async function* prompts() {
      pulled++;
      yield 'one';
      pulled++;
      yield 'two';
    }
    const messages: StreamMessage[] = [];
    for await (const message of query({ prompt: prompts(), options: { ...place.options, abortController } })) {
      messages.push(message);
      if (message.type === 'text_delta') abortController.abort();
    }
    expect(messages.filter((m) => m.type === 'result')).toEqual([expect.objectContaining({ stop_reason: 'cancelled' })]);
    expect(place.server.requests).toHaveLength(1);
    expect(pulled).toBeLessThanOrEqual(2);
    expect(messages.some((m) => m.type === 'text_delta' && m.text.includes('never'))).toBe(false);
  });
});

test('settingSources also decides whose permission rules count: the user\'s allow rule only when `user` is read', async () => {
  await withPlace([writeCall('one\n'), { text: 'a' }, writeCall('two\n'), { text: 'b' }], async (place) => {
    writeFileSync(path.join(place.home, '.mewcode', 'settings.yaml'), 'permissions:\n  allow:\n    - "Write(./out.txt)"\n');
    const plain = await collect(query({ prompt: 'write', options: place.options }));
    expect(results(plain)[0]).toMatchObject({ is_error: true });
    expect(existsSync(path.join(place.cwd, 'out.txt'))).toBe(false);
    const withUser = await collect(query({ prompt: 'write', options: { ...place.options, settingSources: ['user'] } }));
    expect(results(withUser)[0]).toMatchObject({ is_error: false });
    expect(readFileSync(path.join(place.cwd, 'out.txt'), 'utf8')).toBe('two\n');
  });
});

test('hooks in the user\'s settings run only when the query reads them', async () => {
  await withPlace([{ text: 'a' }, { text: 'b' }], async (place) => {
    const marker = path.join(place.home, 'hook-ran');
    const hooks = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] } };
    writeFileSync(path.join(place.home, '.mewcode', 'settings.yaml'), JSON.stringify(hooks));
    await collect(query({ prompt: 'one', options: place.options }));
    expect(existsSync(marker)).toBe(false);
    // Trusted: the user's hook runs on the host (in an untrusted project the sandbox hides this /tmp home).
    await collect(query({ prompt: 'two', options: { ...place.options, settingSources: ['user'], trustProject: true } }));
    expect(existsSync(marker)).toBe(true);
  });
});

test("settingSources: the user's installed Claude Code plugins join a query only when `user` is read", async () => {
  await withPlace([{ text: 'one' }, { text: 'two' }], async (place) => {
    const market = path.join(place.home, 'market');
    writePlugin(path.join(market, 'plugins', 'fmt'), 'fmt');
    writeFiles(path.join(market, 'plugins', 'fmt'), { 'skills/house-style/SKILL.md': '---\nname: house-style\ndescription: The fmt house style\n---\nTabs.\n' });
    writeCatalogue(market, 'team', [{ name: 'fmt', source: './plugins/fmt' }]);
    await addMarketplace(place.home, market, place.cwd);
    await installPlugin(place.home, 'fmt@team');
    const offered = (index: number) => JSON.stringify(place.server.requests[index]!.body);

    await collect(query({ prompt: 'hi', options: place.options }));
    await collect(query({ prompt: 'hi', options: { ...place.options, settingSources: ['user'] } }));
    expect(offered(0)).not.toContain('fmt:house-style');
    expect(offered(1)).toContain('fmt:house-style');
  });
});
