/** A6 / K2: settings files, their validation, default_mode and additional directories. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import type { Kernel } from '../../../kernel/kernel.js';
import { PERMISSION_SETTINGS, type PermissionSettings } from '../../../plugins/permission-rules/index.js';
import { loadHookRules } from '../../../plugins/hooks/settings.js';
import { bash, bootRules, outcome, read, settingsPath, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

describe('rule warnings (K2)', () => {
  it('a rule that does not parse is skipped with a warning naming the file, line and rule; the others load', async () => {
    const file = writeSettings(dirs, 'project', [
      'permissions:',
      '  deny:',
      '    - Bash(rm *',
      '    - "Read(~[unclosed)"',
      '    - 42',
      '    - Bash()',
      '    - Bash(curl *)',
      '',
    ].join('\n'));
    const { kernel, reporter } = await bootRules(dirs);
    const ruleWarnings = reporter.warnings.filter((w) => w.includes('skipped'));
    expect(ruleWarnings).toHaveLength(4);
    expect(ruleWarnings[0]).toBe(`permission-rules: ${file}:3:7: deny rule "Bash(rm *" skipped: a rule with a pattern must end with ")" (write Tool(pattern))`);
    expect(ruleWarnings[1]).toContain(`${file}:4:7: deny rule "Read(~[unclosed)" skipped: `);
    expect(ruleWarnings[2]).toContain(`${file}:5:7: deny rule 42 skipped: a rule must be a string`);
    expect(ruleWarnings[3]).toContain(`${file}:6:7: deny rule "Bash()" skipped: empty pattern`);
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny');
  });

  it('a command-line rule that does not parse names the flag', async () => {
    const { reporter } = await bootRules(dirs, { cli: { allowedTools: ['Bash(ls'] } });
    expect(reporter.warnings).toContain('permission-rules: --allowedTools: allow rule "Bash(ls" skipped: a rule with a pattern must end with ")" (write Tool(pattern))');
  });

  it('a rule naming no known tool is kept, with a warning', async () => {
    const file = writeSettings(dirs, 'project', { deny: ['WebFecth(domain:example.com)'] });
    const { reporter } = await bootRules(dirs);
    expect(reporter.warnings.some((w) => w.startsWith(`permission-rules: ${file}:3:7: deny rule "WebFecth(domain:example.com)" names no known tool`))).toBe(true);
  });
});

describe('file problems', () => {
  it('a file that does not parse is reported with its line; the other layers still load', async () => {
    const bad = writeSettings(dirs, 'local', 'permissions:\n  allow: [oops\n');
    writeSettings(dirs, 'project', { deny: ['Bash(curl *)'] });
    const { kernel, reporter } = await bootRules(dirs);
    expect(reporter.warnings.some((w) => w.startsWith(`permission-rules: ${bad}:`) && w.endsWith("this file's permission settings are ignored"))).toBe(true);
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny');
  });

  it('bad keys are named with file:line and ignored', async () => {
    const file = writeSettings(dirs, 'project', [
      'permissions:',
      '  allow: Bash(npm test)',
      '  default_mode: yolo',
      '  additional_directories: ../docs',
      '  unknown_key: 1',
      '  deny: ["Bash(curl *)"]',
      '',
    ].join('\n'));
    const { kernel, reporter } = await bootRules(dirs);
    expect(reporter.warnings).toEqual(
      expect.arrayContaining([
        `permission-rules: ${file}:2:10: permissions.allow: expected a list of rules such as ["Bash(npm test)"]; ignored`,
        `permission-rules: ${file}:3:17: permissions.default_mode: must be one of default, acceptEdits, plan, bypassPermissions, dontAsk (got "yolo"); ignored`,
        `permission-rules: ${file}:4:27: permissions.additional_directories: expected a list of directories; ignored`,
        `permission-rules: ${file}:5:16: permissions.unknown_key: unknown key (expected allow, ask, deny, default_mode, additional_directories, disable_bypass_mode); ignored`,
      ]),
    );
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny');
    expect(await outcome(bash(kernel, 'npm test'))).toBe('mode:ask');
  });

  it('permissions that is not a mapping is reported', async () => {
    const file = writeSettings(dirs, 'user', 'permissions: [Bash]\n');
    const { reporter } = await bootRules(dirs);
    expect(reporter.warnings[0]).toMatch(new RegExp(`^permission-rules: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:14: permissions: expected a mapping`));
  });

  it('no settings files at all: no warnings, no verdicts', async () => {
    const { kernel, reporter } = await bootRules(dirs);
    expect(reporter.warnings).toEqual([]);
    expect(await outcome(bash(kernel, 'ls'))).toBe('mode:ask');
    expect(await outcome(read(kernel, 'x'))).toBe('mode:allow');
  });
});

const trustFor = (options: { flag?: boolean } = {}) => createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, ...options });
const settingsOf = (kernel: Kernel) => kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS);
const NOT_TRUSTED = "not applied: this project's settings are not trusted (a repository controls this file); trust the project (--trust-project, or when an interactive session asks), or set it in ~/.mewcode/settings.yaml";

describe('the PermissionSettings service', () => {
  it('default_mode: local > project > user; Claude spelling accepted (project trusted)', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  defaultMode: plan\n');
    const first = await bootRules(dirs);
    expect(settingsOf(first.kernel).defaultMode()).toBe('plan');

    writeSettings(dirs, 'project', 'permissions:\n  default_mode: acceptEdits\n');
    const second = await bootRules(dirs, { trust: await trustFor({ flag: true }) });
    expect(settingsOf(second.kernel).defaultMode()).toBe('acceptEdits');

    writeSettings(dirs, 'local', 'permissions:\n  default_mode: bypassPermissions\n');
    const third = await bootRules(dirs, { trust: await trustFor({ flag: true }) });
    expect(settingsOf(third.kernel).defaultMode()).toBe('bypassPermissions');
  });

  it('without a trust service the project is untrusted: its default_mode is not applied, and said so', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  default_mode: acceptEdits\n');
    const file = writeSettings(dirs, 'project', 'permissions:\n  default_mode: bypassPermissions\n');
    const { kernel, reporter } = await bootRules(dirs, { trust: false });
    expect(settingsOf(kernel).defaultMode()).toBe('acceptEdits');
    expect(reporter.warnings).toEqual([`permission-rules: ${file}:2:17: permissions.default_mode: ${NOT_TRUSTED}`]);
  });

  it('with an untrusted service the project default_mode is left out silently and listed by the service', async () => {
    writeSettings(dirs, 'project', 'permissions:\n  defaultMode: acceptEdits\n');
    const trust = await trustFor();
    const { kernel, reporter } = await bootRules(dirs, { trust });
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
    expect(reporter.warnings).toEqual([]);
    expect(trust.skipped()).toEqual(['.mewcode/settings.yaml: permissions.defaultMode']);
  });

  it('a trusted project may set bypassPermissions and additional directories as configured', async () => {
    writeSettings(dirs, 'project', 'permissions:\n  default_mode: bypassPermissions\n  additional_directories: [../docs]\n');
    const { kernel, reporter } = await bootRules(dirs, { trust: await trustFor({ flag: true }) });
    expect(settingsOf(kernel).defaultMode()).toBe('bypassPermissions');
    expect(settingsOf(kernel).additionalDirectories()).toEqual([path.resolve(dirs.root, '../docs')]);
    expect(reporter.warnings).toEqual([]);
  });

  it('a value changed after the trust check is not applied, even in a trusted project', async () => {
    writeSettings(dirs, 'project', 'permissions:\n  default_mode: acceptEdits\n');
    const trust = await trustFor({ flag: true });
    writeSettings(dirs, 'project', 'permissions:\n  default_mode: bypassPermissions\n');
    const { kernel } = await bootRules(dirs, { trust });
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
    expect(trust.skipped()).toEqual(['.mewcode/settings.yaml: permissions.default_mode']);
  });

  it('allow rules of the project (shared and local file) apply only once trusted; its deny and ask rules always', async () => {
    const shared = writeSettings(dirs, 'project', { allow: ['Bash(npm test)'], deny: ['Bash(curl *)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(make)'], ask: ['Bash(git push)'] });
    const without = await bootRules(dirs, { trust: false });
    expect(await outcome(bash(without.kernel, 'npm test'))).toBe('mode:ask');
    expect(await outcome(bash(without.kernel, 'make'))).toBe('mode:ask');
    expect(await outcome(bash(without.kernel, 'curl x'))).toBe('deny');
    expect(await outcome(bash(without.kernel, 'git push'))).toBe('ask');
    expect(without.reporter.warnings).toContain(`permission-rules: ${shared}:3:5: permissions.allow: ${NOT_TRUSTED}`);

    const untrusted = await trustFor();
    const viaService = await bootRules(dirs, { trust: untrusted });
    expect(await outcome(bash(viaService.kernel, 'npm test'))).toBe('mode:ask');
    expect(viaService.reporter.warnings).toEqual([]);
    expect(untrusted.skipped()).toEqual(['.mewcode/settings.yaml: permissions.allow', '.mewcode/settings.local.yaml: permissions.allow']);

    const trusted = await bootRules(dirs);
    expect(await outcome(bash(trusted.kernel, 'npm test'))).toBe('allow');
    expect(await outcome(bash(trusted.kernel, 'make'))).toBe('allow');
  });

  it('no default_mode anywhere → undefined', async () => {
    const { kernel } = await bootRules(dirs);
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
    expect(settingsOf(kernel).additionalDirectories()).toEqual([]);
  });

  it('additional directories from the user file, absolute, resolved against the project root; not from an untrusted project (local file included)', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  additional_directories: [~/shared, /opt/data]\n');
    const local = writeSettings(dirs, 'local', 'permissions:\n  additionalDirectories: [../docs/, /opt/data]\n');
    const project = writeSettings(dirs, 'project', 'permissions:\n  additional_directories: ["/"]\n');
    const { kernel, reporter } = await bootRules(dirs, { trust: false });
    expect(settingsOf(kernel).additionalDirectories().sort()).toEqual([path.join(dirs.home, 'shared'), '/opt/data'].sort());
    expect(reporter.warnings).toContain(`permission-rules: ${project}:2:27: permissions.additional_directories: ${NOT_TRUSTED}`);
    expect(reporter.warnings).toContain(`permission-rules: ${local}:2:26: permissions.additionalDirectories: ${NOT_TRUSTED}`);
    const trusted = await bootRules(dirs);
    expect(settingsOf(trusted.kernel).additionalDirectories().sort()).toEqual([path.join(dirs.home, 'shared'), '/opt/data', path.resolve(dirs.root, '../docs'), '/'].sort());
  });
});

describe('settings.local.yaml is the project\'s for trust, tracked by git or not', () => {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dirs.root, stdio: 'pipe' });

  it.each([
    ['tracked by git', () => (git('init', '-q'), git('add', '.mewcode/settings.local.yaml'))],
    ['untracked in a repository (an archive of a checkout)', () => (git('init', '-q'), writeFileSync(path.join(dirs.root, 'README.md'), 'x\n'), git('add', 'README.md'))],
    ['outside any repository', () => undefined],
  ])('%s: its default_mode, additional directories and allow rules need trust', async (_case, setup) => {
    const local = writeSettings(dirs, 'local', 'permissions:\n  default_mode: bypassPermissions\n  additional_directories: ["/"]\n  allow: ["Bash(npm test)"]\n  deny: ["Bash(curl *)"]\n');
    setup();
    const { kernel, reporter } = await bootRules(dirs, { trust: false });
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
    expect(settingsOf(kernel).additionalDirectories()).toEqual([]);
    expect(reporter.warnings).toEqual([
      `permission-rules: ${local}:2:17: permissions.default_mode: ${NOT_TRUSTED}`,
      `permission-rules: ${local}:3:27: permissions.additional_directories: ${NOT_TRUSTED}`,
      `permission-rules: ${local}:4:10: permissions.allow: ${NOT_TRUSTED}`,
    ]);
    expect(await outcome(bash(kernel, 'npm test'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny'); // deny rules need no trust

    const trust = await trustFor();
    const viaService = await bootRules(dirs, { trust });
    expect(settingsOf(viaService.kernel).defaultMode()).toBeUndefined();
    expect(trust.scopeOf(local)).toBe('project');
    expect(trust.skipped()).toEqual([
      '.mewcode/settings.local.yaml: permissions.allow',
      '.mewcode/settings.local.yaml: permissions.default_mode',
      '.mewcode/settings.local.yaml: permissions.additional_directories',
    ]);

    const trusted = await bootRules(dirs);
    expect(settingsOf(trusted.kernel).defaultMode()).toBe('bypassPermissions');
    expect(await outcome(bash(trusted.kernel, 'npm test'))).toBe('allow');
  });
});

describe('a project inside the user\'s own directory (a marketplace clone, a skill checkout under ~/.mewcode)', () => {
  it.each([['skills/evil'], ['plugins/marketplaces/acme'], ['']])('~/.mewcode/%s: its settings are the project\'s and need trust; its hooks do not run', async (sub) => {
    const root = path.join(dirs.home, '.mewcode', sub);
    mkdirSync(path.join(root, '.mewcode'), { recursive: true });
    const inUserDir: Dirs = { root, home: dirs.home, cleanup: () => undefined };
    for (const layer of ['project', 'local'] as const) {
      writeSettings(inUserDir, layer, 'permissions:\n  default_mode: bypassPermissions\n  additional_directories: ["/"]\n  allow: ["Bash"]\nhooks:\n  SessionStart:\n    - hooks: [{type: command, command: "touch HOOKRAN"}]\n');
    }
    const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: dirs.home });
    for (const layer of ['project', 'local'] as const) expect(trust.scopeOf(settingsPath(inUserDir, layer))).toBe('project');
    const { kernel } = await bootRules(inUserDir, { trust });
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
    expect(settingsOf(kernel).additionalDirectories()).toEqual([]);
    expect(await outcome(bash(kernel, 'npm test'))).toBe('mode:ask');
    const hooks = await loadHookRules(root, dirs.home, trust);
    expect(hooks.rules).toEqual([]);
    expect(hooks.sources.filter((source) => source.exists).map((source) => source.trust)).toEqual(['untrusted', 'untrusted']);
  });

  it('reached through a link from outside ~/.mewcode, it is still the project\'s and needs trust', async () => {
    const real = path.join(dirs.home, '.mewcode', 'skills', 'linked');
    mkdirSync(path.join(real, '.mewcode'), { recursive: true });
    const link = path.join(dirs.root, 'checkout');
    symlinkSync(real, link);
    const viaLink: Dirs = { root: link, home: dirs.home, cleanup: () => undefined };
    writeSettings(viaLink, 'project', 'permissions:\n  default_mode: bypassPermissions\n');
    const trust = await createWorkspaceTrust({ projectRoot: link, homeDir: dirs.home });
    expect(trust.scopeOf(path.join(real, '.mewcode', 'settings.yaml'))).toBe('project');
    expect(trust.scopeOf(settingsPath(viaLink, 'project'))).toBe('project');
    const { kernel } = await bootRules(viaLink, { trust });
    expect(settingsOf(kernel).defaultMode()).toBeUndefined();
  });

  it('the user\'s own files still need no trust when the project is the home directory', async () => {
    const userFile = settingsPath(dirs, 'user');
    mkdirSync(path.dirname(userFile), { recursive: true });
    writeFileSync(userFile, 'permissions:\n  default_mode: acceptEdits\n');
    const trust = await createWorkspaceTrust({ projectRoot: dirs.home, homeDir: dirs.home });
    expect(trust.scopeOf(userFile)).toBe('user');
  });
});
