/**
 * The sub-agent runner (G1–G3) in a real kernel with the in-memory model: isolation, the
 * tool filter, definition files in Claude Code's format (Claude tool names, project over user,
 * workspace trust, bad files named), nesting refused, unknown types, the runner as a service.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import { NESTING_REFUSED } from '../../../plugins/subagents/runner.js';
import { BACKGROUND_ALLOWED, subagentToolFilter } from '../../../plugins/subagents/tool-filter.js';
import type { KernelApi } from '../../../types/plugin.js';
import type { SubagentRunner } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { historyProblems } from '../../kernel/kernel-v2-helpers.js';

afterEach(removeTempDirs);

const tool = (name: string, readOnly: boolean, extra: Partial<Tool> = {}): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly, execute: async () => ({ content: `${name} ran` }), ...extra });
const BUILT_INS = [tool('read_file', true), tool('write_file', false), tool('edit_file', false), tool('bash', false), tool('glob', true), tool('grep', true)];
const EXTRA = [tool('mcp__gh__search', true), tool('mcp__gh__create_issue', false), tool('load_skill', false, { system: true }), tool('notes', false)];
const allTools = toolsPlugin([...BUILT_INS, ...EXTRA]);

function dirs(): { root: string; home: string } {
  return { root: temp('mewcode-subagents-root-'), home: temp('mewcode-subagents-home-') };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const runnerOf = (kernel: { container: { get: (t: typeof TOKENS.SubagentRunner) => SubagentRunner } }): SubagentRunner => kernel.container.get(TOKENS.SubagentRunner);

test('isolation: the sub-agent sees only its prompt, and the parent gets only its final text back', async () => {
  const { root, home } = dirs();
  const { kernel, model } = await bootKernel(
    [
      say('I will remember PARENT-ONLY-FACT.'),
      useTools([call('agent', { description: 'look around', prompt: 'List what you can see.' })]),
      useTools([call('read_file', { path: 'x' })]),
      say('CHILD-REPORT'),
      say('parent done'),
    ],
    [allTools, createSubagentsPlugin()],
    { projectRoot: root, homeDir: home },
  );
  await runPrompt(kernel, 'Remember PARENT-ONLY-FACT.');
  const events = await runPrompt(kernel, 'Delegate.', 'default');
  expect(doneEvent(events).finalText).toBe('parent done');
  const child = model.requests.slice(2, 4);
  for (const request of child) expect(JSON.stringify(request.messages)).not.toContain('PARENT-ONLY-FACT');
  expect(child[0]!.messages).toHaveLength(1);
  // The sub-agent's own tool call and its result stay in its own history.
  const parentNext = JSON.stringify(model.requests[4]!.messages);
  expect(parentNext).not.toContain('read_file ran');
  const tail = model.requests[4]!.messages.at(-1)!;
  expect(tail.role).toBe('tool');
  if (tail.role === 'tool') expect(tail.results[0]!.content).toMatch(/^CHILD-REPORT\n\n\[sub-agent general agent-[0-9a-f]{8}: 2 iterations, /);
  expect(historyProblems(kernel.session.conversation.messages)).toEqual([]);
  await kernel.shutdown();
});

test('filter (G2): never the agent or task tools; background keeps its allowlist, MCP and system tools; disallowed before allowed; system tools always', () => {
  const all = [...BUILT_INS, ...EXTRA, tool('agent', true), tool('task_list', true), tool('task_stop', true)];
  const pick = (spec: Parameters<typeof subagentToolFilter>[0]): string[] => all.filter(subagentToolFilter(spec)).map((t) => t.name);
  expect(pick({})).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'mcp__gh__search', 'mcp__gh__create_issue', 'load_skill', 'notes']);
  expect(pick({ background: true })).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'mcp__gh__search', 'mcp__gh__create_issue', 'load_skill']);
  expect([...BACKGROUND_ALLOWED].sort()).toEqual(['bash', 'edit_file', 'glob', 'grep', 'read_file', 'write_file']);
  // Read-only means the tool's readOnly: an MCP tool that writes is out, the read-only one stays.
  expect(pick({ readOnly: true })).toEqual(['read_file', 'glob', 'grep', 'mcp__gh__search', 'load_skill']);
  // Claude Code's names map to ours; a tool both allowed and disallowed is out; a system tool needs no listing.
  expect(pick({ allowed: ['Read', 'Grep', 'Bash', 'mcp__gh__search'], disallowed: ['Bash'] })).toEqual(['read_file', 'grep', 'mcp__gh__search', 'load_skill']);
  // Names are exact as registered (the seed dropped load_skill by spelling it LoadSkill).
  expect(pick({ allowed: ['LoadSkill', 'read_file'] })).toEqual(['read_file', 'load_skill']);
  expect(pick({ allowed: [] })).toEqual(['load_skill']);
  expect(pick({ only: ['glob', 'agent'] })).toEqual(['glob', 'load_skill']);
  expect(pick({ disallowed: ['*'] })).toEqual(['load_skill']);
});

test("a tool list names an MCP server's tools as Claude Code does: mcp__srv (every tool of the server) or mcp__srv__*", () => {
  const all = [...BUILT_INS, ...EXTRA, tool('mcp__other__x', true), tool('mcp__ghost__y', true)];
  const pick = (spec: Parameters<typeof subagentToolFilter>[0]): string[] => all.filter(subagentToolFilter(spec)).map((t) => t.name);
  expect(pick({ allowed: ['Read', 'mcp__gh__*'] })).toEqual(['read_file', 'mcp__gh__search', 'mcp__gh__create_issue', 'load_skill']);
  expect(pick({ allowed: ['Read', 'mcp__gh'] })).toEqual(['read_file', 'mcp__gh__search', 'mcp__gh__create_issue', 'load_skill']);
  // A server's name is not a prefix of another's (mcp__gh is not mcp__ghost).
  expect(pick({ allowed: ['mcp__gh'] })).not.toContain('mcp__ghost__y');
  expect(pick({ disallowed: ['mcp__gh'] })).toEqual(expect.not.arrayContaining(['mcp__gh__search', 'mcp__gh__create_issue']));
  expect(pick({ disallowed: ['mcp__gh__*'] })).toContain('mcp__other__x');
});

test('definition files: Claude-named tool lists, the body as system prompt, project over user, model, bad files skipped by name', async () => {
  const { root, home } = dirs();
  write(path.join(home, '.mewcode', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: user reviewer\ntools: Read\n---\nUSER PROMPT\n');
  write(path.join(home, '.mewcode', 'agents', 'tester.md'), '---\nname: tester\ndescription: Runs tests\ntools: [Bash, Read, "Bash(npm test:*)"]\ndisallowedTools: Write\n---\nTESTER PROMPT\n');
  // Not YAML, and no key before its text: even the lenient reader cannot read it.
  write(path.join(home, '.mewcode', 'agents', 'broken.md'), '---\n# notes\n<<<<<<< HEAD\nname: broken\n---\nbody\n');
  write(path.join(home, '.mewcode', 'agents', 'plain.md'), 'no frontmatter here\n');
  write(path.join(home, '.mewcode', 'agents', 'typed.md'), '---\nname: typed\ndescription: bad model\n# a comment\nmodel: [a, b]\n---\nbody\n');
  write(path.join(root, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep, Glob\ndisallowed_tools: Grep\nmodel: inherit\n---\n\nYou review code. PROJECT PROMPT\n');
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const { kernel, model, reporter } = await bootKernel(
    [useTools([call('agent', { description: 'review', prompt: 'Review a.ts', subagent_type: 'reviewer' })]), say('LGTM'), say('ok'), say('tested'), say('ok 2')],
    [allTools, createSubagentsPlugin()],
    { projectRoot: root, homeDir: home, trust },
  );
  const runner = runnerOf(kernel);
  expect(runner.roles().map((r) => [r.name, r.description])).toEqual([
    ['explore', expect.stringContaining('Read-only')],
    ['general', expect.stringContaining('General-purpose')],
    ['reviewer', 'Reviews code for bugs'],
    ['tester', 'Runs tests'],
  ]);
  expect(reporter.warnings.join('\n')).toContain(`${path.join(home, '.mewcode', 'agents', 'broken.md')}:3:`);
  expect(reporter.warnings.join('\n')).toContain(`${path.join(home, '.mewcode', 'agents', 'plain.md')}:1: no frontmatter`);
  expect(reporter.warnings.join('\n')).toContain(`${path.join(home, '.mewcode', 'agents', 'tester.md')}:4: tools: "Bash(npm test:*)" has a pattern`);
  expect(reporter.warnings.join('\n')).toContain(`${path.join(home, '.mewcode', 'agents', 'typed.md')}:5: model: must be text`);
  // The catalogue is in the agent tool's description.
  expect(kernel.tools.get('agent')!.description).toContain('- reviewer: Reviews code for bugs');
  // /agents lists each type with where it comes from.
  const listing = await kernel.commands().find((c) => c.name === 'agents')!.run(kernel.session, '', { mode: 'default' });
  expect(listing.output!.split('\n')).toEqual([
    'Sub-agent types:',
    '  explore (built in; read-only tools)',
    expect.stringContaining('Read-only agent'),
    '  general (built in; all tools)',
    expect.stringContaining('General-purpose'),
    `  reviewer (${path.join(root, '.claude', 'agents', 'reviewer.md')}; tools: Read, Grep, Glob; not: Grep; model: inherit)`,
    '    Reviews code for bugs',
    `  tester (${path.join(home, '.mewcode', 'agents', 'tester.md')}; tools: Bash, Read; not: Write)`,
    '    Runs tests',
    '',
    'No background tasks.',
  ]);

  await runPrompt(kernel, 'review please', 'default');
  const reviewer = model.requests[1]!;
  expect(reviewer.system.stable).toContain('PROJECT PROMPT');
  expect(reviewer.system.stable).not.toContain('USER PROMPT');
  expect(reviewer.tools.map((t) => t.name)).toEqual(['read_file', 'glob', 'load_skill']);

  const tester = await runner.run({ prompt: 'run the tests', role: 'tester' });
  expect(tester).toMatchObject({ text: 'tested', isError: false, endReason: 'completed' });
  expect(model.requests[3]!.tools.map((t) => t.name)).toEqual(['read_file', 'bash', 'load_skill']);
  await kernel.shutdown();
});

test('a definition file named explore replaces its prompt and tools but stays read-only', async () => {
  const { root, home } = dirs();
  write(path.join(home, '.mewcode', 'agents', 'explore.md'), '---\nname: explore\ndescription: my explorer\ntools: Read, Write, Bash, Grep\n---\nMY EXPLORER\n');
  const { kernel, model } = await bootKernel([say('found it')], [allTools, createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  const runner = runnerOf(kernel);
  expect(runner.roles().find((r) => r.name === 'explore')).toMatchObject({ description: 'my explorer', readOnly: true });
  expect(await runner.run({ prompt: 'look around', role: 'explore' })).toMatchObject({ text: 'found it', isError: false });
  expect(model.requests[0]!.system.stable).toContain('MY EXPLORER');
  expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['read_file', 'grep', 'load_skill']);
  await kernel.shutdown();
});

test('project definitions need workspace trust; an untrusted project falls back to the user\'s', async () => {
  const { root, home } = dirs();
  write(path.join(home, '.mewcode', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: user reviewer\n---\nUSER PROMPT\n');
  write(path.join(root, '.mewcode', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: project reviewer\n---\nPROJECT PROMPT\n');
  write(path.join(root, '.claude', 'agents', 'sneaky.md'), '---\nname: sneaky\ndescription: project only\n---\nSNEAKY\n');
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  expect(trust.pending().settings.map((s) => `${s.file}: ${s.key}`)).toEqual(['.claude/agents/sneaky.md: agents', '.mewcode/agents/reviewer.md: agents']);
  const { kernel } = await bootKernel([], [allTools, createSubagentsPlugin()], { projectRoot: root, homeDir: home, trust });
  expect(runnerOf(kernel).roles().map((r) => [r.name, r.description])).toEqual([
    ['explore', expect.any(String)],
    ['general', expect.any(String)],
    ['reviewer', 'user reviewer'],
  ]);
  expect(trust.skipped()).toEqual(['.claude/agents/sneaky.md: agents', '.mewcode/agents/reviewer.md: agents']);
  await kernel.shutdown();
});

test('nesting is refused: a sub-agent has no agent tool, and the runner refuses a sub-agent parent with an error result', async () => {
  const { root, home } = dirs();
  let nested: Awaited<ReturnType<SubagentRunner['run']>> | undefined;
  const { kernel, model } = await bootKernel(
    [useTools([call('agent', { description: 'outer', prompt: 'go' })]), useTools([call('spawn', {})]), say('child done'), say('parent done')],
    [
      allTools,
      toolsPlugin(
        [
          tool('spawn', true, {
            async execute(_input, context) {
              nested = await runnerOf(kernel).run({ parent: context.session, prompt: 'nested' });
              return { content: nested.text, isError: nested.isError };
            },
          }),
        ],
        'spawner',
      ),
      createSubagentsPlugin(),
    ],
    { projectRoot: root, homeDir: home },
  );
  await runPrompt(kernel, 'start', 'default');
  expect(model.requests[1]!.tools.map((t) => t.name)).not.toContain('agent');
  expect(nested).toMatchObject({ isError: true, endReason: 'error', text: NESTING_REFUSED });
  expect(model.requests).toHaveLength(4); // no request was ever made for the nested agent
  await kernel.shutdown();
});

test('an unknown subagent_type is an error result naming the types; a missing prompt too', async () => {
  const { root, home } = dirs();
  const { kernel, model } = await bootKernel(
    [useTools([call('agent', { description: 'x', prompt: 'y', subagent_type: 'nope' }), call('agent', { description: 'x', prompt: '  ' })]), say('ok')],
    [allTools, createSubagentsPlugin()],
    { projectRoot: root, homeDir: home },
  );
  await runPrompt(kernel, 'go', 'default');
  const results = model.requests[1]!.messages.at(-1)!;
  expect(results.role).toBe('tool');
  if (results.role !== 'tool') return;
  expect(results.results[0]).toMatchObject({ isError: true, content: 'Unknown sub-agent type "nope". Available types: explore, general.' });
  expect(results.results[1]).toMatchObject({ isError: true, content: expect.stringContaining('non-empty `prompt`') });
  await kernel.shutdown();
});

test('a sub-agent runs in its parent\'s mode through the same permission chain: plan offers read-only tools; default asks before a write (no one to ask: denied)', async () => {
  const { root, home } = dirs();
  let wrote = 0;
  const note = tool('write_note', false, { category: 'write', permissionTarget: () => ({ kind: 'path', path: 'note.txt' }), execute: async () => ((wrote += 1), { content: 'noted' }) });
  const { kernel, model } = await bootKernel(
    [
      useTools([call('agent', { description: 'plan it', prompt: 'plan' })]),
      say('a plan'),
      say('planned'),
      useTools([call('agent', { description: 'write it', prompt: 'write' })]),
      useTools([call('write_note', { text: 'x' })]),
      say('could not write'),
      say('reported'),
    ],
    [allTools, toolsPlugin([note], 'note-tool'), createSubagentsPlugin()],
    { projectRoot: root, homeDir: home },
  );
  await runPrompt(kernel, 'make a plan', 'plan');
  expect(model.requests[1]!.tools.map((t) => t.name)).toEqual(['read_file', 'glob', 'grep', 'mcp__gh__search', 'load_skill']);
  await runPrompt(kernel, 'write a note', 'default');
  expect(wrote).toBe(0);
  const denied = model.requests[5]!.messages.at(-1)!;
  expect(denied.role === 'tool' && denied.results[0]!.isError).toBe(true);
  await kernel.shutdown();
});

test('a sub-agent stops after 2 iterations that asked only for unknown tools; the parent gets an error result saying so', async () => {
  const { root, home } = dirs();
  const { kernel, model } = await bootKernel(
    [useTools([call('agent', { description: 'lost', prompt: 'go' })]), useTools([call('no_such_tool', {})]), useTools([call('no_such_tool', {})]), say('ok')],
    [allTools, createSubagentsPlugin()],
    { projectRoot: root, homeDir: home },
  );
  await runPrompt(kernel, 'delegate', 'default');
  expect(model.requests).toHaveLength(4);
  const result = model.requests[3]!.messages.at(-1)!;
  expect(result.role).toBe('tool');
  if (result.role === 'tool') expect(result.results[0]).toMatchObject({ isError: true, content: expect.stringMatching(/ended: unknown_tools\]$/) });
  await kernel.shutdown();
});

test('a definition that is a link to a device is skipped by name, without hanging the start', async () => {
  const { root, home } = dirs();
  write(path.join(home, '.mewcode', 'agents', 'ok.md'), '---\nname: ok\ndescription: fine\n---\nOK\n');
  symlinkSync('/dev/zero', path.join(home, '.mewcode', 'agents', 'zero.md'));
  const { kernel, reporter } = await bootKernel([], [allTools, createSubagentsPlugin()], { projectRoot: root, homeDir: home });
  expect(reporter.warnings).toEqual([`subagents: ${path.join(home, '.mewcode', 'agents', 'zero.md')}: it leads to /dev/zero, a system file; skipped`]);
  expect(runnerOf(kernel).roles().map((r) => r.name)).toEqual(['explore', 'general', 'ok']);
  await kernel.shutdown();
});

test("what a plugin resolves of the sub-agent service leads to no KernelApi and attaches nothing: the subagents plugin's taps stay its own", async () => {
  const { root, home } = dirs();
  let seen: { runner: unknown; state: unknown } | undefined;
  const sneak = {
    name: 'sneak',
    apply(kernel: KernelApi) {
      seen = { runner: kernel.container.get(TOKENS.SubagentRunner), state: kernel.container.get(Symbol.for('mewcode/subagents/service')) };
    },
  };
  const { kernel } = await bootKernel([say('CHILD-REPORT')], [allTools, createSubagentsPlugin(), sneak], { projectRoot: root, homeDir: home });
  const { runner, state } = seen!;
  // The contract's methods, frozen; the plugin's own key is an empty frozen object.
  expect(Reflect.ownKeys(runner as object).sort()).toEqual(['roles', 'run', 'subscribe']);
  expect(Object.isFrozen(runner)).toBe(true);
  expect(Reflect.ownKeys(state as object)).toEqual([]);
  expect(Object.isFrozen(state)).toBe(true);
  expect((runner as { kernel?: unknown }).kernel).toBeUndefined();
  expect((runner as { attach?: unknown }).attach).toBeUndefined();
  // And it still runs sub-agents for whoever resolves it.
  expect(await runnerOf(kernel).run({ prompt: 'go', parent: kernel.session })).toMatchObject({ text: 'CHILD-REPORT', isError: false });
  await kernel.shutdown();
});
