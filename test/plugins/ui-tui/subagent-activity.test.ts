// The terminal UI shows what sub-agents do: one live progress line per running sub-agent, naming
// it (terminal-safe: the description comes from the model) and its latest tool call, gone when it
// ends. Driven by the real sub-agent runner in a booted kernel.
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import { describeCall } from '../../../plugins/ui-tui/app/tool-text.js';
import { followSubagents } from '../../../plugins/ui-tui/model/subagent-activity.js';
import { UiStore } from '../../../plugins/ui-tui/model/ui-store.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { promptOf, routedSteps, turnOf } from '../../kernel/kernel-v2-helpers.js';

afterEach(() => removeTempDirs());

const status = { provider: 'p', model: 'm', mode: 'default' as const, sandbox: 'none', contextWindow: 1000, contextTokens: 0, sessionTokens: 0 };

test('a sub-agent shows as one progress line: who it is, then its tool call, gone when it ends', async () => {
  const look: Tool = { name: 'mcp__docs__look', description: 'Looks.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } }, readOnly: true, execute: async () => ({ content: 'seen' }) };
  const steps = routedSteps(8, async (request) => {
    if (promptOf(request) === 'look it up') return turnOf(request) === 0 ? useTools([call('mcp__docs__look', { query: 'retry policy' })]) : say('found it');
    return turnOf(request) === 0 ? useTools([call('agent', { description: 'find \u001b[31mthe bug', prompt: 'look it up' })]) : say('done');
  });
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([look]), createSubagentsPlugin()], { projectRoot: temp('mewcode-tui-sub-root-'), homeDir: temp('mewcode-tui-sub-home-') });
  let clock = 1_000;
  const store = new UiStore(status, () => clock++);
  const lines: string[][] = [];
  store.subscribe(() => lines.push(store.snapshot.progress.map((p) => `${p.startedAt} ${p.text}`)));
  const stop = followSubagents(kernel.container.get(TOKENS.SubagentRunner), store, describeCall);

  await runPrompt(kernel, 'delegate', 'default');
  const shown = [...new Set(lines.flat())];
  expect(shown).toEqual([
    '1000 Sub-agent general (find ?[31mthe bug): working…',
    '1000 Sub-agent general (find ?[31mthe bug): mcp__docs__look(retry policy)',
  ]);
  expect(store.snapshot.progress).toEqual([]);

  // Once stopped, later sub-agents no longer reach the store.
  stop();
  const before = lines.length;
  await runPrompt(kernel, 'delegate', 'default');
  expect(model.requests.filter((r) => promptOf(r) === 'look it up')).toHaveLength(4);
  expect(lines.length).toBe(before);
  await kernel.shutdown();
});
