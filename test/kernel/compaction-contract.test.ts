// The kernel's side of the compaction contract (types/session.ts, types/hooks.ts): the service's
// estimate is the one every threshold decision sees, the request carries the tools and the
// focus, a report reaches postCompact, and text postCompact taps push to `reinject` is appended
// once, in tap order, and announced like any message.
import { ContainerModule } from 'inversify';
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import type { ContextState } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import { definePlugin } from '../../types/plugin.js';
import type { CompactionReport, CompactionRequest, CompactionService } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { doneEvent, runPrompt } from '../support/boot.js';
import { fail, memoryEnv, memoryModel, say } from '../support/memory-provider.js';
import { toolsPlugin, writeTool } from '../support/test-tools.js';

const report = { notice: 'dropped 1' } as CompactionReport;

test('estimate, request, report and re-injection', async () => {
  const seen: { estimated: number[]; requests: CompactionRequest[]; post?: ContextState; appended: Message[]; focus?: string } = { estimated: [], requests: [], appended: [] };
  const service: CompactionService = {
    estimateTokens: (messages) => 1_000 * messages.length,
    shouldCompact: ({ estimatedTokens }) => {
      seen.estimated.push(estimatedTokens);
      return false;
    },
    compact: async (messages, request) => {
      seen.requests.push(request);
      return { messages: [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] }, ...messages.slice(-1)], report };
    },
  };
  const plugin = definePlugin({
    name: 'test-compaction',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)),
    apply(kernel) {
      kernel.hooks.preCompact.tapPromise('test-compaction', async (state) => void (seen.focus = state.focus));
      kernel.hooks.postCompact.tapPromise('test-compaction', async (state) => {
        seen.post = state;
        state.reinject?.push('first part', '   ');
      });
      kernel.hooks.messageAppended.tapPromise('test-compaction', async (message) => void seen.appended.push(message));
    },
  });
  const skills = definePlugin({ name: 'test-skills', apply: (kernel) => kernel.hooks.postCompact.tapPromise('test-skills', async (state) => void state.reinject?.push('second part')) });
  const model = memoryModel([say('one')], { contextWindow: 50_000 });
  const kernel = await Kernel.create({ plugins: [model.plugin, toolsPlugin([writeTool({ events: [] })]), plugin, skills], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  await runPrompt(kernel, 'hello');
  expect(seen.estimated).toEqual([1_000]); // the service's estimate of the one-message history (no anchor yet)

  seen.appended.length = 0;
  expect(await kernel.session.compact('default', { focus: '  the API  ' })).toBe(true);
  expect(seen.requests[0]).toMatchObject({ reason: 'manual', focus: 'the API', tools: ['write_note'], session: { agentId: 'main', mode: 'default', provider: { contextWindow: 50_000 } } });
  expect(seen.focus).toBe('the API'); // for PreCompact hooks (Claude Code's custom_instructions)
  expect(seen.post).toMatchObject({ reason: 'manual', compacted: true, estimatedTokens: 2_000, tokensAfter: 2_000, report });
  const restored: Message = { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nRestored after the conversation was summarised:\n\nfirst part\n\nsecond part\n</system-reminder>' }] };
  expect(kernel.conversation.messages.at(-1)).toEqual(restored);
  expect(kernel.conversation.messages).toHaveLength(3);
  expect(seen.appended).toEqual([restored]); // announced, so a session store persists it after the compaction record
});

test('Ctrl+C during an emergency compaction ends the run as cancelled (not a context error), the history unchanged and valid', async () => {
  const controller = new AbortController();
  const service: CompactionService = {
    shouldCompact: () => false,
    compact: (_messages, request) =>
      new Promise((_resolve, reject) => {
        controller.abort(); // the user presses Ctrl+C while the summary request runs
        request.signal?.addEventListener('abort', () => reject(new Error('the summary request was cancelled')), { once: true });
        if (request.signal?.aborted) reject(new Error('the summary request was cancelled'));
      }),
  };
  const plugin = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  const model = memoryModel([fail('prompt_too_long', 'prompt is too long')], { contextWindow: 50_000 });
  const kernel = await Kernel.create({ plugins: [model.plugin, plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  const events = await runPrompt(kernel, 'hello', 'bypassPermissions', controller.signal);
  expect(events.filter((event) => event.type === 'error')).toEqual([]);
  expect(doneEvent(events).reason).toBe('cancelled');
  expect(kernel.conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
});

test('a request still too long after the emergency compaction ends the run with an error that says what to do', async () => {
  // A service that can free nothing (one message too large to shrink), and no service at all.
  const service: CompactionService = { shouldCompact: () => false, compact: async () => undefined };
  const plugin = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  for (const plugins of [[plugin], []]) {
    const model = memoryModel([fail('prompt_too_long', 'prompt is too long: 70000 tokens > 60000')], { contextWindow: 60_000 });
    const kernel = await Kernel.create({ plugins: [model.plugin, ...plugins], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
    const events = await runPrompt(kernel, 'hello');
    expect(doneEvent(events).reason).toBe('error');
    const error = events.find((event) => event.type === 'error') as { message: string };
    expect(error.message).toMatch(/^prompt is too long: 70000 tokens > 60000\. The conversation does not fit the model's context window even after compaction: start a new session .* or switch to a model with a larger context window\.$/);
    expect(kernel.conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  }
});

test('K3: a compaction rewrites messages only; the stable system prompt and the tools of the next request are byte-identical', async () => {
  const service: CompactionService = { shouldCompact: () => false, compact: async (messages) => ({ messages: [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] }, ...messages.slice(-1)], report }) };
  const plugin = definePlugin({
    name: 'test-compaction',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)),
    apply: (kernel) => void kernel.hooks.buildSystemPrompt.tap('test-compaction', (parts) => [...parts, 'You are a careful assistant. STABLE PREFIX.']),
  });
  const model = memoryModel([say('one'), say('two')], { contextWindow: 50_000 });
  const kernel = await Kernel.create({ plugins: [model.plugin, toolsPlugin([writeTool({ events: [] })]), plugin], projectRoot: '/tmp/project', homeDir: '/tmp/home', env: memoryEnv, reporter: new MemoryReporter() });
  await runPrompt(kernel, 'hello');
  expect(await kernel.session.compact('default')).toBe(true);
  await runPrompt(kernel, 'again');
  const [before, after] = model.requests;
  expect(before!.system.stable).toContain('STABLE PREFIX.');
  expect(after!.system.stable).toBe(before!.system.stable);
  expect(JSON.stringify(after!.tools)).toBe(JSON.stringify(before!.tools));
  expect(after!.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] });
});
