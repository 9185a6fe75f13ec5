/**
 * Claude Code's exec form of a command hook (`command` + `args`: the program and its arguments,
 * no shell) and an http hook's `allowedEnvVars`, through a real kernel.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const tool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'written' }) };
const results = (request: { messages: readonly Message[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);
const plugins = (env: NodeJS.ProcessEnv = {}) => [toolsPlugin([tool]), createHooksPlugin({ env: { PATH: process.env.PATH, ...env } })];

function script(home: string, name: string, text: string): string {
  mkdirSync(path.join(home, 'hooks'), { recursive: true });
  const file = path.join(home, 'hooks', name);
  writeFileSync(file, text, { mode: 0o755 });
  return file;
}

test('exec form: bash runs the guard named in args (its exit 2 denies); the payload is never run as a script', async () => {
  const { root, home } = settingsSetup({});
  const guard = script(home, 'guard.sh', 'cat >/dev/null; echo "guard: everything blocked" >&2; exit 2\n');
  const pwned = path.join(home, 'PWNED');
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'bash', args: [guard] }] }] } }));
  const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: `$(touch ${pwned})` })]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(results(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringContaining('guard: everything blocked') });
    expect(existsSync(pwned)).toBe(false);
    expect(reporter.warnings.join('\n')).not.toContain('unknown key');
  } finally {
    await kernel.shutdown();
  }
});

test('exec form: each element is one argument as written; only the path placeholders and a leading ~/ are filled in', async () => {
  const { root, home } = settingsSetup({});
  const out = path.join(home, 'argv.json');
  const printer = script(home, 'argv.py', `import json, sys\nsys.stdin.read()\nopen(${JSON.stringify(out)}, "w").write(json.dumps(sys.argv[1:]))\n`);
  const args = [printer, 'two words', '$(touch nope)', '$HOME', '${CLAUDE_PROJECT_DIR}/x', '~/y', 'a~/z'];
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'python3', args }] }] } }));
  const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(results(model.requests[1])[0]).toMatchObject({ isError: false, content: 'written' });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(['two words', '$(touch nope)', '$HOME', `${root}/x`, `${home}/y`, 'a~/z']);
    expect(existsSync(path.join(root, 'nope'))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
});

test('exec form: a program not on PATH is a non-blocking failure, as in Claude Code', async () => {
  const { root, home } = settingsSetup({ PreToolUse: [{ hooks: [{ type: 'command', command: 'no-such-program-mc', args: ['x'] }] }] });
  const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write', 'bypassPermissions');
    expect(results(model.requests[1])[0]).toMatchObject({ isError: false, content: 'written' });
    expect(reporter.warnings.join('\n')).toMatch(/\(PreToolUse\) failed: could not run: no-such-program-mc: command not found on PATH/);
  } finally {
    await kernel.shutdown();
  }
});

test('a malformed args: a warning names the file, line and key, and the PreToolUse guard refuses what it matches instead of being dropped', async () => {
  for (const args of ['guard.sh', [1, 2], [['a']]]) {
    const { root, home } = settingsSetup({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'bash', args }] }], PostToolUse: [{ hooks: [{ type: 'command', command: 'bash', args }] }] });
    const { kernel, model, reporter } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins(), await trustedProject(root, home));
    try {
      await runPrompt(kernel, 'write', 'bypassPermissions');
      const file = path.join(home, '.mewcode', 'settings.yaml');
      expect(reporter.warnings.join('\n')).toContain(`${file}:1:`);
      expect(reporter.warnings.join('\n')).toMatch(/hooks\.PreToolUse\[0\]\.hooks\[0\]: args must be a list of strings/);
      expect(results(model.requests[1])[0]).toMatchObject({ isError: true, content: expect.stringContaining('args is not a list of strings') });
    } finally {
      await kernel.shutdown();
    }
  }
});

test("an http hook's headers: $VAR and ${VAR} are filled in for the variables allowedEnvVars lists, and only those", async () => {
  const { createServer } = await import('node:http');
  const seen: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  try {
    const headers = { Authorization: 'Bearer $MC_TOKEN', 'X-Team': '${MC_TEAM}-x', 'X-Secret': '[$MC_SECRET]', 'X-Unset': '[${MC_UNSET}]' };
    const { root, home } = settingsSetup({ PreToolUse: [{ hooks: [{ type: 'http', url, headers, allowedEnvVars: ['MC_TOKEN', 'MC_TEAM', 'MC_UNSET'] }] }] });
    const { kernel, reporter } = await bootKernel([useTools([call('write_file', { path: 'a' })]), say('ok')], plugins({ MC_TOKEN: 't0k', MC_TEAM: 'blue', MC_SECRET: 'hidden' }), await trustedProject(root, home));
    try {
      await runPrompt(kernel, 'write', 'bypassPermissions');
      expect(seen[0]).toMatchObject({ authorization: 'Bearer t0k', 'x-team': 'blue-x', 'x-secret': '[]', 'x-unset': '[]' });
      expect(reporter.warnings.join('\n')).not.toContain('unknown key');
    } finally {
      await kernel.shutdown();
    }
    const bad = settingsSetup({ PreToolUse: [{ hooks: [{ type: 'http', url, allowedEnvVars: 'MC_TOKEN' }] }] });
    const second = await bootKernel([say('ok')], plugins(), await trustedProject(bad.root, bad.home));
    try {
      await runPrompt(second.kernel, 'hi');
      expect(second.reporter.warnings.join('\n')).toMatch(/settings\.yaml:1:\d+: hooks\.PreToolUse\[0\]\.hooks\[0\]: allowedEnvVars must be a list of environment variable names; skipped/);
    } finally {
      await second.kernel.shutdown();
    }
  } finally {
    server.close();
  }
});

test("exec form: a project path a shell would read is not pasted into code (`bash -c`), only into plain arguments", async () => {
  const { execArgv } = await import('../../../plugins/hooks/exec-form.js');
  const hostile = '/tmp/p$(cd ..;touch CANARY)';
  const exec = execArgv('bash', ['-c', 'test -d ${CLAUDE_PROJECT_DIR}/src', '${CLAUDE_PROJECT_DIR}/plain'], { CLAUDE_PROJECT_DIR: hostile }, process.env.PATH ?? '', '/tmp', '/home/u');
  expect('argv' in exec && exec.argv.slice(1)).toEqual(['-c', 'test -d ${CLAUDE_PROJECT_DIR}/src', `${hostile}/plain`]);
  const plain = execArgv('bash', ['-c', 'test -d ${CLAUDE_PROJECT_DIR}/src'], { CLAUDE_PROJECT_DIR: '/tmp/my project' }, process.env.PATH ?? '', '/tmp', '/home/u');
  expect('argv' in plain && plain.argv.slice(1)).toEqual(['-c', 'test -d /tmp/my project/src']);
  const node = execArgv('node', ['-e', "require('${CLAUDE_PROJECT_DIR}/x')"], { CLAUDE_PROJECT_DIR: "/tmp/p');evil();('" }, process.env.PATH ?? '', '/tmp', '/home/u');
  expect('argv' in node && node.argv[2]).toBe("require('${CLAUDE_PROJECT_DIR}/x')");
});
