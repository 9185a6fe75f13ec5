/**
 * A `plugins:` section, or a configuration file naming `plugins:`, that cannot be read stops the
 * run (exit 2, a ConfigurationError naming file and line): a required policy plugin must not be
 * lost with a warning while the run goes on. The user's, the project's and the local file alike.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { bootKernel } from '../support/boot.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

async function bootWith(file: 'user' | 'project', text: string) {
  const home = temp('mc-plugins-home-');
  const project = temp('mc-plugins-project-');
  writeFileSync(path.join(project, 'pol.mjs'), `export default { name: 'acme-policy', apply() {} };`);
  const where = file === 'user' ? path.join(home, '.mewcode', 'config.yaml') : path.join(project, '.mewcode.yaml');
  mkdirSync(path.dirname(where), { recursive: true });
  writeFileSync(where, text.replaceAll('POL', path.join(project, 'pol.mjs')));
  const config = await loadConfig({ cwd: project, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: project, homeDir: home, flag: true }) });
  return { where, boot: bootKernel([], [], { projectRoot: project, homeDir: home, config }) };
}

const REQUIRED = 'plugins:\n  - use: POL\n    required: true\n';

test.each([
  ['a mapping (a forgotten list dash)', 'plugins:\n  use: POL\n  required: true\n', 2, /plugins: Expected array, received object\. plugins: is a list/i],
  ['a single string', 'plugins: POL\n', 1, /plugins: Expected array, received string\. plugins: is a list/],
])('plugins: as %s stops the run, naming file and line', async (_label, text, line, message) => {
  for (const file of ['user', 'project'] as const) {
    const { where, boot } = await bootWith(file, text);
    const error = await boot.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(`${where}:${line}:`);
    expect((error as Error).message).toMatch(message);
  }
});

test.each([
  ['a YAML error elsewhere in the file', `${REQUIRED}provider: [\n`, /Flow sequence/],
  ['a duplicate plugins: key', `${REQUIRED}plugins: []\n`, /Map keys must be unique/],
])('a file naming plugins: that cannot be parsed (%s) stops the run, naming it and the plugins: line', async (_label, text, cause) => {
  for (const file of ['user', 'project'] as const) {
    const { where, boot } = await bootWith(file, text);
    const error = await boot.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(cause);
    expect((error as Error).message).toContain(`${where}:1 names plugins:, and MewCode does not run with a plugins: section it cannot read`);
  }
});

test('a file that cannot be parsed and names no plugins: is still only a warning (the control)', async () => {
  const { boot } = await bootWith('user', 'provider: [\n');
  const { reporter } = await boot;
  expect(reporter.warnings.join('\n')).toMatch(/Flow sequence/);
});

test('a readable list of plugins loads (the control)', async () => {
  const { boot } = await bootWith('user', REQUIRED);
  const { kernel } = await boot;
  expect(kernel.plugins.map((p) => p.name)).toContain('acme-policy');
});
