// The session plugin in a real kernel: appends, each tool result as it is made, and a compaction
// reach the transcript through the hooks, and the store loads what a resume needs.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import { createSessionPlugin } from '../../../plugins/session/index.js';
import { transcriptFile } from '../../../plugins/session/layout.js';
import { definePlugin } from '../../../types/plugin.js';
import type { CompactionService, SessionStore } from '../../../types/index.js';
import { TOKENS } from '../../../types/tokens.js';
import { runPrompt } from '../../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin, writeTool, type ToolLog } from '../../support/test-tools.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-session-plugin-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const summary: CompactionService = {
  shouldCompact: () => false,
  compact: async () => [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY of the work so far' }] }],
};
const compaction = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(summary)) });

test('a run with a tool call, then a compaction: every step is in the transcript, and loading gives the compacted history', async () => {
  const log: ToolLog = { events: [] };
  const model = memoryModel([useTools([call('write_note', { text: 'a' }), call('write_note', { text: 'b' })]), say('done')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, toolsPlugin([writeTool(log)]), compaction, createSessionPlugin()], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
  await runPrompt(kernel, 'write two notes');
  const file = transcriptFile(root, kernel.session.sessionId, 'main');
  const types = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((r) => (r.type === 'message' ? `message:${r.message.role}` : r.type));
  // Each result is on disk as soon as it exists, before the batch's tool message.
  expect(types).toEqual(['session', 'message:user', 'message:assistant', 'tool_result', 'tool_result', 'message:tool', 'message:assistant']);

  expect(await kernel.session.compact('bypassPermissions')).toBe(true);
  const store = kernel.container.get<SessionStore>(TOKENS.SessionStore);
  const loaded = await store.load(kernel.session.sessionId);
  expect(loaded.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'SUMMARY of the work so far' }] }]);
  expect((await store.list())[0]).toMatchObject({ id: kernel.session.sessionId, title: 'write two notes', messages: 1 });
  await kernel.shutdown();
});

test('meta.json names the model the session switched to, not the registry\'s active one', async () => {
  const model = memoryModel([say('one'), say('two')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, createSessionPlugin()], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
  await runPrompt(kernel, 'first');
  const meta = () => JSON.parse(readFileSync(path.join(path.dirname(transcriptFile(root, kernel.session.sessionId, 'main')), 'meta.json'), 'utf8')) as { model: string };
  expect(meta().model).toBe('memory-model');
  kernel.session.switchModel({ model: 'memory-large' });
  await runPrompt(kernel, 'second');
  expect(meta().model).toBe('memory-large');
  await kernel.shutdown();
});

test('a sub-agent\'s transcript is closed when its run ends, and opened again by a later run', async () => {
  const model = memoryModel([say('child one'), say('child two')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, createSessionPlugin()], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
  const child = kernel.session.fork({ context: 'none' });
  const file = transcriptFile(root, child.sessionId, child.agentId);
  const openOn = (target: string): number => readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === target;
    } catch {
      return false;
    }
  }).length;
  let during = -1;
  const run = async (prompt: string): Promise<void> => {
    for await (const event of child.run({ prompt, mode: 'bypassPermissions' })) if (event.type === 'text') during = openOn(file);
  };
  await run('one');
  expect(during).toBe(1);
  expect(openOn(file)).toBe(0);
  await run('two');
  expect(openOn(file)).toBe(0);
  const roles = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'message').map((r) => r.message.role);
  expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
  await kernel.shutdown();
});
