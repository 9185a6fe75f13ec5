/** The context budget (issue 11 item 5): over the share, MCP tools are found on demand, not sent. */
import { afterEach, expect, test } from '@jest/globals';
import type { ToolMessage } from '../../../types/messages.js';
import type { ModelRequest } from '../../../types/provider.js';
import { searchTools } from '../../../plugins/mcp/tool-search.js';
import type { Tool } from '../../../types/tools.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { runPrompt } from '../../support/boot.js';
import { bootMcp, EVERYTHING, mcpProject, removeTempDirs, settled } from './helpers.js';

afterEach(removeTempDirs);

const everything = { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] };
/** Long: under a loaded test machine server-everything may need more than the default 1.5 s. */
const WAIT = { startup_wait_ms: 20_000 };
const names = (request: ModelRequest | undefined): string[] => (request?.tools ?? []).map((t) => t.name);
const results = (request: ModelRequest | undefined): ToolMessage['results'] => {
  const last = request?.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};

test('over the share of the context window: only mcp_tool_search is sent; what it finds is callable from the next step and stays', async () => {
  // The memory provider's window is 100,000 tokens; 0.1 % of it is far less than 15 tool definitions.
  const project = mcpProject({ mcp: { ...WAIT, tool_search_share: 0.001 }, mcp_servers: { everything } });
  const { kernel, model } = await bootMcp(project, [
    useTools([call('mcp_tool_search', { query: 'sum of two numbers', max_results: 1 })]),
    useTools([call('mcp__everything__get-sum', { a: 20, b: 22 })]),
    say('42'),
    say('again'),
  ]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'add');
    expect(names(model.requests[0])).toEqual(['mcp_tool_search']);
    const [found] = results(model.requests[1]);
    expect(found!.content).toMatch(/^1 tool found; callable from your next step:/);
    expect(found!.content).toContain('"name": "mcp__everything__get-sum"');
    expect(names(model.requests[1])).toEqual(['mcp__everything__get-sum', 'mcp_tool_search']);
    expect(results(model.requests[2])[0]).toMatchObject({ isError: false, content: 'The sum of 20 and 22 is 42.' });
    await runPrompt(kernel, 'next');
    expect(names(model.requests[3])).toEqual(names(model.requests[2])); // loaded for good, same bytes (K3)
    expect(JSON.stringify(model.requests[3]!.tools)).toBe(JSON.stringify(model.requests[2]!.tools));
  } finally {
    await kernel.shutdown();
  }
});

test('under the share, or with tool_search: never, every MCP tool is sent and there is no search tool', async () => {
  for (const mcp of [WAIT, { ...WAIT, tool_search: 'never', tool_search_share: 0.001 }]) {
    const project = mcpProject({ mcp, mcp_servers: { everything } });
    const { kernel, model } = await bootMcp(project, [say('ok')]);
    try {
      await settled(kernel);
      await runPrompt(kernel, 'hi');
      expect(names(model.requests[0])).toContain('mcp__everything__echo');
      expect(names(model.requests[0])).not.toContain('mcp_tool_search');
    } finally {
      await kernel.shutdown();
    }
  }
});

test('search ranking: name words before description words; select: picks exact names; nothing matches → empty', () => {
  const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: '' }) });
  const tools = [tool('mcp__gh__create_issue', 'Open an issue'), tool('mcp__gh__list_prs', 'List pull requests, including issue links'), tool('mcp__fs__read', 'Read a file')];
  expect(searchTools(tools, 'issue', 5).map((t) => t.name)).toEqual(['mcp__gh__create_issue', 'mcp__gh__list_prs']);
  expect(searchTools(tools, 'select:mcp__fs__read, mcp__gh__list_prs', 5).map((t) => t.name)).toEqual(['mcp__gh__list_prs', 'mcp__fs__read']);
  expect(searchTools(tools, 'weather', 5)).toEqual([]);
  expect(searchTools(tools, 'issue', 1)).toHaveLength(1);
});
