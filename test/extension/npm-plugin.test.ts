/**
 * Extension story (d), against the BUILT bundle: a third-party plugin package resolved from the
 * project's node_modules by the name in `plugins:`. A version mismatch, a throwing plugin and a
 * missing package are each reported by name while the run goes on.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KERNEL_VERSION } from '../../kernel/version.js';
import { startScriptedServer, type ScriptedServer } from '../scripted-server/index.js';
import { runCli } from './run-built-cli.js';


async function writePackage(root: string, name: string, source: string, manifest: Record<string, unknown> = {}): Promise<void> {
  const dir = path.join(root, 'node_modules', name);
  await mkdir(dir, { recursive: true });
  // ESM-only, "import"-only exports: the shape require.resolve refuses and the loader must handle.
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', exports: { '.': { import: './index.js' } }, ...manifest }));
  await writeFile(path.join(dir, 'index.js'), source);
}

let server: ScriptedServer;
const made: string[] = [];
afterEach(async () => {
  await server?.close();
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

test('(d) an npm plugin contributes a tool the model uses; bad plugins are reported and skipped', async () => {
  const project = await mkdtemp(path.join(os.tmpdir(), 'mewcode-npm-plugin-'));
  const home = await mkdtemp(path.join(os.tmpdir(), 'mewcode-home-'));
  made.push(project, home);
  await writePackage(project, 'mewcode-plugin-shout', `
    export default (api) => api.definePlugin({
      name: 'shout',
      kernel: '^${KERNEL_VERSION}',
      bindings: new api.ContainerModule(({ bind }) => {
        bind(api.TOKENS.Tool).toConstantValue({
          name: 'shout',
          description: 'Upper-cases text.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          readOnly: true,
          async execute(input) { return { content: String(input.text).toUpperCase() + ' (kernel ' + api.version + ')' }; },
        });
      }),
    });`);
  await writePackage(project, 'mewcode-plugin-future', `export default { name: 'future', kernel: '^9.0.0', apply() { throw new Error('must not apply'); } };`);
  await writePackage(project, '@acme/mewcode-plugin-flaky', `
    export default (api) => api.definePlugin({
      name: 'flaky',
      apply(kernel) {
        kernel.hooks.messageAppended.tapPromise('flaky', async () => { throw new Error('boom'); }); // a hook whose failure is skipped (postToolUse would withhold the output)
      },
    });`);
  await writeFile(path.join(project, '.mewcode.yaml'), 'plugins:\n  - mewcode-plugin-shout\n  - mewcode-plugin-future\n  - "@acme/mewcode-plugin-flaky"\n  - mewcode-plugin-absent\n');

  server = await startScriptedServer({
    turns: [{ toolCalls: [{ id: 'toolu_1', name: 'shout', input: { text: 'hello' } }] }, { text: 'It said HELLO.' }],
  });
  const { code, stdout, stderr } = await runCli(project, home, server, ['-p', 'shout hello', '--output-format', 'json', '--permission-mode', 'default', '--trust-project']);

  expect(stderr).toContain(`plugin future (mewcode-plugin-future) requires MewCode kernel ^9.0.0, but this kernel is ${KERNEL_VERSION}; skipped`);
  expect(stderr).toContain('plugin mewcode-plugin-absent could not be loaded: package not found');
  expect(stderr).toContain('plugin flaky failed in hook messageAppended: boom');
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toMatchObject({ is_error: false, result: 'It said HELLO.' });
  expect(server.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'todo_write', 'load_skill', 'install_skill', 'shout', 'agent', 'task_list', 'task_output', 'task_message', 'task_stop']);
  const toolResult = server.requests[1]!.body.messages.at(-1).content[0];
  expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', content: `HELLO (kernel ${KERNEL_VERSION})` });
  expect(toolResult.is_error).toBeFalsy();
});
