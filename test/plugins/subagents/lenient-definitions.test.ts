/**
 * Agent files whose frontmatter strict YAML rejects — four of Anthropic's own (an unquoted `: `,
 * `<example>` blocks with `user: "…"` lines) and a hand-written one — load through the subagents
 * plugin as Claude Code loads them: offered to the `agent` tool with their full description, the
 * body as the system prompt. A file even the lenient reader cannot read is skipped naming file:line.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
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

const FIXTURES = path.resolve('test/fixtures/claude-agents');
const tool = (name: string): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly: name === 'read_file', execute: async () => ({ content: `${name} ran` }) });

test("a project's .claude/agents files that strict YAML rejects are offered to the agent tool with their full description", async () => {
  const root = temp('lenient-agents-root-');
  const home = temp('lenient-agents-home-');
  const agents = path.join(root, '.claude', 'agents');
  mkdirSync(agents, { recursive: true });
  for (const name of ['agent-creator.md', 'code-simplifier.md', 'conversation-analyzer.md', 'silent-failure-hunter.md']) copyFileSync(path.join(FIXTURES, name), path.join(agents, name));
  writeFileSync(path.join(agents, 'fixer.md'), '---\nname: fixer\ndescription: Use this agent when: the build breaks. <example>\nuser: "CI is red"\nassistant: "I will use the fixer agent"\n</example>\ntools: Read\n---\nFIXER PROMPT\n');
  writeFileSync(path.join(agents, 'conflicted.md'), '---\n<<<<<<< HEAD\nname: conflicted\n---\nbody\n');
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const { kernel, model, reporter } = await bootKernel(
    [useTools([call('agent', { description: 'fix', prompt: 'Fix the build', subagent_type: 'fixer' })]), say('FIXED'), say('done')],
    [toolsPlugin([tool('read_file'), tool('write_file')]), createSubagentsPlugin()],
    { projectRoot: root, homeDir: home, trust },
  );
  const roles = kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner).roles();
  expect(roles.map((r) => r.name)).toEqual(['agent-creator', 'code-simplifier', 'conversation-analyzer', 'explore', 'fixer', 'general', 'silent-failure-hunter']);
  const creator = roles.find((r) => r.name === 'agent-creator')!;
  expect(creator.description).toMatch(/^Use this agent when the user asks to "create an agent"[\s\S]*user: "Add an agent to my plugin that validates configurations"[\s\S]*<\/example>$/);
  expect(creator).toMatchObject({ tools: ['Write', 'Read'], model: 'sonnet' });
  const description = kernel.tools.get('agent')!.description;
  expect(description).toContain(`- agent-creator: ${creator.description}`);
  expect(description).toContain('- fixer: Use this agent when: the build breaks. <example>\nuser: "CI is red"\nassistant: "I will use the fixer agent"\n</example>');
  expect(reporter.warnings).toEqual([expect.stringMatching(new RegExp(`^subagents: ${path.join(agents, 'conflicted.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: invalid YAML in the frontmatter: "<<<<<<< HEAD" is not a "key: value" line`))]);

  await runPrompt(kernel, 'the build is broken', 'default');
  expect(model.requests[1]!.system.stable).toContain('FIXER PROMPT');
  expect(model.requests[1]!.tools.map((t) => t.name)).toEqual(['read_file']);
  await kernel.shutdown();
});
