/**
 * A command file's `disallowed-tools` (Claude Code's skill key, accepted in command files): read in
 * every spelling, a deny for the command's turn (its own agent and its sub-agents) that its own
 * allowed-tools never lift; a misspelt key is a warning naming file:line and key.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commandRoots, loadCommandFiles } from '../../../plugins/custom-commands/command-file.js';
import { TurnGrants } from '../../../plugins/custom-commands/turn-grant.js';
import { ToolDenials } from '../../../sdk/tool-denials.js';
import type { ToolUseContext, ToolUseDecision } from '../../../types/hooks.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

test('disallowed-tools is read; an unknown key is a warning naming file:line and the nearest key, hooks: in a build without the hooks plugin one naming the command; the command loads', async () => {
  const root = temp('deny-commands-root-');
  const home = temp('deny-commands-home-');
  const dir = path.join(home, '.claude', 'commands');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'deploy.md');
  writeFileSync(file, '---\ndescription: d\ndisallowed-tools: Bash(rm:*), Write\nhooks:\n  PreToolUse: []\nargument-hnt: [env]\n---\nDeploy $0\n');
  writeFileSync(path.join(dir, 'list.md'), '---\ndisallowedTools:\n  - Edit\n---\nBody\n');
  const warnings: string[] = [];
  const loaded = await loadCommandFiles(commandRoots(home, root), (message) => warnings.push(message), undefined);
  expect(Object.fromEntries(loaded.map((c) => [c.name, c.disallowedTools]))).toEqual({ deploy: ['Bash(rm:*)', 'Write'], list: ['Edit'] });
  expect(warnings).toEqual([
    `custom commands: ${file}:6: unknown key "argument-hnt" (did you mean "argument-hint"?); ignored`,
    `custom commands: /deploy (${file}): its hooks are not run: this build has no hooks plugin`,
  ]);
});

test("the turn's deny holds against its own allowed-tools and another tap's allow, for its agent and that agent's sub-agents, until the next prompt", async () => {
  const grants = new TurnGrants({ projectRoot: '/p', homeDir: '/h' }, undefined, new ToolDenials({ container: { isBound: () => false } as never, projectRoot: '/p' }));
  const main = { sessionId: 's', agentId: 'main' };
  grants.begin(main, ['Write'], '/deploy (x.md)', { entries: ['Write'], label: '/deploy (x.md)', base: 'user' });
  grants.ready(main, 'Deploy prod');
  grants.promptSubmitted({ ...main, prompt: 'Deploy prod' } as never);
  const tool = { name: 'write_file', description: '', inputSchema: {}, execute: async () => ({ content: '' }) };
  const context = (agent: { agentId: string; parentAgentId?: string }) => ({ sessionId: 's', ...agent, call: { id: '1', name: 'write_file', input: {} }, tool, input: {} }) as unknown as ToolUseContext;
  const allowed: ToolUseDecision = { decision: 'allow', by: 'someone', input: {}, additionalContext: [] };
  expect(await grants.decide(allowed, context({ agentId: 'main' }))).toMatchObject({ decision: 'deny', reason: expect.stringContaining('/deploy (x.md) disallows this tool call (disallowed-tools: Write)') });
  expect(await grants.decide({ input: {}, additionalContext: [] }, context({ agentId: 'agent-1', parentAgentId: 'main' }))).toMatchObject({ decision: 'deny' });
  // Another agent of the session (not a sub-agent of the one that ran it) is not covered.
  expect((await grants.decide({ input: {}, additionalContext: [] }, context({ agentId: 'other' }))).decision).toBeUndefined();
  // The next prompt ends the command's turn, and its deny with it.
  grants.promptSubmitted({ ...main, prompt: 'something else' } as never);
  expect((await grants.decide({ input: {}, additionalContext: [] }, context({ agentId: 'main' }))).decision).toBeUndefined();
});
