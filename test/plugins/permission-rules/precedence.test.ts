/**
 * A1 precedence: deny → ask → allow across every layer (managed > session > local > project >
 * user only names the deciding rule). More variants: cross-layer-precedence.test.ts.
 */
import { definePlugin } from '../../../types/plugin.js';
import { PermissionStage } from '../../../types/permissions.js';
import { bash, bootRules, decide, edit, outcome, read, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

describe('layers: a deny of any layer, else an ask of any layer, else an allow decides', () => {
  it('a local allow does not lift a project deny', async () => {
    writeSettings(dirs, 'project', { deny: ['Bash(git push *)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(git push origin main)', 'Bash(git status)'] });
    const { kernel } = await bootRules(dirs);
    expect(await bash(kernel, 'git push origin main')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    expect(await bash(kernel, 'git push --force origin main')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    // the local allow still allows what no deny names
    expect(await bash(kernel, 'git status')).toMatchObject({ decision: 'allow', layer: 'permission-rules:local' });
  });

  it('a project deny beats a user allow', async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(npm *)'] });
    writeSettings(dirs, 'project', { deny: ['Bash(npm publish *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await bash(kernel, 'npm publish --tag next')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    expect(await bash(kernel, 'npm install')).toMatchObject({ decision: 'allow', layer: 'permission-rules:user' });
  });

  it('a project allow does not lift a user deny', async () => {
    writeSettings(dirs, 'user', { deny: ['Read(./secrets/**)'] });
    writeSettings(dirs, 'project', { allow: ['Read(./secrets/public/**)', 'Read(./docs/**)'] });
    const { kernel } = await bootRules(dirs);
    expect(await read(kernel, 'secrets/public/a.txt')).toMatchObject({ decision: 'deny', layer: 'permission-rules:user' });
    expect(await outcome(read(kernel, 'secrets/private/a.txt'))).toBe('deny');
    expect(await read(kernel, 'docs/a.md')).toMatchObject({ decision: 'allow', layer: 'permission-rules:project' });
  });

  it('session flags: --disallowedTools denies whatever a file allows; --allowedTools lifts no file\'s deny', async () => {
    writeSettings(dirs, 'local', { allow: ['Bash(curl *)'], deny: ['Bash(make deploy)'] });
    writeSettings(dirs, 'project', { deny: ['Bash(npm test)'] });
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash(npm test)', 'Bash(make deploy)', 'Bash(ls)'], disallowedTools: ['Bash(curl *)'] } });
    expect(await bash(kernel, 'npm test')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    expect(await bash(kernel, 'make deploy')).toMatchObject({ decision: 'deny', layer: 'permission-rules:local' });
    expect(await bash(kernel, 'ls')).toMatchObject({ decision: 'allow', layer: 'permission-rules:session' });
    expect(await bash(kernel, 'curl https://example.com')).toMatchObject({ decision: 'deny', layer: 'permission-rules:session' });
    expect((await bash(kernel, 'curl https://example.com'))!.reason).toContain('--disallowedTools');
  });

  it('inside a layer: deny, then ask, then allow — specificity does not matter', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(git *)', 'Bash(git push origin main)'], ask: ['Bash(git push *)'], deny: ['Bash(git push --force*)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'git status'))).toBe('allow');
    expect(await outcome(bash(kernel, 'git push origin main'))).toBe('ask');
    expect(await outcome(bash(kernel, 'git push --force origin'))).toBe('deny');
  });

  it('no matching rule anywhere leaves the decision to the mode layer', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(bash(kernel, 'ls -la'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'ls -la', 'bypassPermissions'))).toBe('mode:allow');
    expect(await outcome(edit(kernel, 'src/a.ts', 'acceptEdits'))).toBe('mode:allow');
  });

  it('plan mode stays read-only: rules may deny or ask, but do not let changes through', async () => {
    writeSettings(dirs, 'project', { allow: ['Edit(src/**)', 'Bash(npm test)', 'Read(src/**)'], deny: ['Bash(rm *)'] });
    const { kernel } = await bootRules(dirs);
    expect(await outcome(edit(kernel, 'src/a.ts', 'plan'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'npm test', 'plan'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'rm -rf x', 'plan'))).toBe('deny');
    expect(await outcome(read(kernel, 'src/a.ts', 'plan'))).toBe('allow');
    expect(await outcome(edit(kernel, 'src/a.ts', 'default'))).toBe('allow');
  });
});

describe('an organisation policy plugin between sandbox and rules', () => {
  it('wins over a local allow', async () => {
    writeSettings(dirs, 'local', { allow: ['Bash(curl *)', 'Read(**)'] });
    const policy = definePlugin({
      name: 'org-policy',
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name: 'org-policy', stage: PermissionStage.Sandbox + 50 }, async (request) => {
          if (request.target.kind === 'command' && /\bcurl\b/.test(request.target.command)) {
            return { decision: 'deny', layer: 'org-policy', reason: 'network downloads are not allowed here' };
          }
          return undefined;
        });
      },
    });
    const { kernel } = await bootRules(dirs, { plugins: [policy] });
    expect(await bash(kernel, 'curl https://example.com')).toEqual({ decision: 'deny', layer: 'org-policy', reason: 'network downloads are not allowed here' });
    // what the policy does not decide still goes to the user's rules
    expect(await outcome(decide(kernel, 'read_file', { file_path: 'a.txt' }))).toBe('allow');
  });
});
