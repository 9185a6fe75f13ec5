/**
 * A deny rule without a pattern takes the tool out of the model's context (Claude Code's
 * behaviour): the request's tool list leaves it out; a call of it is still denied.
 */
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { cliOptions, fakeTools, tempDirs, trustPlugin, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

async function offered(options: { disallowedTools?: string[] } = {}) {
  const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
  const booted = await bootKernel([useTools([call('bash', { command: 'ls' })]), say('done')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust)], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
    cli: cliOptions({ disallowedTools: options.disallowedTools ?? [] }),
  });
  const events = await runPrompt(booted.kernel, 'go', 'bypassPermissions');
  return { names: booted.model.requests.map((request) => request.tools.map((tool) => tool.name)), events };
}

const ALL = ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'mcp__fs__read', 'mcp__fs__write', 'mcp__git__log'];

it('a bare tool name in deny (any layer, Claude Code or registered name) removes the tool from every request', async () => {
  writeSettings(dirs, 'user', { deny: ['Bash'] });
  writeSettings(dirs, 'project', { deny: ['mcp__fs'] });
  const { names, events } = await offered({ disallowedTools: ['Write', 'edit_file'] });
  expect(names).toEqual([
    ['read_file', 'glob', 'mcp__git__log'],
    ['read_file', 'glob', 'mcp__git__log'],
  ]);
  // A call the model makes anyway is still denied.
  const end = events.find((event) => event.type === 'tool_end');
  expect(end?.type === 'tool_end' ? end.result : undefined).toMatchObject({ isError: true, content: expect.stringContaining('"Bash"') });
});

it('Tool(*) and tool-name globs are bare too; a rule with a pattern, an ask or an allow removes nothing', async () => {
  writeSettings(dirs, 'user', { deny: ['Bash(rm *)', 'Read(*)', 'mcp__*__write'], ask: ['Glob'], allow: ['Edit'] });
  const { names } = await offered();
  expect(names[0]).toEqual(['bash', 'write_file', 'edit_file', 'glob', 'mcp__fs__read', 'mcp__git__log']);
});

it('without such a rule the list is as registered', async () => {
  writeSettings(dirs, 'user', { deny: ['Read(./.env)'] });
  const { names } = await offered();
  expect(names[0]).toEqual(ALL);
});
