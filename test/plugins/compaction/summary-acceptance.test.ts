// Acceptance (issue 10): a scripted session through the real Anthropic SDK and the scripted model
// server crosses the summary threshold of a small configured context window and continues
// coherently: the next request holds the summary, the kept tail and the recovery attachment, and
// no orphaned tool call; the session file records what was dropped; a resume after the
// compaction record loads the compacted history; the threshold follows a model switch.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import { createCompactionPlugin } from '../../../plugins/compaction/index.js';
import { NOT_AUTHORITATIVE } from '../../../plugins/compaction/recovery.js';
import { SUMMARY_INTRO } from '../../../plugins/compaction/service.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import providerAnthropic from '../../../plugins/provider-anthropic/index.js';
import providerOpenai from '../../../plugins/provider-openai/index.js';
import { createSessionPlugin } from '../../../plugins/session/index.js';
import { transcriptFile } from '../../../plugins/session/layout.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';
import type { ResolvedConfig } from '../../../types/config.js';
import type { AgentEvent } from '../../../types/events.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import type { SessionStore } from '../../../types/session-store.js';
import { TOKENS } from '../../../types/tokens.js';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../../scripted-server/index.js';
import { collect, doneEvent } from '../../support/boot.js';

interface Block {
  type: string;
  text?: string;
  id?: string;
  tool_use_id?: string;
  content?: unknown;
}
interface Body {
  system?: { text: string }[] | string;
  tools?: unknown[];
  messages: { role: string; content: Block[] | string }[];
}

let server: ScriptedServer;
let root: string;
beforeEach(async () => {
  server = await startScriptedServer();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-summary-')));
  mkdirSync(path.join(root, 'src'));
  // Five files of about 5,800 tokens each as read_file returns them.
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    writeFileSync(path.join(root, 'src', `${name}.ts`), Array.from({ length: 200 }, (_, i) => `export const ${name}${i} = '${name.repeat(80)}';`).join('\n') + '\n');
  }
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function config(providers: Record<string, unknown>[]): ResolvedConfig {
  const sections: Record<string, unknown> = { provider: providers[0]!.name, providers };
  return { layers: [], warnings: [], section: (key) => sections[key], locate: (p) => `/p/.mewcode.yaml:${p.length}:1` };
}
const claude = (contextWindow: number, name = 'claude') => ({ name, protocol: 'anthropic', model: `${name}-scripted`, api_key: 'k', base_url: server.url, context_window: contextWindow, max_tokens: 4096, retry_base_delay_ms: 1 });

async function boot(reporter: MemoryReporter, providers = [claude(60_000)], extra: MewcodePlugin[] = []): Promise<Kernel> {
  return Kernel.create({
    plugins: [providerAnthropic, providerOpenai, permissionMode, outputLimits, toolReadFile, createCompactionPlugin(), createSessionPlugin(), ...extra],
    projectRoot: root,
    homeDir: root,
    env: {},
    reporter,
    config: config(providers),
  });
}

const read = (name: string, input: number): ScriptedTurn => ({ toolCalls: [{ id: `toolu_${name}`, name: 'read_file', input: { path: `src/${name}.ts` } }], usage: { input, output: 20 } });
const SUMMARY_ANSWER = '<analysis>The user wants the files read.</analysis>\n<summary>\n## 1. Primary request and intent\nRead src/a.ts to src/e.ts.\n## 8. Current work\nReading src/d.ts.\n</summary>';

function texts(body: Body, index: number): string {
  const content = body.messages[index]!.content;
  return typeof content === 'string' ? content : content.map((block) => block.text ?? (typeof block.content === 'string' ? block.content : '')).join('\n');
}

/** Roles alternate from a user message; every tool_use is answered next, and every tool_result answers the turn before. */
function expectValid(body: Body): void {
  expect(body.messages[0]!.role).toBe('user');
  body.messages.forEach((message, index) => {
    if (index > 0) expect(message.role).not.toBe(body.messages[index - 1]!.role);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    const previous = body.messages[index - 1];
    const asked = previous && typeof previous.content !== 'string' ? previous.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    expect(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(message.role === 'user' ? asked : []);
  });
}

const run = (kernel: Kernel, prompt: string): Promise<AgentEvent[]> => collect(kernel.session.run({ prompt, mode: 'bypassPermissions' }));

test('crossing the threshold: summary, kept tail, recovery attachment, valid history; the session file says what was dropped; resume loads it', async () => {
  // Window 60,000 → summary at 27,000. After the fourth read the anchor (26,020) plus the new
  // result (~5,900) crosses it: the fifth request is the summary, the sixth continues.
  server.push(read('a', 5_000), read('b', 12_000), read('c', 19_000), read('d', 26_000), { text: SUMMARY_ANSWER, usage: { input: 30_000, output: 200 } }, { text: 'All four files are read.' });
  const reporter = new MemoryReporter();
  const kernel = await boot(reporter);
  const events = await run(kernel, 'read the four files');
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'All four files are read.' });
  expect(events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end')).toEqual([
    { type: 'compaction_start', reason: 'auto' },
    { type: 'compaction_end', reason: 'auto', changed: true, notice: expect.stringMatching(/^Compacted the conversation \(auto\): 3 older messages/) },
  ]);
  expect(server.requests).toHaveLength(6);

  // The summary request: the older part as a transcript with the nine-section prompt, no tools.
  const summaryRequest = server.requests[4]!.body as Body;
  expect(summaryRequest.tools ?? []).toEqual([]);
  expect(summaryRequest.messages).toHaveLength(1);
  const asked = texts(summaryRequest, 0);
  expect(asked).toContain('[user]\nread the four files');
  expect(asked).toContain('[tool call read_file (toolu_a)]');
  expect(asked).not.toContain('toolu_b'); // b, c and d are the kept tail
  expect(asked).toContain('## 6. All user messages');

  // The next request: summary + recovery first, then the kept tail from the call of b on.
  const next = server.requests[5]!.body as Body;
  expectValid(next);
  const first = texts(next, 0);
  expect(first).toContain(SUMMARY_INTRO);
  expect(first).toContain('<summary>\n## 1. Primary request and intent\nRead src/a.ts to src/e.ts.');
  expect(first).not.toContain('<analysis>');
  expect(first).toContain('# Recovered context');
  // Files the kept tail does not show already (b, c and d are read there): a, cut to 5,000 tokens.
  expect(first).toContain("### src/a.ts\n```\nexport const a0 = '"); // clean content, no line numbers
  expect(first).toContain('[cut at about 5,000 tokens: read src/a.ts for the rest]');
  for (const name of ['b', 'c', 'd']) expect(first).not.toContain(`### src/${name}.ts`);
  expect(first).toContain('## Tools available now\n\nread_file');
  expect(first).toContain(NOT_AUTHORITATIVE);
  const toolUses = next.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_use').map((b) => b.id)));
  expect(toolUses).toEqual(['toolu_b', 'toolu_c', 'toolu_d']);
  expect(next.messages).toHaveLength(7); // summary, (call, result) × 3 — the result of d joined by nothing else

  // The user was told what was dropped; the session file keeps it with the compacted history.
  const notice = reporter.notices.find((n) => n.startsWith('Compacted the conversation (auto): 3 older messages'));
  expect(notice).toMatch(/replaced by a summary \(~\d+ tokens\); the last 6 messages \(~[\d,]+ tokens\) kept as they were\. About [\d,]+ → [\d,]+ tokens/);
  const records = readFileSync(transcriptFile(root, kernel.session.sessionId, 'main'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const compact = records.find((record) => record.type === 'compact');
  expect(compact.dropped.summarised).toMatchObject({ count: 3, messages: [{ index: 0, role: 'user' }, { index: 1, role: 'assistant', toolCallIds: ['toolu_a'] }, { index: 2, role: 'tool', toolCallIds: ['toolu_a'] }] });
  expect(compact.dropped.summarised.tokens).toBeGreaterThan(5_000);
  expect(compact.dropped.unsummarised.count).toBe(0);
  expect(compact.dropped.kept.count).toBe(6);
  expect(compact.messages).toHaveLength(7);
  await kernel.shutdown();

  // Resume after the compaction record: the compacted history, plus the final answer appended after it.
  const again = await boot(new MemoryReporter());
  const loaded = await again.container.get<SessionStore>(TOKENS.SessionStore).load(kernel.session.sessionId);
  expect(loaded.messages).toHaveLength(8);
  expect((loaded.messages[0] as { content: { text: string }[] }).content[0]!.text).toContain(SUMMARY_INTRO);
  const resumed = await again.resumeSession({ sessionId: loaded.sessionId, messages: loaded.messages });
  server.push({ text: 'Resumed.' });
  expect(doneEvent(await collect(resumed.run({ prompt: 'go on', mode: 'bypassPermissions' }))).finalText).toBe('Resumed.');
  const resumedRequest = server.requests[6]!.body as Body;
  expectValid(resumedRequest);
  expect(texts(resumedRequest, 0)).toContain(SUMMARY_INTRO);
  expect(texts(resumedRequest, resumedRequest.messages.length - 1)).toBe('go on');
  await again.shutdown();
});

test('the threshold follows a model switch: the same history is left alone at 200,000 and summarised at 60,000, by the new model', async () => {
  server.push(read('a', 5_000), read('b', 12_000), read('c', 19_000), read('d', 26_000), { text: 'Read.' });
  const reporter = new MemoryReporter();
  const kernel = await boot(reporter, [claude(200_000, 'large'), claude(60_000, 'small')]);
  await run(kernel, 'read the four files');
  expect(server.requests).toHaveLength(5); // no summary under the large window
  kernel.session.switchModel({ provider: 'small' });
  // The anchor reset with the switch: the estimate is the history as sent (~23,500 tokens) plus the prompt (~5,700).
  server.push({ text: SUMMARY_ANSWER }, { text: 'Done.' });
  const events = await run(kernel, `one more thing: ${'q'.repeat(20_000)}`);
  expect(doneEvent(events).finalText).toBe('Done.');
  expect(events.some((e) => e.type === 'compaction_end' && e.changed)).toBe(true);
  expect(server.requests.slice(5).map((r) => (r.body as { model: string }).model)).toEqual(['small-scripted', 'small-scripted']);
  expect(texts(server.requests[5]!.body as Body, 0)).toContain('## 9. Possible next step');
  await kernel.shutdown();
});

test('emergency: prompt-too-long from the provider compacts, the summary request itself retried without the oldest turn; postCompact re-injects a skill', async () => {
  // A plugin that keeps an active skill through compactions (the skills plugin's contract).
  const skills = definePlugin({
    name: 'test-skills',
    apply(kernel) {
      kernel.hooks.postCompact.tapPromise('test-skills', async (state) => void state.reinject?.push('Active skill "tabs": always indent with tabs.'));
    },
  });
  const prompts = [1, 2, 3, 4, 5].map((n) => `prompt ${n}: ${'p'.repeat(8_000)}`);
  server.push(...prompts.map((_, i) => ({ text: `ok ${i + 1}` })), read('a', 1_000), { promptTooLong: true }, { promptTooLong: true }, { text: SUMMARY_ANSWER }, { text: 'Final.' });
  const reporter = new MemoryReporter();
  const kernel = await boot(reporter, [claude(200_000)], [skills]);
  for (const prompt of prompts) await run(kernel, prompt);
  const events = await run(kernel, 'read a');
  expect(doneEvent(events).finalText).toBe('Final.');
  expect(events.filter((e) => e.type === 'compaction_start')).toEqual([{ type: 'compaction_start', reason: 'emergency' }]);
  expect(events).toContainEqual({ type: 'notice', message: 'The prompt was too long for the context window; compacted the history and retrying once.' });

  // Requests 7 and 8 are the summary: the first with all three older turns, the second without the oldest.
  const [tooLong, fits] = [server.requests[7]!.body as Body, server.requests[8]!.body as Body];
  expect(texts(tooLong, 0)).toContain('[user]\nprompt 1:');
  expect(texts(fits, 0)).not.toContain('prompt 1:');
  expect(texts(fits, 0)).toContain('[user]\nprompt 2:');
  expect(texts(fits, 0)).toContain('[user]\nprompt 3:');
  expect(texts(fits, 0)).not.toContain('prompt 4:'); // kept in the tail

  const last = server.requests[9]!.body as Body;
  expectValid(last);
  expect(texts(last, 0)).toContain('The summary below replaces its first 6 messages (the oldest 2 messages did not fit the summary request and are not in it); the messages after it');
  // The kept tail starts with prompt 4: one user turn with the summary for Anthropic.
  expect(texts(last, 0).includes('</summary>') && texts(last, 0).includes('prompt 4:')).toBe(true);
  expect(texts(last, 1)).toBe('ok 4');
  // The re-injected skill comes after the kept tail (merged with the last tool results into one user turn).
  expect(texts(last, last.messages.length - 1)).toContain('Active skill "tabs": always indent with tabs.');
  expect(reporter.notices.some((n) => /^Compacted the conversation \(emergency\): 4 older messages .*; 2 oldest messages \(~[\d,]+ tokens\) did not fit the summary request and were dropped without being summarised;/.test(n))).toBe(true);

  const records = readFileSync(transcriptFile(root, kernel.session.sessionId, 'main'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const at = records.findIndex((record) => record.type === 'compact');
  expect(records[at].dropped.unsummarised).toMatchObject({ count: 2, messages: [{ index: 0, role: 'user' }, { index: 1, role: 'assistant' }] });
  expect(records[at + 1]).toMatchObject({ type: 'message', message: { role: 'user' } });
  expect(JSON.stringify(records[at + 1].message)).toContain('always indent with tabs');
  await kernel.shutdown();
});

test('the same crossing through the OpenAI SDK: the summary and the tail are valid Chat Completions history', async () => {
  server.push(read('a', 5_000), read('b', 12_000), read('c', 19_000), read('d', 26_000), { text: SUMMARY_ANSWER }, { text: 'Done.' });
  const kernel = await boot(new MemoryReporter(), [{ name: 'gpt', protocol: 'openai', model: 'gpt-scripted', api_key: 'k', base_url: `${server.url}/v1`, context_window: 60_000, max_tokens: 1000, retry_base_delay_ms: 1 }]);
  expect(doneEvent(await run(kernel, 'read the four files')).finalText).toBe('Done.');
  expect(server.requests).toHaveLength(6);
  expect(server.requests[4]!.body.tools).toBeUndefined();
  const messages = server.requests[5]!.body.messages as { role: string; content?: string | null; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  const roles = messages.filter((m) => m.role !== 'system').map((m) => m.role);
  expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
  const rest = messages.filter((m) => m.role !== 'system');
  expect(String(rest[0]!.content)).toContain('<summary>');
  expect(String(rest[0]!.content)).toContain(NOT_AUTHORITATIVE);
  rest.forEach((m, i) => {
    if (m.role === 'tool') expect(rest[i - 1]!.tool_calls?.map((c) => c.id)).toEqual([m.tool_call_id]);
  });
  await kernel.shutdown();
});

test('emergency with nothing to summarise: an enormous first prompt is saved to a file and the retried request carries its preview; the session goes on', async () => {
  const paste = `${'a pasted log line\n'.repeat(14_000)}END OF PASTE`; // ~72,000 tokens on a 60,000 window
  server.push({ promptTooLong: true }, { text: 'I read the start; I will read the rest from the file.' }, { text: 'Next answer.' });
  const reporter = new MemoryReporter();
  const kernel = await boot(reporter);
  const events = await run(kernel, paste);
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'I read the start; I will read the rest from the file.' });
  // The automatic check before the request has nothing to summarise: no compaction announced (nor PreCompact hooks run) for it.
  expect(events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end')).toEqual([
    { type: 'compaction_start', reason: 'emergency' },
    { type: 'compaction_end', reason: 'emergency', changed: true, notice: expect.stringMatching(/^Compacted the conversation \(emergency\): nothing older was left to summarise; 1 oversized message/) },
  ]);
  expect(server.requests).toHaveLength(2); // no summary request: there is nothing older
  const retried = server.requests[1]!.body as Body;
  expectValid(retried);
  const sent = texts(retried, 0);
  expect(sent).toMatch(/^\[This message was 252,012 bytes \(14,001 lines\), too large to keep in the conversation; it is saved in full to \.mewcode\/sessions\/[^/]+\/tool-results\/message-[0-9a-f]+\.\]/);
  expect(sent.length).toBeLessThan(5_000);
  expect(readFileSync(path.join(root, sent.match(/saved in full to (\S+)\.\]/)![1]!), 'utf8')).toBe(paste);
  expect(reporter.notices.some((n) => n.startsWith('Compacted the conversation (emergency): nothing older was left to summarise; 1 oversized message'))).toBe(true);
  // The next prompt is sent without another failure, the preview unchanged.
  const next = await run(kernel, 'go on');
  expect(doneEvent(next).finalText).toBe('Next answer.');
  expect(next.filter((e) => e.type === 'compaction_start')).toEqual([]);
  expect(texts(server.requests[2]!.body as Body, 0)).toBe(sent);
  await kernel.shutdown();
});
