/**
 * Where a configured plugin's own configuration section (`config: zodSection('orgpol', …)`) is read
 * from: only places at least as strong as the one that made the plugin required, never an untrusted
 * project. Real kernels, real configuration files, real managed settings, plugins loaded from files.
 *
 * - managed plugin: the managed file that lists it holds its section, and only that file; the
 *   user's and the project's values are ignored with one warning naming file, line and key;
 * - plugin required by the user's file: the user's file only (a trusted project changes nothing,
 *   adds no key either);
 * - any configured plugin: an untrusted project's section (config file or config.local) is left
 *   out and listed by the trust notice;
 * - a trusted project still layers over the user's file for a plugin nobody requires.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { loadManagedPolicy } from '../../config/managed-settings.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import { ConfigurationError } from '../../kernel/configuration-error.js';
import { TOKENS } from '../../types/tokens.js';
import type { ResolvedConfig } from '../../types/config.js';
import { bootKernel } from '../support/boot.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

/** A policy plugin with the `orgpol` section (an object; anything else is an issue at `enforce`). */
const POLICY = `export default { name: 'org-policy', config: { key: 'orgpol', parse(raw) {
  return raw && typeof raw === 'object' && typeof raw.enforce === 'boolean' ? { ok: true, value: raw } : { ok: false, issues: [{ path: ['enforce'], message: 'boolean expected' }] };
} }, apply() {} };`;

interface Setup {
  managed?: string;
  user?: string;
  project?: Record<string, string>;
  trusted: boolean;
}

function write(base: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, name)), { recursive: true });
    writeFileSync(path.join(base, name), text);
  }
}

async function boot(setup: Setup) {
  const home = temp('mc-section-home-');
  const project = temp('mc-section-project-');
  write(home, { '.mewcode/org-policy.mjs': POLICY });
  if (setup.user !== undefined) write(home, { '.mewcode/config.yaml': setup.user.replaceAll('POL', path.join(home, '.mewcode', 'org-policy.mjs')) });
  if (setup.project) write(project, setup.project);
  let managedFile: string | undefined;
  let managed;
  if (setup.managed !== undefined) {
    const dir = temp('mc-section-managed-');
    write(dir, { 'org-policy.mjs': POLICY, 'managed-settings.yaml': setup.managed });
    managedFile = path.join(dir, 'managed-settings.yaml');
    managed = await loadManagedPolicy({ env: {}, candidates: [{ file: managedFile, named: true }] });
  }
  const trust = await createWorkspaceTrust({ projectRoot: project, homeDir: home, flag: setup.trusted });
  const config = await loadConfig({ cwd: project, homeDir: home, trust });
  const booted = bootKernel([], [], { projectRoot: project, homeDir: home, config, trust, ...(managed ? { managed } : {}) });
  return { home, project, managedFile, trust, booted };
}

const orgpol = async (setup: Setup) => {
  const { booted, ...rest } = await boot(setup);
  const { kernel, reporter } = await booted;
  const fromToken = kernel.container.get<ResolvedConfig>(TOKENS.Config).section('orgpol');
  return { ...rest, kernel, value: kernel.config<Record<string, unknown>>('orgpol'), fromToken, warnings: reporter.warnings.join('\n') };
};

describe('a managed plugin', () => {
  test('reads its section from the managed file that lists it', async () => {
    const { value, warnings } = await orgpol({ trusted: true, managed: 'plugins: [./org-policy.mjs]\norgpol:\n  enforce: true\n' });
    expect(value).toEqual({ enforce: true });
    expect(warnings).not.toMatch(/orgpol/);
  });

  test('ignores the section in a trusted project and the user file, with one warning naming file, line and key', async () => {
    const { value, fromToken, warnings, project, home } = await orgpol({
      trusted: true,
      managed: 'plugins: [./org-policy.mjs]\norgpol:\n  enforce: true\n',
      user: 'orgpol:\n  enforce: false\n',
      project: { '.mewcode.yaml': 'max_turns: 3\norgpol:\n  enforce: false\n  extra: 1\n' },
    });
    expect(value).toEqual({ enforce: true });
    // What every plugin reads through the configuration token is the same value.
    expect(fromToken).toEqual({ enforce: true });
    const lines = warnings.split('\n').filter((line) => line.includes('orgpol'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path.join(home, '.mewcode', 'config.yaml')}:1:1`);
    expect(lines[0]).toContain(`${path.join(project, '.mewcode.yaml')}:2:1`);
    expect(lines[0]).toMatch(/managed/);
  });

  test('without a section in the managed file, the user and project values are still ignored (the plugin sees none)', async () => {
    const { value, warnings } = await orgpol({ trusted: true, managed: 'plugins: [./org-policy.mjs]\n', user: 'orgpol:\n  enforce: false\n', project: { '.mewcode.yaml': 'orgpol:\n  enforce: false\n' } });
    expect(value).toBeUndefined();
    expect(warnings).toMatch(/orgpol/);
  });

  test('a managed section no plugin of that file declares stops the run, naming file, line and key', async () => {
    const { booted, managedFile } = await boot({ trusted: true, managed: 'plugins: [./org-policy.mjs]\norgpl:\n  enforce: true\n' });
    const error = await booted.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(`${managedFile}:2:1`);
    expect((error as Error).message).toContain('orgpl');
  });

  test('a managed section its plugin cannot parse stops the run (the policy fails closed)', async () => {
    const { booted, managedFile } = await boot({ trusted: true, managed: 'plugins: [./org-policy.mjs]\norgpol:\n  enforce: nope\n' });
    const error = await booted.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(managedFile);
    expect((error as Error).message).toContain('orgpol');
  });
});

describe('a plugin the user’s file requires', () => {
  const USER = 'plugins:\n  - use: POL\n    required: true\norgpol:\n  enforce: true\n';

  test('a trusted project cannot change its section, nor add a key to it', async () => {
    const { value, fromToken, warnings, project } = await orgpol({ trusted: true, user: USER, project: { '.mewcode.yaml': 'orgpol:\n  enforce: false\n  extra: 1\n' } });
    expect(value).toEqual({ enforce: true });
    expect(fromToken).toEqual({ enforce: true });
    expect(warnings).toContain(`${path.join(project, '.mewcode.yaml')}:1:1`);
    expect(warnings).toMatch(/orgpol/);
  });

  test('nor can an untrusted project or its config.local file', async () => {
    const { value, trust } = await orgpol({
      trusted: false,
      user: USER,
      project: { '.mewcode.yaml': 'orgpol:\n  enforce: false\n', '.mewcode/config.local.yaml': 'orgpol:\n  enforce: false\n' },
    });
    expect(value).toEqual({ enforce: true });
    expect(trust.skipped()).toEqual(expect.arrayContaining(['.mewcode.yaml: orgpol', '.mewcode/config.local.yaml: orgpol']));
  });

  test('the user’s value alone, without a project (the control)', async () => {
    const { value, warnings } = await orgpol({ trusted: false, user: USER });
    expect(value).toEqual({ enforce: true });
    expect(warnings).not.toMatch(/orgpol/);
  });
});

describe('a plugin nobody requires', () => {
  const USER = 'plugins:\n  - POL\norgpol:\n  enforce: true\n';

  test('an untrusted project’s section is left out and listed by the trust notice', async () => {
    const { value, fromToken, trust } = await orgpol({ trusted: false, user: USER, project: { '.mewcode.yaml': 'orgpol:\n  enforce: false\n' } });
    expect(value).toEqual({ enforce: true });
    expect(fromToken).toEqual({ enforce: true });
    expect(trust.skipped()).toContain('.mewcode.yaml: orgpol');
    expect(trust.notice()).toMatch(/\.mewcode\.yaml: orgpol/);
    expect(trust.notice()).not.toMatch(/changed after the trust check/);
  });

  test('an untrusted config.local file’s section too', async () => {
    const { value, trust } = await orgpol({ trusted: false, user: USER, project: { '.mewcode/config.local.yaml': 'orgpol:\n  enforce: false\n' } });
    expect(value).toEqual({ enforce: true });
    expect(trust.skipped()).toContain('.mewcode/config.local.yaml: orgpol');
  });

  test('a trusted project layers over the user’s file as before', async () => {
    const { value, warnings } = await orgpol({ trusted: true, user: USER, project: { '.mewcode.yaml': 'orgpol:\n  enforce: false\n' } });
    expect(value).toEqual({ enforce: false });
    expect(warnings).not.toMatch(/orgpol/);
  });
});
