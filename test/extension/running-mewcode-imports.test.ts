/**
 * A plugin's `import 'mewcode/sdk'` (and `'mewcode'`) loads the MewCode that is running, through
 * the built CLI, wherever the plugin lives: beside a second MewCode of its own (a plugin folder
 * with its dev dependencies, a project with its own copy) or where no `mewcode` package can be
 * found at all (a plugin file named by path).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KERNEL_VERSION } from '../../kernel/version.js';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';
import { CLI, runCli } from './run-built-cli.js';


/** A plugin contributing tool `name`, whose answer says which MewCode it got: the kernel version and whether `mewcode` and `mewcode/sdk` agree. */
function pluginSource(name: string): string {
  return `import { definePlugin, ContainerModule, TOKENS } from 'mewcode/sdk';
import * as root from 'mewcode';
export default definePlugin({
  name: '${name}',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool).toConstantValue({
      name: '${name}', description: 'Says which MewCode it runs in.', readOnly: true,
      inputSchema: { type: 'object', properties: {} },
      async execute() { return { content: '${name}: same TOKENS ' + (root.TOKENS === TOKENS) + ', version ' + root.pluginApi.version }; },
    });
  }),
});
`;
}

/** A package named mewcode that is not the running one: loading any of it is the bug. */
async function secondCopy(dir: string): Promise<void> {
  const copy = path.join(dir, 'node_modules', 'mewcode');
  await mkdir(copy, { recursive: true });
  await writeFile(path.join(copy, 'package.json'), JSON.stringify({ name: 'mewcode', version: '0.1.9', type: 'module', exports: { '.': './index.js', './sdk': './index.js' } }));
  await writeFile(path.join(copy, 'index.js'), "throw new Error('a second MewCode was loaded from ' + import.meta.url);\n");
}

let server: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

test("plugins beside a second MewCode, or with none to find, import the running one's mewcode and mewcode/sdk", async () => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'mewcode-running-imports-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'mewcode-home-'));
  const loose = await mkdtemp(path.join(os.tmpdir(), 'mewcode-loose-plugin-'));
  dirs.push(project, home, loose);
  // A plugin in development: its folder has its own node_modules with another MewCode.
  const devFolder = path.join(project, 'tools', 'acme');
  await mkdir(devFolder, { recursive: true });
  await secondCopy(devFolder);
  await writeFile(path.join(devFolder, 'index.js'), pluginSource('t_dev_folder'));
  // The project itself has another MewCode (say, an older dev dependency).
  await secondCopy(project);
  await mkdir(path.join(project, 'node_modules', 'project-plugin'), { recursive: true });
  await writeFile(path.join(project, 'node_modules', 'project-plugin', 'package.json'), JSON.stringify({ name: 'project-plugin', version: '1.0.0', type: 'module', exports: './index.js', peerDependencies: { mewcode: '*' } }));
  await writeFile(path.join(project, 'node_modules', 'project-plugin', 'index.js'), pluginSource('t_project_package'));
  // A plugin file where no `mewcode` package is installed anywhere above it.
  await writeFile(path.join(loose, 'plugin.mjs'), pluginSource('t_loose_file'));
  await writeFile(path.join(project, '.mewcode.yaml'), `plugins:\n  - ./tools/acme/index.js\n  - project-plugin\n  - ${JSON.stringify(path.join(loose, 'plugin.mjs'))}\n`);

  const calls = ['t_dev_folder', 't_project_package', 't_loose_file'];
  server = await startScriptedServer({ turns: [{ toolCalls: calls.map((name, i) => ({ id: `toolu_${i}`, name, input: {} })) }, { text: 'done' }] });
  const { code, stdout, stderr } = await runCli(project, home, server, ['-p', 'which MewCode?', '--output-format', 'json', '--trust-project']);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(stdout)).toMatchObject({ is_error: false, result: 'done' });
  const results = server.requests[1]!.body.messages.at(-1).content as Array<{ content: string }>;
  expect(results.map((r) => r.content).sort()).toEqual(calls.map((name) => `${name}: same TOKENS true, version ${KERNEL_VERSION}`).sort());
});
