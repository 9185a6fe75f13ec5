/**
 * The sandbox through a real kernel and agent loop in bypassPermissions mode: a call whose path
 * leaves the project is denied and never runs; inside calls run; `disable:` cannot remove it.
 */
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sandbox from '../../../plugins/permission-sandbox/index.js';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mewcode-sandbox-kernel-')));
  root = path.join(base, 'repo');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await symlink('../outside', path.join(root, 'escape'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function fileTool(touched: string[]): Tool {
  return {
    name: 'fake_write',
    description: 'Records a path; never writes.',
    inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
    readOnly: false,
    category: 'write',
    permissionTarget: (input) => ({ kind: 'path', path: typeof input.file_path === 'string' ? input.file_path : '' }),
    async execute(input) {
      touched.push(String(input.file_path));
      return { content: 'recorded' };
    },
  };
}

test('bypassPermissions mode: paths outside the project are denied and never reach the tool', async () => {
  const touched: string[] = [];
  const calls = ['src/new.ts', '../outside/x', 'escape/x', '/etc/passwd', '~/x', 'src/../src/ok.ts', undefined];
  const { kernel, model } = await bootKernel(
    [useTools(calls.map((file_path) => call('fake_write', file_path === undefined ? {} : { file_path }))), say('done')],
    [sandbox, toolsPlugin([fileTool(touched)])],
    { projectRoot: root, homeDir: path.join(base, 'home') },
  );
  await runPrompt(kernel, 'go', 'bypassPermissions');
  expect(touched).toEqual(['src/new.ts', 'src/../src/ok.ts']);
  const results = (model.requests[1]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results;
  expect(results.map((r) => r.isError)).toEqual([false, true, true, true, true, false, true]);
  expect(results[2]!.content).toBe(
    `Permission denied by permission-sandbox: escape/x resolves to ${base}/outside/x, outside the project: paths must stay inside the project root ${root}; additional directories can be allowed in settings: permissions.additional_directories. Do not retry this call; choose another approach or ask the user.`,
  );
  expect(results[6]!.content).toContain('could not read a file path from the call');
});

test('essential: `disable:` in configuration cannot remove the sandbox', async () => {
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({
    plugins: [memoryModel().plugin, permissionMode, sandbox],
    projectRoot: root,
    homeDir: base,
    env: memoryEnv,
    reporter,
    config: { layers: [], warnings: [], section: (key) => (key === 'disable' ? ['permission-sandbox'] : undefined), locate: () => undefined },
  });
  expect(kernel.plugins.map((p) => p.name)).toContain('permission-sandbox');
  expect(reporter.warnings).toContain('plugins: permission-sandbox is essential and cannot be disabled by configuration; keeping it');
});
