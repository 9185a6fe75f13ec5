// The claude-plugins plugin in a kernel: sources of plugin directories from other plugins
// (TOKENS.ClaudePluginRoots is multi-bound) and --plugin-dir, read into TOKENS.ClaudePluginBundles;
// the consumers (custom-commands, skills, subagents) see the contributions; problems are warned once.
import path from 'node:path';
import { ContainerModule } from 'inversify';
import claudePlugins from '../../../plugins/claude-plugins/index.js';
import customCommands from '../../../plugins/custom-commands/index.js';
import skills from '../../../plugins/skills/index.js';
import { definePlugin, type CliOptions } from '../../../types/plugin.js';
import type { ClaudePluginBundles, ClaudePluginRootSource } from '../../../types/claude-plugins.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel } from '../../support/boot.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { write, writeKitPlugin } from './fixture.js';

afterAll(() => removeTempDirs());

const cli = (pluginDirs: string[]): CliOptions => ({ outputFormat: 'text', permissionMode: 'default', permissionModeGiven: false, debugBoot: false, cwd: '/tmp/project', allowedTools: [], disallowedTools: [], pluginDirs });

test('an installed-plugins source bound by another plugin and --plugin-dir both load; commands and skills are namespaced, a bare /name is offered while free', async () => {
  const installed = temp('cpk-installed-');
  write(path.join(installed, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'fmt' }));
  write(path.join(installed, 'commands', 'format.md'), '---\ndescription: Format\n---\nFormat $ARGUMENTS\n');
  write(path.join(installed, 'commands', 'hello.md'), 'Another hello\n');
  const dir = temp('cpk-dir-');
  writeKitPlugin(dir);
  const source = definePlugin({
    name: 'installed-source',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.ClaudePluginRoots).toConstantValue({ name: 'installed', roots: () => [{ id: 'fmt@team', root: installed, origin: 'installed' }] } satisfies ClaudePluginRootSource);
    }),
  });
  const home = temp('cpk-home-');
  const { kernel, reporter } = await bootKernel([], [source, claudePlugins, skills, customCommands], { cli: cli([dir]), homeDir: home, projectRoot: temp('cpk-project-') });
  try {
    const bundles = kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list();
    expect(bundles.map((b) => [b.id, b.origin, b.loaded])).toEqual([['kit', 'plugin-dir', true], ['fmt@team', 'installed', true]]);
    // The same list for every reader: no plugin may drop or rewrite a bundle for the others.
    expect(Object.isFrozen(bundles)).toBe(true);
    expect(bundles.every((bundle) => Object.isFrozen(bundle))).toBe(true);
    const names = kernel.commands().map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['fmt:format', 'fmt:hello', 'kit:hello', 'kit:style', 'format']));
    // Two plugins have a `hello`: neither gets the bare name.
    expect(names).not.toContain('hello');
    expect(reporter.warnings).toEqual([]);
  } finally {
    await kernel.shutdown();
  }
});

test("a plugin's problems are warned once at boot, naming the file", async () => {
  const dir = temp('cpk-bad-');
  write(path.join(dir, '.claude-plugin', 'plugin.json'), '{ "name": ');
  const { kernel, reporter } = await bootKernel([], [claudePlugins], { cli: cli([dir]) });
  try {
    expect(reporter.warnings).toEqual([expect.stringMatching(new RegExp(`^claude plugin ${path.basename(dir)}: ${dir}/\\.claude-plugin/plugin\\.json: not valid JSON`))]);
  } finally {
    await kernel.shutdown();
  }
});
