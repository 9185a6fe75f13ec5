/**
 * Each structured-output path of a Claude-style hook (issue 13 item 3), and exit codes on
 * blocking and non-blocking events, through a real kernel; plus MewCode-only events.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { AgentEvent } from '../../../types/events.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

function project(settings?: unknown, rules?: string): { root: string; home: string } {
  const root = temp('mewcode-decisions-root-');
  const home = temp('mewcode-decisions-home-');
  mkdirSync(path.join(home, '.mewcode'));
  if (settings) writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify(settings));
  if (rules) writeFileSync(path.join(home, '.mewcode', 'hooks.yaml'), rules);
  return { root, home };
}

const echo = (json: unknown): string => `cat >/dev/null; printf '%s' '${JSON.stringify(json)}'`;
const tool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'written' }) };
const results = (request: { messages: readonly Message[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);
const plugins = () => [toolsPlugin([tool]), createHooksPlugin({ env: { PATH: process.env.PATH } })];

test('PreToolUse JSON: deny gives the model its reason; ask sends an allowed call to approval (nobody answers: denied)', async () => {
  for (const [decision, expected] of [
    ['deny', /^\[hook .*\] not in this repository$/],
    ['ask', /Permission required/],
  ] as const) {
    const { root, home } = project({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: echo({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: 'not in this repository' } }) }] }] } });
    const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
    try {
      await runPrompt(kernel, 'write', 'bypassPermissions');
      expect(results(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringMatching(expected) });
    } finally {
      await kernel.shutdown();
    }
  }
});

test('UserPromptSubmit decision:block drops the prompt; continue:false stops it with stopReason', async () => {
  for (const output of [{ decision: 'block', reason: 'no prompts after 6 pm' }, { continue: false, stopReason: 'the build is red' }]) {
    const { root, home } = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: echo(output) }] }] } });
    const { kernel, model } = await bootKernel([say('never')], plugins(), await trustedProject(root, home));
    try {
      const events = await runPrompt(kernel, 'hello');
      expect(doneEvent(events).reason).toBe('blocked');
      expect(model.requests).toHaveLength(0);
      expect(kernel.session.conversation.messages).toEqual([]); // never entered history
      expect(events.find((e): e is Extract<AgentEvent, { type: 'notice' }> => e.type === 'notice')!.message).toContain('reason' in output ? output.reason : output.stopReason);
    } finally {
      await kernel.shutdown();
    }
  }
});

test('exit 2 on PostToolUse cannot block (the tool ran) but its stderr reaches the model with the result; exit 1 is a visible failure', async () => {
  const { root, home } = project({
    hooks: {
      PostToolUse: [{ hooks: [{ type: 'command', command: 'echo "lint: 3 problems" >&2; exit 2' }, { type: 'command', command: 'echo "broken" >&2; exit 1' }] }],
    },
  });
  const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    const [result] = results(model.requests[1]);
    expect(result).toMatchObject({ isError: false });
    expect(result!.content).toMatch(/^written\n\n\[hook .*\] lint: 3 problems$/);
    expect(reporter.warnings.join('\n')).toMatch(/\(PostToolUse\) failed: exited with 1: broken/);
  } finally {
    await kernel.shutdown();
  }
});

test('MewCode rules on its own events: PreUserMessage joins every request, SessionResume and PostCompact fire', async () => {
  const { root, home } = project(
    undefined,
    [
      'hooks:',
      '  - name: every-request',
      '    event: PreUserMessage',
      '    action: { type: prompt, text: "Reminder from a rule." }',
      '  - name: resumed',
      '    event: SessionResume',
      '    action: { type: shell, command: "cat > resumed.json" }',
      '  - name: compacted',
      '    event: PostCompact',
      '    action: { type: shell, command: "cat > compacted.json" }',
      '',
    ].join('\n'),
  );
  const compaction = definePlugin({
    name: 'test-compaction',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.CompactionService).toConstantValue({ shouldCompact: () => false, compact: async (): Promise<Message[]> => [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] }] });
    }),
  });
  const { kernel, model } = await bootKernel([say('one'), say('two')], [...plugins(), compaction], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'first');
    expect(model.requests[0]!.reminder).toContain('Reminder from a rule.');
    await kernel.compactNow('default');
    expect(JSON.parse(readFileSync(path.join(root, 'compacted.json'), 'utf8'))).toMatchObject({ event: 'PostCompact', trigger: 'manual', session_id: kernel.session.sessionId });
    await kernel.resumeSession({ sessionId: kernel.session.sessionId, agentId: 'main', messages: [...kernel.session.conversation.messages] });
    expect(JSON.parse(readFileSync(path.join(root, 'resumed.json'), 'utf8'))).toMatchObject({ event: 'SessionResume', session_id: kernel.session.sessionId });
    await runPrompt(kernel, 'second');
    expect(model.requests[1]!.reminder).toContain('Reminder from a rule.');
  } finally {
    await kernel.shutdown();
  }
});

test('Claude Code\'s http handler: the payload is POSTed; a JSON answer decides; a 500 is a visible failure and the call goes on', async () => {
  const { createServer } = await import('node:http');
  const bodies: any[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      if (request.url === '/broken') response.writeHead(500).end('\u001b[2Joops');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'remote policy' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const { root, home } = project({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'http', url: `${base}/policy` }] }], PostToolUse: [{ hooks: [{ type: 'http', url: `${base}/broken`, timeout: 5 }] }] } });
    const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
    try {
      await runPrompt(kernel, 'write', 'bypassPermissions');
      expect(bodies[0]).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { path: 'a', file_path: path.join(root, 'a') } });
      expect(results(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringMatching(/\] remote policy$/) });
    } finally {
      await kernel.shutdown();
    }
    const other = project({ hooks: { PreToolUse: [{ hooks: [{ type: 'http', url: `${base}/broken` }] }] } });
    const second = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(other.root, other.home));
    try {
      await runPrompt(second.kernel, 'write', 'bypassPermissions');
      expect(results(second.model.requests[1])[0]).toMatchObject({ isError: false, content: 'written' });
      const warning = second.reporter.warnings.find((w) => w.includes('(PreToolUse) failed: exited with 1: HTTP 500'))!;
      expect(warning).toContain('HTTP 500: oops'); // the escape sequence is removed, the words stay
      expect(warning).not.toContain('\u001b');
    } finally {
      await second.kernel.shutdown();
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a timed-out hook ends even when a detached grandchild keeps its pipes open', async () => {
  const { root, home } = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'setsid sleep 30 & echo started', timeout: 0.5 }] }] } });
  const { kernel, reporter } = await bootKernel([say('ok')], plugins(), await trustedProject(root, home));
  try {
    const started = performance.now();
    await runPrompt(kernel, 'hi');
    expect(performance.now() - started).toBeLessThan(4000);
    expect(reporter.warnings.join('\n')).toContain('timed out');
  } finally {
    await kernel.shutdown();
  }
});

test('a FIFO planted as .mewcode/hooks.log blocks nothing: the run goes on unlogged, with a warning', async () => {
  const { execFileSync } = await import('node:child_process');
  const { root, home } = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
  mkdirSync(path.join(root, '.mewcode'));
  execFileSync('mkfifo', [path.join(root, '.mewcode', 'hooks.log')]);
  const { kernel, model, reporter } = await bootKernel([say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'hi');
    expect(model.requests).toHaveLength(1);
    expect(reporter.warnings.join('\n')).toContain('hook runs are not logged');
  } finally {
    await kernel.shutdown();
  }
});

test('Stop with continue:false ends the run even beside a block; a project rule cannot shadow a user rule of the same name', async () => {
  const { root, home } = project({ hooks: { Stop: [{ hooks: [{ type: 'command', command: echo({ continue: false, stopReason: 'quota reached', decision: 'block', reason: 'go on' }) }] }] } });
  const { kernel, model, reporter } = await bootKernel([say('done'), say('never')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'work');
    expect(model.requests).toHaveLength(1);
    expect(reporter.notices.join('\n')).toContain('quota reached');
  } finally {
    await kernel.shutdown();
  }
  const { loadRuleFiles } = await import('../../../plugins/hooks/rule-file.js');
  const { createWorkspaceTrust } = await import('../../../config/trust.js');
  const shadow = project(undefined, 'hooks:\n  - name: guard\n    event: PreToolUse\n    action: { type: shell, command: "exit 2" }\n');
  mkdirSync(path.join(shadow.root, '.mewcode'));
  writeFileSync(path.join(shadow.root, '.mewcode', 'hooks.yaml'), 'hooks:\n  - name: guard\n    event: PreToolUse\n    action: { type: shell, command: "true" }\n');
  const loaded = await loadRuleFiles(shadow.root, shadow.home, await createWorkspaceTrust({ projectRoot: shadow.root, homeDir: shadow.home, flag: true }));
  expect(loaded.rules.map((rule) => [rule.name, rule.sandboxed, rule.action])).toEqual([['guard', false, { type: 'shell', command: 'exit 2' }]]);
  expect(loaded.warnings.join('\n')).toContain("the project's rule is skipped");
});

test('a JSON object on stdout decides whatever the exit code, as in Claude Code', async () => {
  const { root, home } = project({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${echo({ decision: 'block', reason: 'frozen branch' })}; exit 1` }] }] } });
  const { kernel, model, reporter } = await bootKernel([say('never')], plugins(), await trustedProject(root, home));
  try {
    const events = await runPrompt(kernel, 'hello');
    expect(doneEvent(events).reason).toBe('blocked');
    expect(model.requests).toHaveLength(0);
    expect(reporter.warnings.join('\n')).not.toContain('failed');
  } finally {
    await kernel.shutdown();
  }
});
