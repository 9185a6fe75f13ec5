/**
 * `tools` and `disallowedTools` in agent files, spelled as Claude Code accepts them: commas,
 * spaces (`tools: Read Grep Glob Bash`) or a YAML list, under `disallowedTools`,
 * `disallowed_tools` or `disallowed-tools`. A read-only reviewer written `disallowedTools: Write
 * Edit Bash` must lose those tools; a name in a disallow list that names no tool is warned about
 * (file:line, the name) and never gives the agent more.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { SubagentRunner } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';

afterEach(removeTempDirs);

const tool = (name: string): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly: name !== 'write_file' && name !== 'edit_file' && name !== 'bash', execute: async () => ({ content: `${name} ran` }) });
const ALL = ['read_file', 'write_file', 'edit_file', 'glob', 'grep', 'bash'];

const AGENTS: Record<string, string> = {
  'spaces.md': '---\nname: spaces\ndescription: d\ntools: Read Grep Glob Bash\n---\nP\n',
  'commas.md': '---\nname: commas\ndescription: d\ntools: Read, Grep,Glob\n---\nP\n',
  'yaml-list.md': '---\nname: yaml-list\ndescription: d\ntools:\n  - Read\n  - Bash\n---\nP\n',
  'ro.md': '---\nname: ro\ndescription: d\ndisallowedTools: Write Edit Bash\n---\nP\n',
  'ro-dash.md': '---\nname: ro-dash\ndescription: d\ndisallowed-tools: [Write, Edit]\n---\nP\n',
  'ro-snake.md': '---\nname: ro-snake\ndescription: d\ndisallowed_tools: Write,Edit Bash(rm:*)\n---\nP\n',
  'unknown.md': '---\nname: unknown\ndescription: d\n\ndisallowedTools: Write Frobnicate, mcp__later__tool\n---\nP\n',
};

async function boot(steps: Parameters<typeof bootKernel>[0]) {
  const root = temp('agent-tool-lists-root-');
  const home = temp('agent-tool-lists-home-');
  const agents = path.join(root, '.claude', 'agents');
  mkdirSync(agents, { recursive: true });
  for (const [name, text] of Object.entries(AGENTS)) writeFileSync(path.join(agents, name), text);
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const booted = await bootKernel(steps, [toolsPlugin(ALL.map(tool)), createSubagentsPlugin()], { projectRoot: root, homeDir: home, trust });
  return { ...booted, agents };
}

test('every spelling of a tool list gives the same list', async () => {
  const { kernel, reporter, agents } = await boot([]);
  await kernel.pluginsReady(); // the check runs once every plugin's tools are registered
  const roles = Object.fromEntries(kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner).roles().map((r) => [r.name, r]));
  expect(roles.spaces!.tools).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
  expect(roles.commas!.tools).toEqual(['Read', 'Grep', 'Glob']);
  expect(roles['yaml-list']!.tools).toEqual(['Read', 'Bash']);
  expect(roles.ro!.disallowedTools).toEqual(['Write', 'Edit', 'Bash']);
  expect(roles['ro-dash']!.disallowedTools).toEqual(['Write', 'Edit']);
  expect(roles['ro-snake']!.disallowedTools).toEqual(['Write', 'Edit', 'Bash']);
  expect(reporter.warnings).toEqual([
    expect.stringContaining(`subagents: ${path.join(agents, 'unknown.md')}:5: disallowedTools: "Frobnicate" names no tool`),
  ]);
  await kernel.shutdown();
});

test.each([
  ['spaces', ['read_file', 'grep', 'glob', 'bash']],
  ['ro', ['read_file', 'glob', 'grep']],
  ['ro-dash', ['read_file', 'glob', 'grep', 'bash']],
  ['unknown', ['read_file', 'edit_file', 'glob', 'grep', 'bash']],
])('the %s agent is offered exactly its tools', async (name, expected) => {
  const { kernel, model } = await boot([useTools([call('agent', { description: 'x', prompt: 'do it', subagent_type: name })]), say('DONE'), say('done')]);
  await runPrompt(kernel, 'go', 'default');
  expect(model.requests[1]!.tools.map((t) => t.name).sort()).toEqual([...expected].sort());
  await kernel.shutdown();
});
