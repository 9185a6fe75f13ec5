/**
 * Every spelling of a settings file (settings.yaml, .yml, .json; settings.local.*) is read by every
 * reader — the permission rules, hooks, the sandbox and the trust scan — from one list
 * (config/settings-files.ts). A `~/.mewcode/settings.json` once turned the sandbox off while its
 * deny rules were never read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { settingsFilesOf } from '../../../config/settings-files.js';
import { PERMISSION_SETTINGS, type PermissionSettings } from '../../../plugins/permission-rules/index.js';
import { loadHookRules } from '../../../plugins/hooks/settings.js';
import { readSandboxSettings, userSettingsFiles } from '../../../plugins/sandbox-os/settings.js';
import { bash, bootRules, outcome, read, tempDirs, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

function put(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const userFile = (name: string) => path.join(dirs.home, '.mewcode', name);
const projectFile = (name: string) => path.join(dirs.root, '.mewcode', name);

describe('permission rules read every spelling', () => {
  it('a deny in ~/.mewcode/settings.json applies (JSON, Claude Code shape), beside sandbox: false', async () => {
    put(userFile('settings.json'), '{"sandbox": false, "permissions":{"deny":["Read(./.env)"]}}');
    const { kernel, reporter } = await bootRules(dirs);
    expect(await outcome(read(kernel, path.join(dirs.root, '.env')))).toBe('deny');
    expect(reporter.warnings.filter((w) => w.startsWith('settings:'))).toEqual([]);
  });

  it('the project settings.yml and the local settings.local.json apply at their layers', async () => {
    put(projectFile('settings.yml'), 'permissions:\n  deny: ["Bash(curl *)"]\n');
    const local = put(projectFile('settings.local.json'), '{"permissions":{"deny":["Read(./secret.txt)"]}}');
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny');
    const verdict = await read(kernel, path.join(dirs.root, 'secret.txt'));
    expect(verdict).toMatchObject({ decision: 'deny', layer: 'permission-rules:local' });
    expect(verdict?.reason).toContain(local);
  });

  it("a trusted project's settings.json allow rules and default mode apply (the trust scan lists the file)", async () => {
    put(projectFile('settings.json'), '{"permissions":{"allow":["Bash(npm test)"],"defaultMode":"acceptEdits"}}');
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'npm test'))).toBe('allow');
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBe('acceptEdits');
  });

  it('two spellings in one scope: both are read, a warning names both, and the first in order gives single values', async () => {
    const yaml = put(userFile('settings.yaml'), 'permissions:\n  deny: ["Bash(curl *)"]\n  default_mode: plan\n');
    const json = put(userFile('settings.json'), '{"permissions":{"deny":["Read(./.env)"],"defaultMode":"acceptEdits"}}');
    const { kernel, reporter } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'curl x'))).toBe('deny');
    expect(await outcome(read(kernel, path.join(dirs.root, '.env')))).toBe('deny');
    expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).defaultMode()).toBe('plan');
    const spelled = reporter.warnings.filter((w) => w.startsWith('settings:'));
    expect(spelled).toHaveLength(1);
    expect(spelled[0]).toContain(`${yaml} and ${json} are the same user settings file spelled 2 ways`);
    expect(spelled[0]).toContain(`comes from ${yaml}`);
  });
});

describe('the other readers use the same list', () => {
  it('hooks: a settings.json hooks section (user) and a settings.local.json one (trusted project) load', async () => {
    const hook = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] } };
    put(userFile('settings.json'), JSON.stringify(hook));
    put(projectFile('settings.local.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } }));
    const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
    const loaded = await loadHookRules(dirs.root, dirs.home, trust);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.rules.map((rule) => [rule.scope, rule.event, path.basename(rule.file)])).toEqual([
      ['user', 'PreToolUse', 'settings.json'],
      ['local', 'Stop', 'settings.local.json'],
    ]);
  });

  it('the sandbox reads the user scope of the same list, then config.*', async () => {
    expect(userSettingsFiles(dirs.home).slice(0, 3)).toEqual(settingsFilesOf('user', dirs.root, dirs.home));
    put(userFile('settings.json'), '{"sandbox": false}');
    const settings = await readSandboxSettings(dirs.home, () => undefined);
    expect(settings.enabled).toBe(false);
    expect(settings.disabledAt).toContain(userFile('settings.json'));
  });

  it('the trust scan lists the trust-requiring keys of every spelling', async () => {
    put(projectFile('settings.json'), '{"permissions":{"allow":["Bash(make)"]}}');
    put(projectFile('settings.local.yml'), 'hooks:\n  Stop: []\n');
    const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home });
    expect(trust.pending().settings.map((s) => `${s.file}: ${s.key}`).sort()).toEqual(['.mewcode/settings.json: permissions.allow', '.mewcode/settings.local.yml: hooks']);
  });
});
