/** SPEC A6 / K2: settings files, their validation, default_mode and additional directories. */
import path from 'node:path';
import { PERMISSION_SETTINGS, type PermissionSettings } from '../../../plugins/permission-rules/index.js';
import { bash, bootRules, outcome, read, tempDirs, writeSettings, type Dirs } from './helpers.js';

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
    const file = writeSettings(dirs, 'project', { deny: ['WebFetch(domain:example.com)'] });
    const { reporter } = await bootRules(dirs);
    expect(reporter.warnings.some((w) => w.startsWith(`permission-rules: ${file}:3:7: deny rule "WebFetch(domain:example.com)" names no known tool`))).toBe(true);
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
        `permission-rules: ${file}:3:17: permissions.default_mode: must be one of default, acceptEdits, plan, bypassPermissions (got "yolo"); ignored`,
        `permission-rules: ${file}:4:27: permissions.additional_directories: additional directories are not accepted from the project's shared settings; set them in .mewcode/settings.local.yaml or ~/.mewcode/settings.yaml; ignored`,
        `permission-rules: ${file}:5:16: permissions.unknown_key: unknown key (expected allow, ask, deny, default_mode, additional_directories); ignored`,
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

describe('the PermissionSettings service', () => {
  it('default_mode: local > project > user; Claude spelling accepted', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  defaultMode: plan\n');
    const first = await bootRules(dirs);
    const settings = () => first.kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS);
    expect(settings().defaultMode()).toBe('plan');

    writeSettings(dirs, 'project', 'permissions:\n  default_mode: acceptEdits\n');
    const second = await bootRules(dirs);
    expect(second.kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBe('acceptEdits');

    writeSettings(dirs, 'local', 'permissions:\n  default_mode: bypassPermissions\n');
    const third = await bootRules(dirs);
    expect(third.kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBe('bypassPermissions');
  });

  it('the shared project file cannot make bypassPermissions the default', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  default_mode: acceptEdits\n');
    const file = writeSettings(dirs, 'project', 'permissions:\n  default_mode: bypassPermissions\n');
    const { kernel, reporter } = await bootRules(dirs);
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBe('acceptEdits');
    expect(reporter.warnings).toEqual([
      `permission-rules: ${file}:2:17: permissions.default_mode: bypassPermissions is not accepted from the project's shared settings; ` +
        'set it in .mewcode/settings.local.yaml or ~/.mewcode/settings.yaml, or pass --permission-mode; ignored',
    ]);
  });

  it('no default_mode anywhere → undefined', async () => {
    const { kernel } = await bootRules(dirs);
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBeUndefined();
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).additionalDirectories()).toEqual([]);
  });

  it('additional directories from the user and local files, absolute, resolved against the project root; never from the shared project file', async () => {
    writeSettings(dirs, 'user', 'permissions:\n  additional_directories: [~/shared, /opt/data]\n');
    writeSettings(dirs, 'local', 'permissions:\n  additionalDirectories: [../docs/, /opt/data]\n');
    const project = writeSettings(dirs, 'project', 'permissions:\n  additional_directories: ["/"]\n');
    const { kernel, reporter } = await bootRules(dirs);
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).additionalDirectories().sort()).toEqual(
      [path.join(dirs.home, 'shared'), '/opt/data', path.resolve(dirs.root, '../docs')].sort(),
    );
    expect(reporter.warnings).toContain(
      `permission-rules: ${project}:2:27: permissions.additional_directories: additional directories are not accepted from the project's shared settings; set them in .mewcode/settings.local.yaml or ~/.mewcode/settings.yaml; ignored`,
    );
  });
});
