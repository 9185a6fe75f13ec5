/**
 * Path rules follow the gitignore spec, as Claude Code's do: a pattern without a slash (`.env`,
 * `*.env`, `build/`) matches at any depth below the project root; `./x` is the root's only. A deny
 * meant for every `.env` file must not silently miss `config/prod.env`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSION_SETTINGS, type PermissionSettings } from '../../../plugins/permission-rules/index.js';
import type { SearchPolicy } from '../../../types/services.js';
import { TOKENS } from '../../../types/tokens.js';
import { bash, bootRules, edit, outcome, read, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const at = (relative: string) => path.join(dirs.root, relative);

it('Read(*.env) denies a .env file in any folder; Read(./*.env) only at the root', async () => {
  writeSettings(dirs, 'user', { deny: ['Read(*.env)'] });
  const { kernel } = await bootRules(dirs);
  expect(await outcome(read(kernel, at('prod.env')))).toBe('deny');
  expect(await outcome(read(kernel, at('config/prod.env')))).toBe('deny');
  expect(await outcome(read(kernel, at('a/b/c/.env')))).toBe('deny');
  expect(await outcome(read(kernel, at('config/prod.env.example')))).not.toBe('deny');

  writeSettings(dirs, 'user', { deny: ['Read(./*.env)'] });
  const rooted = (await bootRules(dirs)).kernel;
  expect(await outcome(read(rooted, at('prod.env')))).toBe('deny');
  expect(await outcome(read(rooted, at('config/prod.env')))).not.toBe('deny');
});

it('a plain name (.env, secrets/) is a name at any depth too; a path with a slash stays where it is', async () => {
  writeSettings(dirs, 'user', { deny: ['Read(.env)', 'Edit(secrets/)', 'Read(config/local.json)'] });
  const { kernel } = await bootRules(dirs);
  expect(await outcome(read(kernel, at('.env')))).toBe('deny');
  expect(await outcome(read(kernel, at('packages/api/.env')))).toBe('deny');
  expect(await outcome(edit(kernel, at('secrets/key')))).toBe('deny');
  expect(await outcome(edit(kernel, at('deploy/secrets/key')))).toBe('deny');
  expect(await outcome(read(kernel, at('config/local.json')))).toBe('deny');
  expect(await outcome(read(kernel, at('packages/config/local.json')))).not.toBe('deny');
});

it('the command reads and the search filter see the deeper files too', async () => {
  mkdirSync(at('config'), { recursive: true });
  writeFileSync(at('config/prod.env'), 'SECRET=1\n');
  writeSettings(dirs, 'user', { deny: ['Read(*.env)'] });
  const { kernel } = await bootRules(dirs);
  expect(await outcome(bash(kernel, 'cat config/prod.env'))).toBe('deny');
  // The OS sandbox walks from the rules' prefixes to hide what they deny: the whole project.
  expect(kernel.container.get<PermissionSettings>(PERMISSION_SETTINGS).readRulePrefixes?.()).toEqual([dirs.root]);
  const hidden = kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy).hiddenFiles('grep');
  expect(hidden?.(at('config/prod.env'))).toBe(true);
  expect(hidden?.(at('config/app.ts'))).toBe(false);
});

it('an allow rule of that shape names no one file: it does not unlock a protected path (write ./name for that)', async () => {
  writeSettings(dirs, 'user', { allow: ['Edit(.mcp.json)'] });
  const loose = (await bootRules(dirs, { trust: false })).kernel;
  expect(await edit(loose, '.mcp.json', 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  writeSettings(dirs, 'user', { allow: ['Edit(./.mcp.json)'] });
  const exact = (await bootRules(dirs, { trust: false })).kernel;
  expect(await edit(exact, '.mcp.json', 'acceptEdits')).toMatchObject({ decision: 'allow' });
});
