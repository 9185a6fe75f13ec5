/**
 * Issue 14's acceptance: a scripted parent session (the real Anthropic SDK against the scripted
 * model server) delegates to an `explore` sub-agent that reads a file and returns a summary. The
 * parent's next request carries only that summary (and the usage line) as the tool result; the
 * sub-agent's own requests carry its own system prompt and only the read-only tools.
 */
import { expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import providerAnthropic from '../../../plugins/provider-anthropic/index.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import systemPrompt from '../../../plugins/system-prompt/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';
import toolWriteFile from '../../../plugins/tool-write-file/index.js';
import toolGlob from '../../../plugins/tool-glob/index.js';
import toolGrep from '../../../plugins/tool-grep/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { Tool } from '../../../types/tools.js';
import { collect, doneEvent } from '../../support/boot.js';
import { temp } from '../../support/temp-dirs.js';
import { providersConfig, scriptedServerPerTest } from './scripted.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { historyProblems } from '../../kernel/kernel-v2-helpers.js';

const scripted = scriptedServerPerTest();

/** MCP-style tools: only the one that declares itself read-only may reach an explore agent. */
const mcpTool = (name: string, readOnly: boolean): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly, execute: async () => ({ content: name }) });

test('a parent delegates to an explore sub-agent: only the summary returns, the sub-agent has its own prompt and the read-only tools', async () => {
  const server = scripted();
  const root = temp('mewcode-subagents-root-');
  const home = temp('mewcode-subagents-home-');
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'math.ts'), 'export function add(a: number, b: number): number {\n  return a + b; // SECRET-BODY-MARKER\n}\n');
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({
    plugins: [
      providerAnthropic, permissionMode, systemPrompt, outputLimits, toolReadFile, toolWriteFile, toolGlob, toolGrep,
      toolsPlugin([mcpTool('mcp__fs__read_text', true), mcpTool('mcp__fs__write_text', false)]),
      createSubagentsPlugin(),
    ],
    projectRoot: root,
    homeDir: home,
    env: {},
    reporter,
    config: providersConfig('claude', [{ name: 'claude', protocol: 'anthropic', model: 'claude-scripted', api_key: 'k', base_url: server.url, max_tokens: 4096, retry_base_delay_ms: 1 }]),
  });
  const summary = 'math.ts exports add(a, b), which returns their sum.';
  server.push(
    { text: 'Delegating.', toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { description: 'summarise math', prompt: 'Read src/math.ts and summarise what it exports.', subagent_type: 'explore' } }], usage: { input: 300, output: 30 } },
    { toolCalls: [{ id: 'toolu_read', name: 'read_file', input: { path: 'src/math.ts' } }], usage: { input: 120, output: 12 } },
    { text: summary, usage: { input: 180, output: 25 } },
    { text: 'The file adds numbers.' },
  );
  try {
    const events = await collect(kernel.session.run({ prompt: 'What does src/math.ts do? Use a sub-agent.', mode: 'default' }));
    expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'The file adds numbers.' });
    expect(server.requests).toHaveLength(4);
    const [parentFirst, childFirst, childSecond, parentNext] = server.requests.map((r) => r.body);

    // The sub-agent's requests: its own system prompt, the read-only tools only, none of the parent's history.
    const systemText = (body: any): string => (body.system ?? []).map((b: any) => b.text).join('\n');
    expect(systemText(childFirst)).toContain('read-only exploration sub-agent');
    expect(systemText(parentFirst)).not.toContain('read-only exploration sub-agent');
    const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);
    expect(toolNames(parentFirst)).toEqual(['read_file', 'write_file', 'glob', 'grep', 'mcp__fs__read_text', 'mcp__fs__write_text', 'agent', 'task_list', 'task_output', 'task_message', 'task_stop']);
    expect(toolNames(childFirst)).toEqual(['read_file', 'glob', 'grep', 'mcp__fs__read_text']);
    expect(toolNames(childSecond)).toEqual(toolNames(childFirst));
    expect(JSON.stringify(childFirst.messages)).not.toContain('Use a sub-agent');
    expect(JSON.stringify(childFirst.messages)).toContain('Read src/math.ts and summarise what it exports.');
    // The sub-agent read the file itself.
    expect(JSON.stringify(childSecond.messages)).toContain('SECRET-BODY-MARKER');

    // The parent's next request: the agent call answered by the summary and a usage line, nothing else.
    const last = parentNext.messages.at(-1);
    expect(last.role).toBe('user');
    const result = last.content.find((b: any) => b.type === 'tool_result');
    expect(result.tool_use_id).toBe('toolu_agent');
    const resultText = typeof result.content === 'string' ? result.content : result.content.map((b: any) => b.text).join('');
    expect(resultText).toMatch(new RegExp(`^${summary.replace(/[.()]/g, '\\$&')}\\n\\n\\[sub-agent explore agent-[0-9a-f]{8}: 2 iterations, 300 input / 37 output tokens\\]$`));
    expect(JSON.stringify(parentNext)).not.toContain('SECRET-BODY-MARKER');
    expect(JSON.stringify(parentNext)).not.toContain('toolu_read');
    expect(historyProblems(kernel.session.conversation.messages)).toEqual([]);
    expect(reporter.warnings).toEqual([]);
  } finally {
    await kernel.shutdown();
  }
});
