/**
 * The user's own hooks and a repository they do not trust: in an untrusted project they run
 * inside the OS sandbox (or, where none can run, not at all, refusing what a guard would have
 * judged), so a planted `node_modules/.bin/prettier` never runs on the host; every hook finds
 * programs through PATH's absolute entries only; and rule files judge the file a tool names,
 * not its spelling (`./.env`, `src/../.env`, an absolute path).
 */
import { afterEach, expect, test } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { ownToolInput } from '../../../plugins/hooks/events.js';
import { hookEnvironment } from '../../../plugins/hooks/run-command.js';
import sandboxOs, { OsCommandSandbox } from '../../../plugins/sandbox-os/index.js';
import type { ToolMessage } from '../../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import type { CommandSandbox } from '../../../types/sandbox.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustedProject } from './rule-setup.js';

const outsideDirs: string[] = [];
afterEach(() => {
  removeTempDirs();
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Outside the project and visible inside the sandbox (its /tmp is private, so not there). */
function outsideDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : '/tmp', 'mewcode-hooks-outside-')));
  outsideDirs.push(dir);
  return dir;
}

const written: string[] = [];
const writeTool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async (input) => (written.push(String(input.path)), { content: `wrote ${String(input.path)}` }) };
const lastResults = (request: { messages: readonly unknown[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);

/** The real service, told it runs where no OS sandbox exists. */
const noSandboxHere: MewcodePlugin = definePlugin({
  name: 'sandbox-os',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CommandSandbox).toConstantValue(new OsCommandSandbox({ homeDir: '/nonexistent-home', warn: () => undefined, platform: 'aix' }));
  }),
});

/** A hostile repository: a planted program under node_modules/.bin that leaves a mark where it ran and outside. */
function hostileProject(programs: string[], outside: string): { root: string; home: string } {
  const root = temp('mewcode-untrusted-root-');
  const home = temp('mewcode-untrusted-home-');
  mkdirSync(path.join(home, '.mewcode'));
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  for (const name of programs) {
    const file = path.join(root, 'node_modules', '.bin', name);
    writeFileSync(file, `#!/bin/sh\ntouch "$PWD/${name}-ran-here"\necho host > "${outside}/${name}-pwned"\n`);
    chmodSync(file, 0o755);
  }
  return { root, home };
}

function userSettings(home: string, hooks: Record<string, unknown>): void {
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
}

test("untrusted project: the user's own hook runs inside the OS sandbox, so the repository's planted prettier cannot touch the host; the run says so once", async () => {
  const outside = outsideDir();
  const { root, home } = hostileProject(['prettier'], outside);
  // What `npx prettier --write …` does: the project's node_modules/.bin first.
  userSettings(home, { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'PATH="$PWD/node_modules/.bin:$PATH" prettier --write x' }] }] });
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  const { kernel, reporter } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), useTools([call('write_file', { path: 'b.md' })]), say('ok')], [sandboxOs, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], { projectRoot: root, homeDir: home, trust });
  try {
    const status = await kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).probe();
    if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return; // nothing to contain it with here
    expect(status.active).toBe(true);
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(existsSync(path.join(root, 'prettier-ran-here'))).toBe(true); // it ran, in the project…
    expect(existsSync(path.join(outside, 'prettier-pwned'))).toBe(false); // …but never on the host
    expect(reporter.notices.filter((notice) => notice.startsWith('hooks: this project is not trusted'))).toEqual([expect.stringContaining('run inside the OS sandbox')]);
  } finally {
    await kernel.shutdown();
  }
});

test('untrusted project without an OS sandbox: a hook does not run; a PreToolUse guard that matched refuses the call, the others pass', async () => {
  const outside = outsideDir();
  const { root, home } = hostileProject(['prettier'], outside);
  userSettings(home, {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'touch "$HOME/bash-guard-ran"' }] }],
    PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'PATH="$PWD/node_modules/.bin:$PATH" prettier --write x' }] }],
  });
  // A rule file's guard too (MewCode's own rule engine).
  writeFileSync(
    path.join(home, '.mewcode', 'hooks.yaml'),
    ['hooks:', '  - name: env-guard', '    event: PreToolUse', '    if: { all_of: [ { field: tool_input.path, match: { type: glob, value: "**/.env*" } } ] }', '    action: { type: shell, command: "exit 0" }', ''].join('\n'),
  );
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  written.length = 0;
  const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), useTools([call('write_file', { path: '.env' })]), say('ok')], [noSandboxHere, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], { projectRoot: root, homeDir: home, trust });
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    // No guard matched a.md: it was written; the formatter did not run (not on the host, nowhere).
    expect(lastResults(model.requests[1])[0]).toMatchObject({ isError: false, content: 'wrote a.md' });
    expect(existsSync(path.join(root, 'prettier-ran-here'))).toBe(false);
    expect(existsSync(path.join(outside, 'prettier-pwned'))).toBe(false);
    // The guard that matched .env could not judge it: the call is refused, saying why.
    expect(lastResults(model.requests[2])[0]).toMatchObject({ isError: true, content: expect.stringMatching(/^\[hook env-guard\] this project is not trusted and the hook could not run inside the OS sandbox .*trust the project/) });
    expect(written).toEqual(['a.md']);
    expect(existsSync(path.join(home, 'bash-guard-ran'))).toBe(false);
    expect(reporter.notices.filter((notice) => notice.startsWith('hooks: this project is not trusted'))).toEqual([expect.stringContaining('no OS sandbox can contain your hooks')]);
  } finally {
    await kernel.shutdown();
  }
});

test('a trusted project runs the user\'s hooks on the host, as before', async () => {
  const outside = outsideDir();
  const { root, home } = hostileProject([], outside);
  userSettings(home, { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `touch "${outside}/host-ran"` }] }] });
  const { kernel, reporter } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), say('ok')], [sandboxOs, toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(existsSync(path.join(outside, 'host-ran'))).toBe(true);
    expect(reporter.notices.filter((notice) => notice.startsWith('hooks:'))).toEqual([]);
  } finally {
    await kernel.shutdown();
  }
});

test("a hook's PATH keeps only absolute entries: a repository's node_modules/.bin/jq (or bash) never answers the user's hook", async () => {
  const outside = outsideDir();
  const { root, home } = hostileProject(['jq', 'bash', 'sh'], outside);
  userSettings(home, { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'jq -r .tool_input.file_path >/dev/null 2>&1; true' }] }] });
  // A direnv-style PATH: a relative entry first, an empty one (the current directory) too.
  const env = { PATH: `node_modules/.bin::.:${process.env.PATH}` };
  const { kernel } = await bootKernel([useTools([call('write_file', { path: 'a.md' })]), say('ok')], [toolsPlugin([writeTool]), createHooksPlugin({ env })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    for (const name of ['jq', 'bash', 'sh']) expect(existsSync(path.join(outside, `${name}-pwned`))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
  expect(hookEnvironment({ PATH: 'node_modules/.bin::.:/usr/bin:bin:/bin' }, root).PATH).toBe('/usr/bin:/bin');
  expect(hookEnvironment({ PATH: 'node_modules/.bin:.' }, root).PATH).toBe('/usr/local/bin:/usr/bin:/bin');
});

test("rule files see a file tool's path as the tools resolve it: relative to the project, normalised; outside it absolute", () => {
  const root = '/work/project';
  const home = '/home/me';
  const pathOf = (tool: string, input: Record<string, unknown>): unknown => ownToolInput(tool, input, root, home).path;
  expect(pathOf('write_file', { file_path: './.env' })).toBe('.env');
  expect(pathOf('write_file', { file_path: 'src/../.env.production' })).toBe('.env.production');
  expect(pathOf('edit_file', { file_path: '/work/project/config/./.env.local' })).toBe('config/.env.local');
  expect(pathOf('read_file', { path: 'a//b/../.env' })).toBe('a/.env');
  expect(pathOf('write_file', { file_path: '../other/.env' })).toBe('/work/other/.env');
  expect(pathOf('write_file', { file_path: '~/.env' })).toBe('/home/me/.env');
  expect(ownToolInput('write_file', { file_path: './x' }, root, home).file_path).toBe('x');
  expect(pathOf('grep', { pattern: 'k', path: './src/../secrets' })).toBe('secrets');
  expect(pathOf('glob', { pattern: '*', path: '/work/project' })).toBe('.');
  expect(ownToolInput('bash', { command: 'cat ./.env' }, root, home)).toEqual({ command: 'cat ./.env' });
});

test("the README's no-env-writes rule holds whatever the spelling: ./.env, src/../.env.production, an absolute path", async () => {
  const root = temp('mewcode-envrule-root-');
  const home = temp('mewcode-envrule-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'hooks.yaml'),
    [
      'hooks:',
      '  - name: no-env-writes',
      '    event: PreToolUse',
      '    if:',
      '      all_of:',
      '        - { field: tool_name, match: { type: exact, value: write_file } }',
      '        - { field: tool_input.path, match: { type: glob, value: "**/.env*" } }',
      '        - { field: tool_input.path, match: { type: not, inner: { type: regex, value: "example$" } } }',
      `    action: { type: shell, command: "echo 'no .env writes' >&2; exit 2" }`,
      '',
    ].join('\n'),
  );
  const spellings = ['./.env', 'src/../.env.production', path.join(root, '.env.local'), 'src/./.env', '.env.example'];
  written.length = 0;
  const { kernel, model } = await bootKernel([...spellings.map((file) => useTools([call('write_file', { path: file })])), say('ok')], [toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    for (const index of [1, 2, 3, 4]) expect(lastResults(model.requests[index])[0]).toMatchObject({ isError: true, content: '[hook no-env-writes] no .env writes' });
    expect(written).toEqual(['.env.example']);
  } finally {
    await kernel.shutdown();
  }
});
