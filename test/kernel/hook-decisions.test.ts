/**
 * Kernel v2 (issue 7), what hooks may decide, by outcome: PreToolUse allow | ask | deny, rewritten
 * input and context for the model; an allow from a hook never passes a deny rule; an automatic
 * compaction through a compaction service (preCompact → rewrite → postCompact); and the one output
 * route, buffered until a UI is active.
 */
import { ContainerModule } from 'inversify';
import { Kernel } from '../../kernel/kernel.js';
import { OUTPUT_BUFFER_LIMIT } from '../../kernel/output-route.js';
import permissionMode from '../../plugins/permission-mode/index.js';
import type { ContextState, NotificationPayload, ToolUseDecision } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import { definePlugin, type MewcodePlugin, type UserOutput } from '../../types/plugin.js';
import type { CompactionService } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { doneEvent, runPrompt } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../support/memory-provider.js';
import { writeTool, toolsPlugin, type ToolLog } from '../support/test-tools.js';
import { bootRules, executed, tempDirs, writeSettings, type Dirs } from '../plugins/permission-rules/helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  executed.length = 0;
});
afterEach(() => dirs.cleanup());

/** A PreToolUse policy as a plugin: answers every call with the given decision. */
function preToolUse(answer: (decision: ToolUseDecision) => ToolUseDecision): MewcodePlugin {
  return definePlugin({
    name: 'pre-tool-policy',
    apply(kernel) {
      kernel.hooks.preToolUse.tapPromise('pre-tool-policy', async (decision) => answer(decision));
    },
  });
}

function toolResults(kernel: Kernel): string[] {
  return kernel.conversation.messages.flatMap((m) => (m.role === 'tool' ? m.results.map((r) => r.content) : []));
}

describe('preToolUse decisions', () => {
  test('allow answers the mode layer: a write in default mode runs without asking', async () => {
    const { kernel } = await bootRules(dirs, {
      plugins: [preToolUse((d) => ({ ...d, decision: 'allow', reason: 'CI hook approves', by: 'ci' }))],
      steps: [useTools([call('write_file', { file_path: 'a.txt' })]), say('ok')],
    });
    await runPrompt(kernel, 'go', 'default');
    expect(executed).toEqual(['write_file:{"file_path":"a.txt"}']);
  });

  test('allow never passes a deny rule', async () => {
    writeSettings(dirs, 'project', { deny: ['Write(./a.txt)'] });
    const { kernel } = await bootRules(dirs, {
      plugins: [preToolUse((d) => ({ ...d, decision: 'allow', reason: 'hook says yes', by: 'ci' }))],
      steps: [useTools([call('write_file', { file_path: 'a.txt' })]), say('ok')],
    });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(executed).toEqual([]);
    expect(toolResults(kernel)[0]).toMatch(/denied/i);
  });

  test('ask sends an otherwise allowed call to approval (here answered by a policy tap with deny)', async () => {
    const asked: string[] = [];
    const approver = definePlugin({
      name: 'approver',
      apply(kernel) {
        kernel.hooks.requestApproval.tapPromise('approver', async (request) => {
          asked.push(`${request.toolName}: ${request.verdict.reason ?? ''}`);
          return { choice: 'deny', answeredBy: 'approver', reason: 'not now' };
        });
      },
    });
    const { kernel } = await bootRules(dirs, {
      plugins: [preToolUse((d) => ({ ...d, decision: 'ask', reason: 'touches release files', by: 'release-guard' })), approver],
      steps: [useTools([call('write_file', { file_path: 'a.txt' })]), say('ok')],
    });
    await runPrompt(kernel, 'go', 'bypassPermissions'); // the mode alone would allow it
    expect(asked).toEqual([expect.stringContaining('write_file')]);
    expect(executed).toEqual([]);
  });

  test('deny stops later taps and returns "[hook <by>] <reason>"; the loop goes on', async () => {
    let later = 0;
    const laterTap = definePlugin({
      name: 'later-tap',
      apply(kernel) {
        kernel.hooks.preToolUse.tapPromise({ name: 'later-tap', stage: 10 }, async (d) => {
          later++;
          return d;
        });
      },
    });
    const { kernel } = await bootRules(dirs, {
      plugins: [preToolUse((d) => ({ ...d, decision: 'deny', reason: 'no writes on Fridays', by: 'friday' })), laterTap],
      steps: [useTools([call('write_file', { file_path: 'a.txt' })]), say('done')],
    });
    const events = await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(toolResults(kernel)).toEqual(['[hook friday] no writes on Fridays']);
    expect(later).toBe(0);
    expect(doneEvent(events).finalText).toBe('done');
  });

  test('rewritten input is what the tool receives and what the permission layers judge; its context is not stored in history', async () => {
    writeSettings(dirs, 'project', { deny: ['Bash(rm:*)'] });
    const { kernel } = await bootRules(dirs, {
      plugins: [
        preToolUse((d) =>
          d.input.command === 'make'
            ? { ...d, input: { command: 'make -j4' }, additionalContext: [...d.additionalContext, 'builds use -j4 here'] }
            : { ...d, input: { command: 'rm -rf build' } }, // a rewrite cannot smuggle a denied command past the rules
        ),
      ],
      steps: [useTools([call('bash', { command: 'make' })]), useTools([call('bash', { command: 'ls' })]), say('ok')],
    });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(executed).toEqual(['bash:{"command":"make -j4"}']);
    const results = toolResults(kernel);
    expect(results[1]).toMatch(/denied/i);
    const history = JSON.stringify(kernel.conversation.messages);
    expect(history).not.toContain('builds use -j4 here'); // context is per request, not stored
  });
});

test('additionalContext from preToolUse is in the next request to the model', async () => {
  const model = memoryModel([useTools([call('write_note', { text: 'x' })]), say('ok')]);
  const log: ToolLog = { events: [] };
  const kernel = await Kernel.create({
    plugins: [model.plugin, permissionMode, toolsPlugin([writeTool(log)]), preToolUse((d) => ({ ...d, additionalContext: [...d.additionalContext, 'NOTE: the notes folder is shared'] }))],
    projectRoot: dirs.root,
    homeDir: dirs.home,
    env: memoryEnv,
    reporter: { warn: () => undefined, notice: () => undefined, debug: () => undefined },
  });
  await runPrompt(kernel, 'go', 'bypassPermissions');
  expect(log.events).toEqual(['write:x']);
  // The request's reminder, which the provider puts after the last tool results (not in history).
  expect(model.requests[1]!.reminder).toContain('NOTE: the notes folder is shared');
  expect(model.requests[0]!.reminder ?? '').not.toContain('NOTE: the notes folder is shared');
  expect(JSON.stringify(kernel.conversation.messages)).not.toContain('NOTE');
});

test('auto compaction: preCompact (auto) → the service rewrites history → postCompact; the next request carries the new history', async () => {
  const seen: string[] = [];
  const service: CompactionService = {
    // Compact once, before the second request of the run.
    shouldCompact: ({ estimatedTokens }) => seen.includes('request-1') && !seen.includes('compact') && estimatedTokens > 0,
    compact: async (messages: readonly Message[], { reason }) => {
      seen.push('compact', `reason:${reason}`, `before:${messages.length}`);
      return [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY of the work so far' }] }];
    },
  };
  const probe = definePlugin({
    name: 'compaction-probe',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)),
    apply(kernel) {
      kernel.hooks.preCompact.tapPromise('compaction-probe', async (state: ContextState) => void seen.push(`preCompact:${state.reason}`));
      kernel.hooks.postCompact.tapPromise('compaction-probe', async (state: ContextState) => void seen.push(`postCompact:${state.compacted}:${typeof state.tokensAfter}`));
      kernel.hooks.preModelRequest.tapPromise('compaction-probe', async (request) => {
        seen.push(`request-${seen.filter((s) => s.startsWith('request-')).length + 1}`);
        return request;
      });
    },
  });
  const model = memoryModel([useTools([call('write_note', { text: 'x' })]), say('ok')]);
  const log: ToolLog = { events: [] };
  const kernel = await Kernel.create({
    plugins: [model.plugin, permissionMode, toolsPlugin([writeTool(log)]), probe],
    projectRoot: dirs.root,
    homeDir: dirs.home,
    env: memoryEnv,
    reporter: { warn: () => undefined, notice: () => undefined, debug: () => undefined },
  });
  const events = await runPrompt(kernel, 'go', 'bypassPermissions');
  expect(seen).toEqual(['request-1', 'preCompact:auto', 'compact', 'reason:auto', 'before:3', 'postCompact:true:number', 'request-2']);
  expect(JSON.stringify(model.requests[1]!.messages)).toContain('SUMMARY of the work so far');
  expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('"go"');
  expect(events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end').map((e) => e.type)).toEqual(['compaction_start', 'compaction_end']);
  expect(doneEvent(events).finalText).toBe('ok');
});

describe('the output route', () => {
  function recordingUi(): { output: UserOutput; got: NotificationPayload[] } {
    const got: NotificationPayload[] = [];
    return { got, output: { notify: (payload) => void got.push(payload) } };
  }
  const bootWithoutReporter = (plugins: MewcodePlugin[] = []) =>
    Kernel.create({ plugins: [memoryModel([say('ok')]).plugin, ...plugins], projectRoot: dirs.root, homeDir: dirs.home, env: memoryEnv });

  test('what is said before a UI is active is kept and delivered to it first, in order; the notification hook sees all', async () => {
    const hooked: string[] = [];
    const listener = definePlugin({
      name: 'listener',
      apply(kernel) {
        kernel.hooks.notification.tapPromise('listener', async (payload) => void hooked.push(payload.message));
      },
    });
    const kernel = await bootWithoutReporter([listener]);
    kernel.notify('notice', 'first');
    kernel.warn('second');
    const ui = recordingUi();
    kernel.activateUi({ name: 'recording', handles: () => true, output: ui.output, run: async () => 0 });
    kernel.notify('notice', 'third');
    expect(ui.got.map((p) => [p.kind, p.message])).toEqual([
      ['notice', 'first'],
      ['warning', 'second'],
      ['notice', 'third'],
    ]);
    expect(ui.got[0]).toMatchObject({ sessionId: kernel.session.sessionId, agentId: 'main' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(hooked).toEqual(['first', 'second', 'third']);
    expect(kernel.ui?.name).toBe('recording');
  });

  test(`the buffer keeps ${OUTPUT_BUFFER_LIMIT} messages and reports how many it dropped`, async () => {
    const kernel = await bootWithoutReporter();
    for (let i = 0; i < OUTPUT_BUFFER_LIMIT + 3; i++) kernel.notify('notice', `m${i}`);
    const ui = recordingUi();
    kernel.activateUi({ name: 'recording', handles: () => true, output: ui.output, run: async () => 0 });
    expect(ui.got[0]).toEqual({ kind: 'warning', message: '3 earlier messages were dropped before the interface started' });
    expect(ui.got).toHaveLength(OUTPUT_BUFFER_LIMIT + 1);
    expect(ui.got.at(-1)!.message).toBe(`m${OUTPUT_BUFFER_LIMIT - 1}`);
  });

  test('with no UI ever, shutdown flushes what was said to stderr', async () => {
    const kernel = await bootWithoutReporter();
    kernel.warn('nobody drew a screen');
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await kernel.shutdown();
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).toContain('nobody drew a screen');
  });
});
