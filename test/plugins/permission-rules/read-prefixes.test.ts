/** PermissionSettings.readRulePrefixes: what the OS sandbox must hide for the Read deny/ask rules. */
import path from 'node:path';
import { PERMISSION_SETTINGS, type PermissionSettings } from '../../../plugins/permission-rules/index.js';
import { bootRules, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const prefixes = async (): Promise<string[] | undefined> => {
  const { kernel } = await bootRules(dirs);
  return kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).readRulePrefixes?.()?.sort();
};

test('no Read rules: nothing to hide', async () => {
  writeSettings(dirs, 'project', { deny: ['Bash(rm:*)'], allow: ['Read(./docs/**)'] });
  expect(await prefixes()).toEqual([]);
});

test('deny and ask rules of every layer give their literal prefix, absolute; allow rules do not', async () => {
  writeSettings(dirs, 'project', { deny: ['Read(./.env)', 'Read(./secrets/**)'], allow: ['Read(./public/**)'] });
  writeSettings(dirs, 'user', { deny: ['Read(~/.config/app/token)'], ask: ['Read(//etc/app/*.key)'] });
  expect(await prefixes()).toEqual(
    [path.join(dirs.root, '.env'), path.join(dirs.root, 'secrets'), path.join(dirs.home, '.config', 'app', 'token'), '/etc/app'].sort(),
  );
});

test('a rule whose reach no prefix bounds (a regex, a negation) gives undefined: the sandbox must walk', async () => {
  writeSettings(dirs, 'project', { deny: ['Read(./.env)', 'Read(~.*\\.pem$)'] });
  expect(await prefixes()).toBeUndefined();
});
