// The session plugin in a real kernel: appends, each tool result as it is made, and a compaction
// reach the transcript through the hooks, and the store loads what a resume needs.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
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
